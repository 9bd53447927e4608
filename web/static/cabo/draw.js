// The Cabo screen's drawing: the players' rows of face-down cards, the
// draw and discard piles, the drawn card, the end of a round.
import { h, tap } from '../dom.js';
import { t, tn, ty, tny, tw } from '../i18n.js';
import { faceSVG, backSVG } from '../cards.js';
import { around, endPanel, winnersLine } from '../screen.js';
import { me, view, key, myTurn } from './state.js';
import { clickSlot, act, actions } from './input.js';

// slotEl is a card of seat's row: face down, shown for a moment, or
// face up at the game's end.
export function slotEl(S, seat, slot, filled, big) {
  const k = key(seat, slot);
  const r = S.revealed.get(k);
  let shown = r && r.until > Date.now() ? r.card : null;
  const v = view(S);
  if (v.phase === 'over' && v.last_round) {
    // The game is over: every card of the last round is shown.
    const c = v.last_round.hands[seat][slot];
    shown = c >= 0 ? c : null;
    filled = c >= 0;
  }
  const cls = ['slot', big ? 'big' : '',
    filled ? '' : 'empty',
    seat === me(S) && S.sel.has(slot) ? 'selected' : '',
    S.targets.some(x => x.seat === seat && x.slot === slot) ? 'target' : '',
    shown !== null ? 'revealed' : '',
    shown !== null && S.flips.has(k) ? 'flip' : '',
    S.anim.has(k) && !S.from.has(k) ? 'anim' : ''].filter(Boolean).join(' ');
  return h('button', {
    class: cls, type: 'button', 'data-seat': seat, 'data-slot': slot, disabled: !filled,
    'data-key': 'cabo:' + k, 'data-from': S.from.get(k),
    'aria-label': slotLabel(S, seat, slot, filled, shown),
    html: filled ? (shown !== null ? faceSVG(shown) : backSVG()) : '',
    ...tap(() => clickSlot(S, seat, slot)),
  });
}

// slotLabel is a card in words for screen readers: whose, which, and
// its value only while the page shows it.
export function slotLabel(S, seat, slot, filled, shown) {
  const mine = seat === me(S);
  const p = { name: S.ctx.name(seat), slot: slot + 1, card: shown };
  if (!filled) return t(mine ? 'a11y.card.mine.empty' : 'a11y.card.empty', p);
  if (shown === null) return t(mine ? 'a11y.card.mine.hidden' : 'a11y.card.hidden', p);
  return t(mine ? 'a11y.card.mine.shown' : 'a11y.card.shown', p);
}

// playerEl is a player's row: name, score, cards (big: mine).
export function playerEl(S, seat, big) {
  const v = view(S);
  const turn = v.to_move.includes(seat) && v.phase !== 'over';
  return h('div' + '.player' + (big ? '.mine' : '') + (turn ? '.turn' : ''), { 'data-player': seat },
    h('div.pname', h('span', S.ctx.name(seat)), ' ',
      h('span.score', t('cabo.score', { score: v.scores[seat] })),
      v.caller === seat ? h('span.badge', t('cabo.caller')) : null),
    h('div.slots', v.slots[seat].map((f, i) => slotEl(S, seat, i, f, big))));
}

// The status line's facts beyond the round: the game's end, or who
// called Cabo and how many turns are left. What to do now, and whom the
// table waits for, is the app's hint line's (help.js), said once.
export function facts(S) {
  const v = view(S);
  if (v.phase === 'over') return [' · ', t('table.over')];
  if (v.caller >= 0) return [' · ', tny('cabo.hint.final', v.caller === me(S), v.final_turns_left, { name: S.ctx.name(v.caller) })];
  return [];
}

// overlayEl is the panel of a round's or the game's end.
export function overlayEl(S) {
  if (!S.overlay) return null;
  const v = view(S);
  const end = S.overlay.end;
  const table = end ? h('table.results',
    h('tr', ['cabo.col.player', 'cabo.col.hand', 'cabo.col.total', 'cabo.col.round', 'cabo.col.score'].map(k => h('th', t(k)))),
    // At the game's end the game's winners stand out, not the last round's.
    end.hands.map((hand, s) => h('tr' + ((S.overlay.kind === 'over' ? S.overlay.winners || [] : end.winners).includes(s) ? '.win' : ''),
      h('td', S.ctx.name(s), end.caller === s ? h('span.called', t('cabo.caller')) : null),
      // The cards in a box of their own: a cell that is itself a flex box
      // is no table cell, and its row no longer lines up with the others.
      h('td', h('div.minicards', hand.map(c => (c < 0 ? h('span.mini.empty') : h('span.mini', { html: faceSVG(c) }))))),
      h('td', end.totals[s]), h('td', end.round_scores[s]), h('td', (S.overlay.scores || v.scores)[s])))) : null;
  return endPanel(S.ctx, S.overlay.kind, '.caboresults', () => { S.overlay = null; },
    h('h2', S.overlay.kind === 'over' ? t('table.over') : t('cabo.round_end', { n: S.overlay.round || '' })),
    S.overlay.kind === 'over' ? winnersLine(S.ctx, S.overlay.winners) : null,
    table,
    end ? explainEl(S, end, S.overlay.kind === 'over') : null);
}

