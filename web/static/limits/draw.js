// The Limits screen's drawing: the other seats, the limit card, the
// active pile, the decks, my hidden cards and hand.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { backSVG } from '../cards.js';
import { around } from '../screen.js';
import { shape, colourSVG, limitSVG, limitBackSVG } from './cards.js';
import { me, view, cname, cardName, hideN, playing, myMove, unlimited, accusable, selColours, placeable } from './state.js';
import { clickCard, clickSeat, act, actions } from './input.js';
import { lastAccEl, scoreTable, overlayEl } from './accusation.js';

const scoreText = (S, s) => t('limits.score', { score: view(S).scores[s] });

// tokens is the limit cards a seat took: a chip each, or past three one
// chip with their count ("−2 ×17"), which keeps a long game's header in
// one line of a phone.
function tokens(n) {
  if (n <= 0) return null;
  return h('span.lim-tokens', { title: tn('limits.taken', n) },
    n > 3 ? h('span.lim-token', '−2 ×' + n) : Array.from({ length: n }, () => h('span.lim-token', '−2')));
}

// chip is a colour as a dot and its name (or label).
export function chip(c, label) {
  return h('span.lim-chip.c-' + c, h('span.lim-dot', { html: `<svg viewBox="-20 -20 40 40" aria-hidden="true">${shape(c, 0, 0, 0.9, '#fff')}</svg>` }), label ?? cname(c));
}

// opponentEl is another seat: name, score, cards, its last colour; a
// button when it may be accused.
export function opponentEl(S, s) {
  const v = view(S);
  const turn = playing(S) && v.to_move.includes(s);
  const can = myMove(S) && v.phase === 'turn' && accusable(S, s);
  const hid = v.has_hidden.includes(s);
  const cls = ['lim-opp', turn ? 'turn' : '', can ? 'can-accuse' : '', S.target === s ? 'target' : '',
    S.anim.has('seat:' + s) ? 'pulse' : '', v.winners?.includes(s) ? 'win' : ''].filter(Boolean).join('.');
  const n = v.hand_counts[s];
  const body = [
    h('div.lim-pname', h('span.lim-name', S.ctx.name(s)), h('span.score', scoreText(S, s)), tokens(v.limits_taken[s]),
      v.leader === s && v.phase !== 'over' ? h('span.lim-badge', t('limits.leader')) : null),
    h('div.lim-row',
      h('span.lim-fan', { title: tn('limits.handcount', n), 'data-key': 'lim:seat:' + s },
        Array.from({ length: Math.min(n, 6) }, () => h('span.lim-mini', { html: backSVG() })),
        h('span.lim-count', '×' + n)),
      hid || v.phase === 'hide' ? h('span.lim-hid' + (hid ? '' : '.waiting'), hid ? tn('limits.hidden.n', hideN(S)) : t('limits.hiding')) : null),
    h('div.lim-last', S.last[s] ? [t('limits.lastplaced'), ' ', chip(S.last[s])] : (v.placed.includes(s) ? t('limits.placed') : t('limits.noplaced'))),
    can ? h('div.lim-accusehint', S.target === s ? t('limits.accuse.chosen', { color: cname(S.last[s] || '?') }) : t('limits.accuse.tap')) : null,
    can && S.target === s && unlimited(S, S.last[s]) ? h('div.lim-warn', t('limits.accuse.x', { color: cname(S.last[s]) })) : null,
  ];
  if (can) {
    return h('button.' + cls, {
      type: 'button', 'data-seat': s, 'data-player': s, 'aria-pressed': S.target === s ? 'true' : 'false',
      onclick: () => clickSeat(S, s),
    }, body);
  }
  return h('div.' + cls, { 'data-player': s }, body);
}

// limitCardEl is the round's limit card, and my hidden colours.
function limitCardEl(S) {
  const v = view(S);
  const mine = {};
  for (const c of v.hidden) mine[c] = (mine[c] || 0) + 1;
  return h('div.lim-pile',
    h('div.lim-card.lim-limit' + (S.anim.has('limit') ? '.anim' : ''), { id: 'limitcard', html: limitSVG(v.base, v.limit), 'aria-label': t('limits.limitcard') }),
    h('div.label', t('limits.limitcard')),
    Object.keys(mine).length ? h('div.lim-mine', { title: t('limits.mine.title') }, h('span.label', t('limits.mine')),
      Object.entries(mine).map(([c, n]) => chip(c, '+' + n))) : null);
}

// pileEl is the active pile: its top card, where I place mine.
function pileEl(S) {
  const v = view(S);
  const c = selColours(S)[0];
  const can = myMove(S) && v.phase === 'turn' && S.sel.length === 1 && placeable(S, c);
  return h('div.lim-pile.lim-active',
    h('button.lim-card.lim-pilecard' + (v.pile_top ? '' : '.empty') + (can ? '.can' : '') + (S.anim.has('pile') ? '.anim' : ''), {
      type: 'button', 'data-action': 'pile', disabled: !can || S.ctx.pending, onclick: act(S).place,
      'data-key': 'lim:pile', 'data-from': S.pileFrom ?? undefined,
      'aria-label': v.pile_top ? t('limits.pile.top', { card: cardName(v.pile_top) }) : t('limits.pile.empty'),
      html: v.pile_top ? colourSVG(v.pile_top) : '',
    }, v.pile_top ? null : h('span.lim-empty', can ? t('limits.pile.tapto') : t('limits.pile.empty'))),
    h('div.label', tn('limits.pile', v.pile_count)),
    S.topBy >= 0 && v.pile_top ? h('div.label.lim-by', t('limits.pile.by', { name: S.ctx.name(S.topBy) })) : null);
}

