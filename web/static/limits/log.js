// The Limits log's words, and a refusal's.
import { t, tn, ty, tw } from '../i18n.js';
import { refusalText } from '../refusal.js';
import { COLOURS } from './cards.js';
import { cname, cardName, hideN } from './state.js';
import { learn } from './follow.js';
import { verdict } from './accusation.js';

// logLine is an event as a line of the log, in the page's language. An
// event it sees first (a reconnection's history) is learnt here.
export function logLine(S, e) {
  if (learn(S, e) && !S.catchUp) {
    // An event of a reconnection's history, first seen here: draw
    // again once with what it told.
    S.catchUp = true;
    setTimeout(() => { S.catchUp = false; S.ctx.render(); }, 0);
  }
  const nm = s => S.ctx.name(s);
  const mine = e.seat !== undefined && e.seat === S.ctx.seat;
  switch (e.type) {
    case 'round': return ty('limits.log.round', mine, { round: e.round, name: nm(e.seat), limit: e.limit,
      base: COLOURS.map((c, i) => `${cname(c)} ${e.base?.[i] ?? 'X'}`).join(', ') });
    case 'hide':
      return e.cards ? t('limits.log.hide.me', { cards: e.cards.map(cardName).join(', ') }) : tn('limits.log.hide', hidden(S), { name: nm(e.seat) });
    case 'place': return ty('limits.log.place', mine, { name: nm(e.seat), card: cardName(e.card) });
    case 'draw':
      return e.cards ? t('limits.log.draw.me', { cards: e.cards.map(cardName).join(', ') }) : tn('limits.log.draw', e.count, { name: nm(e.seat) });
    case 'exchange': return ty('limits.log.exchange', mine, { name: nm(e.seat), color: cname(e.color) });
    case 'pass': return ty('limits.log.pass', mine, { name: nm(e.seat) });
    case 'accuse': {
      const a = e.accusation;
      if (!a) return ty('limits.log.accuse.short', mine, { name: nm(e.seat) });
      const key = a.accuser === S.ctx.seat ? 'limits.log.accuse.you' : a.suspect === S.ctx.seat ? 'limits.log.accuse.at_you' : 'limits.log.accuse';
      return t(key, {
        accuser: nm(a.accuser), suspect: nm(a.suspect), color: cname(a.color),
        hidden: a.hidden.map((cs, s) => ty('limits.log.hidden', s === S.ctx.seat, { name: nm(s), cards: cs.map(cardName).join(', ') || '—' })).join('; '),
      }) + ' ' + verdict(S, a);
    }
    case 'game_over': return tw('limits.log.game_over', e.winners || [], S.ctx.seat, { names: (e.winners || []).map(nm).join(', '),
      scores: (e.scores || []).map((x, s) => `${nm(s)} ${x}`).join(', ') });
  }
  return null;
}

// explain puts a refusal ({code, reason, args, error}) into the
// player's language: a colour (args.colour) is named as a card; a hide
// of the wrong count read from JSON does not know the table's, n.
export function explain(S, m) {
  return refusalText(m, 'limits', S.ctx.name, (a, reason) => {
    const col = COLOURS.includes(a.colour) ? a.colour : null;
    const words = col ? { color: cname(col), card: cardName(col) } : {};
    return reason === 'hide_count' && a.n === undefined ? { ...words, n: hideN(S) } : words;
  });
}

// hidden is how many cards each seat hides a round: 2 at two players,
// else 1. The log may be drawn before the table's first state (a
// reconnection's history), when only the table's info knows the players.
function hidden(S) {
  const n = S.ctx.state?.view?.players ?? S.ctx.info?.players;
  return n === 2 ? 2 : 1;
}