// explainEl says where the round's numbers come from, by the rules
// (docs/rules.md, Cabo): a kamikaze, who scores 0, the caller's 5-point
// penalty, a score of exactly 100 dropping back, and at the game's end
// why it ended.
export function explainEl(S, end, over) {
  const nm = S.ctx.name;
  const v = view(S);
  const lines = [];
  const c = end.caller;
  if (end.kamikaze >= 0) {
    lines.push(ty('cabo.explain.kamikaze', end.kamikaze === me(S), { name: nm(end.kamikaze) }));
  } else if (c >= 0 && end.winners.includes(c) && end.totals.some((x, s) => s !== c && x === end.totals[c])) {
    lines.push(ty('cabo.explain.tie', c === me(S), { name: nm(c), total: end.totals[c] }));
  } else {
    const w = end.winners;
    lines.push(tw('cabo.explain.low', w, me(S), { names: w.map(nm).join(', '), total: end.totals[w[0]] }));
  }
  if (end.kamikaze < 0 && c >= 0 && !end.winners.includes(c)) {
    lines.push(ty('cabo.explain.penalty', c === me(S), { name: nm(c), total: end.totals[c], score: end.round_scores[c] }));
  }
  for (const s of end.reset || []) lines.push(ty('cabo.explain.reset', s === me(S), { name: nm(s), to: v.options.reset_at_100_to }));
  if (over) lines.push(t('cabo.explain.over'));
  return h('ul.cabo-explain', { id: 'explain' }, lines.map(l => h('li', l)));
}

// render draws the screen: the status line, the others' rows, the piles
// and the drawn card, my row, the buttons.
export function render(S, root) {
  const v = view(S);
  const mine = me(S) >= 0;
  const others = around(me(S), v.players);
  Object.assign(root.dataset, {
    phase: v.phase, myturn: myTurn(S) && !S.ctx.pending ? '1' : '0', need: v.options.initial_peek,
    drawn: v.drawn ?? '', turn: v.turn, round: v.round, overlay: S.overlay ? S.overlay.kind : '',
  });
  const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
  const canDraw = myTurn(S) && v.phase === 'turn';
  root.append(...[
    h('div.status', { id: 'status' }, h('strong', t('table.round', { n: v.round })), ...facts(S)),
    h('div.opponents', others.map(s => playerEl(S, s, false))),
    h('div.center',
      h('div.pile', h('button.slot.big.drawpile' + (canDraw ? '.can' : ''), {
        type: 'button', 'data-action': 'drawpile', 'data-key': 'cabo:drawpile', html: backSVG(), disabled: !canDraw || S.ctx.pending,
        ...tap(act(S).draw), 'aria-label': t('a11y.drawpile', { n: v.draw_count }),
      }), h('div.label', t('cabo.draw.pile', { n: v.draw_count }))),
      h('div.pile', h('button.slot.big.discardpile' + (S.anim.has('discard') && !S.from.has('discard') ? '.anim' : '') + (canDraw && S.sel.size ? '.can' : ''), {
        type: 'button', 'data-action': 'discardpile', 'data-key': 'cabo:discard', 'data-from': S.from.get('discard'), html: top === null ? '' : faceSVG(top),
        disabled: !canDraw || S.ctx.pending, ...tap(() => (S.sel.size ? act(S).take() : null)),
        'aria-label': top === null ? t('a11y.discard.empty') : t('a11y.discard', { card: top }),
      }), h('div.label', t('cabo.discard.pile'))),
      v.drawn != null ? h('div.pile.drawn', h('div.slot.big' + (S.anim.has('drawn') ? '.anim' : ''), { html: faceSVG(v.drawn), id: 'drawn', 'data-key': 'cabo:drawn', 'data-from': S.from.get('drawn'), role: 'img', 'aria-label': t('a11y.drawn', { card: v.drawn }) }),
        h('div.label', t('cabo.drawn'))) : null),
    mine ? playerEl(S, me(S), true) : null,
    h('div.actions', { id: 'actions' }, actions(S)),
    overlayEl(S),
  ].filter(Boolean));
  S.anim = new Set();
  S.flips = new Set();
  S.from = new Map();
}