// deckEl is the draw pile and the limit cards left.
function deckEl(S) {
  const v = view(S);
  return h('div.lim-pile.lim-decks',
    h('div.lim-stack',
      h('div.lim-card.lim-small', { html: backSVG() }),
      h('div.label', t('limits.draw', { n: v.draw_count }))),
    h('div.lim-stack',
      h('div.lim-card.lim-small' + (v.limits_left ? '' : '.empty'), { html: v.limits_left ? limitBackSVG() : '' }),
      h('div.label', t('limits.left', { n: v.limits_left }))));
}

// myAreaEl is my place: name, score, hidden cards and hand.
function myAreaEl(S) {
  const v = view(S);
  const s = me(S);
  const turn = playing(S) && v.to_move.includes(s);
  // The cards just drawn slide in (the last ones of their colour).
  const drawnLeft = [...S.drawn];
  const fresh = new Set();
  for (let k = v.hand.length - 1; k >= 0; k--) {
    const j = drawnLeft.indexOf(v.hand[k]);
    if (j >= 0) { fresh.add(k); drawnLeft.splice(j, 1); }
  }
  const hidden = v.hidden.map(c => h('div.lim-card.lim-hiddencard' + (S.anim.has('hidden') ? '.anim' : ''), {
    'data-hidden': c, title: t('limits.hidden.peek', { card: cardName(c) }),
  }, h('span.lim-back', { html: backSVG() }), h('span.lim-peek.c-' + c, cname(c))));
  return h('div.lim-me' + (turn ? '.turn' : ''), { 'data-player': s },
    h('div.lim-pname', h('span.lim-name', S.ctx.name(s)), h('span.score', scoreText(S, s)), tokens(v.limits_taken[s]),
      S.last[s] ? h('span.lim-last', t('limits.lastplaced'), ' ', chip(S.last[s])) : null,
      v.leader === s && v.phase !== 'over' ? h('span.lim-badge', t('limits.leader')) : null),
    h('div.lim-mycards',
      hidden.length ? h('div.lim-hiddenbox', h('div.label', tn('limits.hidden.mine', hidden.length)), h('div.lim-cards', hidden)) : null,
      h('div.lim-handbox', h('div.label', t('limits.hand', { n: v.hand.length })),
        h('div.lim-cards.lim-hand', v.hand.length ? v.hand.map((c, i) => h('button.lim-card.c-' + c +
          (S.sel.includes(i) ? '.selected' : '') + (fresh.has(i) ? '.anim' : ''), {
          type: 'button', 'data-i': i, 'data-card': c, disabled: !myMove(S) || S.ctx.pending,
          // Equal cards are told apart by their rank among equals.
          'data-key': `lim:hand:${c}:${v.hand.slice(0, i).filter(x => x === c).length}`,
          'aria-label': cardName(c), 'aria-pressed': S.sel.includes(i) ? 'true' : 'false',
          html: colourSVG(c), onclick: () => clickCard(S, i),
        })) : h('span.lim-none', t('limits.hand.empty'))))));
}

// The status line's word on the moment, beyond the round: only what the
// app's hint line (help.js) does not say, who leads a round. What the
// player must do now, and whom the table waits for, are said there once.
function hint(S) {
  const v = view(S);
  if (v.phase === 'over') return t('table.over');
  if (v.phase === 'turn' && !v.led && v.turn !== me(S)) return t('limits.hint.lead.other', { name: S.ctx.name(v.turn) });
  return null;
}

// render draws the screen: the status line, the others, the limit card,
// the pile and the decks, my place, the buttons, the scores.
export function render(S, root) {
  const v = view(S);
  const mine = me(S) >= 0;
  const others = around(me(S), v.players);
  Object.assign(root.dataset, {
    phase: v.phase, myturn: myMove(S) && !S.ctx.pending ? '1' : '0', need: hideN(S), turn: v.turn, round: v.round,
    overlay: S.overlay ? S.overlay.kind : '', hand: v.hand.length, pile: v.pile_count, left: v.limits_left,
  });
  root.classList.add('lim');
  root.append(...[
    h('div.status', { id: 'status' }, h('strong', t('table.round', { n: v.round })), hint(S) ? [' · ', hint(S)] : null),
    h('div.lim-opps', others.map(s => opponentEl(S, s))),
    h('div.lim-center', limitCardEl(S), pileEl(S), deckEl(S)),
    lastAccEl(S),
    mine ? myAreaEl(S) : null,
    h('div.actions', { id: 'actions' }, actions(S)),
    h('details.lim-scores', h('summary', t('table.scores'), ' · ', t('limits.left', { n: v.limits_left })), scoreTable(S, false), h('p.lim-note', t('limits.scorenote'))),
    overlayEl(S),
  ].filter(Boolean));
  S.anim = new Set();
  S.pileFrom = null;
  S.drawn = [];
}
