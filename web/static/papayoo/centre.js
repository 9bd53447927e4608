// The centre of the Papayoo table: the trick, the pass being made, the
// die and its Papayoo.
import { h, tap } from '../dom.js';
import { t, tn, ty } from '../i18n.js';
import { suitIcon, paperSVG, cardText, suitOf, rankOf, byOrder, suitName } from './cards.js';
import { me, view, myTurn, left } from './state.js';
import { tapCard } from './input.js';
import { landing } from './follow.js';

// cardEl is a card face up on the table.
export function cardEl(S, c, opts = {}) {
  const v = view(S);
  // A card that travels (motion.js) does not also slide in by CSS,
  // which would make its place wrong to travel to.
  const cls = ['pcard', opts.cls || '', c === v.papayoo ? 'papayoo' : '', S.anim.has('card:' + c) && !S.from.has(c) ? 'anim' : ''].filter(Boolean).join(' ');
  return h('div', { class: cls, 'data-card': c, 'data-key': 'papayoo:card:' + c, 'data-from': S.from.get(c), html: paperSVG(c, v.papayoo) });
}

// dieEl is the die, its Papayoo, and the rule of the points.
export function dieEl(S) {
  const v = view(S);
  if (!v.die) {
    return h('div.die.pending', { id: 'die', 'data-die': '' },
      h('div.face', '?'), h('div.dlabel', t('papayoo.die.pending')), h('div.drule', t('papayoo.rule.points')));
  }
  return h('div.die' + (S.anim.has('die') ? '.anim' : ''), { id: 'die', 'data-die': v.die },
    h('div.face', { html: suitIcon(v.die, 'die-ico') }),
    h('div.dlabel', t('papayoo.die', { suit: suitName(v.die) })),
    h('div.papmini', { html: paperSVG(v.papayoo, v.papayoo) }),
    h('div.dlabel.strong', t('papayoo.papayoo', { card: cardText(v.papayoo) })),
    h('div.drule', t('papayoo.rule.points')));
}

// best is the card winning the trick so far: the highest of the led suit.
function best(trick) {
  if (!trick.length) return -1;
  const led = suitOf(trick[0].card);
  let b = 0;
  trick.forEach((p, i) => { if (suitOf(p.card) === led && rankOf(p.card) > rankOf(trick[b].card)) b = i; });
  return b;
}

// passEl shows the pass being made in the centre: the chosen cards
// (a tap puts one back) and the empty places left.
export function passEl(S) {
  const v = view(S);
  const sent = !myTurn(S);
  const chosen = sent ? (v.my_pass || []).slice().sort(byOrder) : [...(v.my_pass || []), ...S.sel];
  return h('div.trickzone.passzone', { id: 'trick', 'data-led': '', 'data-count': 0 },
    h('div.caption', t(sent ? 'papayoo.pass.sent' : 'papayoo.pass.to', { name: S.ctx.name(left(S, me(S))) })),
    h('div.passslots', Array.from({ length: v.pass_size }, (_, i) => {
      const c = chosen[i];
      if (!c) return h('div.pslot.empty');
      const back = !sent && S.sel.has(c);
      return h('button.pslot', {
        type: 'button', 'data-slot-card': c, disabled: !back || S.ctx.pending, 'aria-label': cardText(c),
        html: paperSVG(c, v.papayoo), ...tap(() => tapCard(S, c)),
      });
    }), h('div.arrow', { 'aria-hidden': 'true' }, '➜')),
    h('div.note', sent ? t('papayoo.pass.hidden') : t('papayoo.pass.rule')));
}

// overEl is the centre at the game's end: the winners.
export function overEl(S) {
  const v = view(S);
  const winners = v.winners || [];
  return h('div.trickzone.overzone', { id: 'trick', 'data-led': '', 'data-count': 0 },
    h('div.caption', t('table.over')),
    h('div.bigwin', tn('table.winners', winners.length, { names: winners.map(S.ctx.name).join(', ') })),
    h('div.note', t('papayoo.over.note', { n: Math.min(...v.scores) })));
}

// trickEl is the centre: the trick being played (or the last one), the
// pass being made, or the game's end.
export function trickEl(S) {
  const v = view(S);
  if (v.phase === 'pass' && me(S) >= 0) return passEl(S);
  if (v.phase === 'over') return overEl(S);
  let cards = v.trick || [], done = false, winner = -1, points = 0;
  if (!cards.length && v.last_trick && v.phase === 'play') {
    cards = v.last_trick.cards; done = true; winner = v.last_trick.winner; points = v.last_trick.points;
  }
  const b = done ? cards.findIndex(p => p.seat === winner) : best(cards);
  const led = v.led || (done && cards.length ? suitOf(cards[0].card) : '');
  let caption;
  if (v.phase === 'pass') caption = t('papayoo.trick.pass');
  else if (v.phase === 'over') caption = t('table.over');
  else if (done) caption = ty('papayoo.trick.won', winner === me(S), { name: S.ctx.name(winner), n: points });
  else if (!cards.length) caption = ty('papayoo.trick.lead', v.turn === me(S), { name: S.ctx.name(v.turn) });
  else caption = t('papayoo.trick.led', { suit: suitName(led) });
  return h('div.trickzone' + (done ? '.done' : '') + (done && landing(S) ? '.landing' : ''), { id: 'trick', 'data-led': v.led || '', 'data-count': (v.trick || []).length },
    h('div.caption', led && !done && v.phase === 'play' ? h('span', { html: suitIcon(led) }) : null, ' ', caption),
    h('div.trick', cards.map((p, i) => h('div.played' + (i === b ? '.best' : '') + (p.seat === me(S) ? '.mine' : ''), { 'data-seat': p.seat },
      cardEl(S, p.card, { cls: p.seat === me(S) ? 'from-me' : 'from-top' }),
      h('div.who', p.seat === me(S) ? t('table.you') : S.ctx.name(p.seat)),
      i === b && done ? h('div.crown', t('papayoo.trick.taker')) : null))),
    !done && v.last_trick && cards.length && v.phase === 'play'
      ? h('div.lasttrick', h('span', ty('papayoo.last', v.last_trick.winner === me(S), { name: S.ctx.name(v.last_trick.winner), n: v.last_trick.points })),
        v.last_trick.cards.map(p => h('span.mini', { html: paperSVG(p.card, v.papayoo), title: S.ctx.name(p.seat), 'data-key': 'papayoo:card:' + p.card })))
      : null);
}
