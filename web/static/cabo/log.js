// The Cabo log's words: each event as a line.
import { t, tn, ty, tny, tw } from '../i18n.js';
import { me, slotsText } from './state.js';

// logLine is an event as a line of the log, in the page's language.
export function logLine(S, e) {
  const nm = s => S.ctx.name(s);
  const c = x => (x === undefined || x === null ? '?' : x);
  // Memory is a rule: what this seat saw privately (e.seen of its own
  // look) is written only at a table with the memory aid. The server
  // leaves it out of a reconnection's history too; live events still
  // carry it, for the few seconds the screen shows the card.
  const aid = !!S.ctx.info?.memory_aid;
  const mine = e.seat === me(S);
  const saw = mine && aid && e.seen;
  switch (e.type) {
    case 'deal': return ty('cabo.log.deal', mine, { round: e.round, name: nm(e.seat), card: c(e.card) });
    case 'peek_initial':
      if (saw) return t('memory.log.peek_initial', { slots: slotsText(e.slots), seen: e.seen.join(', ') });
      return e.seat === me(S) ? t('cabo.log.peek_initial.me', { slots: slotsText(e.slots) }) : t('cabo.log.peek_initial', { name: nm(e.seat), n: e.slots.length });
    case 'draw': return saw ? t('cabo.log.draw.me', { card: e.seen[0] }) : ty('cabo.log.draw', mine, { name: nm(e.seat) });
    case 'take_discard': case 'replace':
      // A wrong set claim is legal and costs its maker (bots make some
      // on purpose): the line says so plainly, and what it cost.
      if (e.failed) return ty('cabo.log.wrong.' + e.type, mine, { name: nm(e.seat), slots: slotsText(e.slots), seen: e.seen.join(', '), card: c(e.card) });
      return ty('cabo.log.' + e.type, mine, { name: nm(e.seat), card: c(e.card), slots: tny('cabo.slots', mine, e.slots.length, { slots: slotsText(e.slots) }), discarded: (e.discarded || []).join(', ') });
    case 'discard': return ty('cabo.log.discard', mine, { name: nm(e.seat), card: c(e.card) });
    case 'peek': return ty('cabo.log.peek', mine, { name: nm(e.seat), card: c(e.card), slot: e.target.slot + 1 }) + (saw ? ' ' + t('memory.log.saw', { card: e.seen[0] }) : '');
    case 'spy': return ty(e.target.seat === me(S) ? 'cabo.log.spy.me' : 'cabo.log.spy', mine, { name: nm(e.seat), card: c(e.card), target: nm(e.target.seat), slot: e.target.slot + 1 }) + (saw ? ' ' + t('memory.log.saw', { card: e.seen[0] }) : '');
    case 'swap': return ty('cabo.log.swap', mine, {
      name: nm(e.seat), card: c(e.card),
      a: slotOf(S, e.a, e.seat), b: slotOf(S, e.b, e.seat),
    });
    case 'cabo': return ty('cabo.log.cabo', mine, { name: nm(e.seat) });
    case 'reshuffle': return t('cabo.log.reshuffle', { count: e.count });
    case 'round_end': return t('cabo.log.round_end', { scores: e.end.round_scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
    case 'game_over': return tw('cabo.log.game_over', e.winners, S.ctx.seat, { names: e.winners.map(nm).join(', ') });
  }
  return null;
}

// slotOf names a card of the table by its owner: "your card 2" for mine,
// "their card 2" for one of the actor's own.
function slotOf(S, x, actor) {
  const key = x.seat === me(S) ? 'cabo.slot.of.me' : x.seat === actor ? 'cabo.slot.of.own' : 'cabo.slot.of';
  return t(key, { name: S.ctx.name(x.seat), slot: x.slot + 1 });
}
