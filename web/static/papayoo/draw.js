// The Papayoo screen's drawing: my hand, the other seats, the scores, the
// end of a round; the centre is centre.js's.
import { h, tap } from '../dom.js';
import { t, ty } from '../i18n.js';
import { backSVG } from '../cards.js';
import { around, endPanel, winnersLine } from '../screen.js';
import { paperSVG, cardText, byOrder, vars } from './cards.js';
import { me, view, playing, myTurn, left, right, legalCards, need, seatKey } from './state.js';
import { tapCard, actionsEl } from './input.js';
import { dieEl, trickEl } from './centre.js';
import { landing } from './follow.js';

// handEl is my hand, a fan of cards sorted by suit.
export function handEl(S) {
  const v = view(S);
  const hand = [...(v.hand || [])].sort(byOrder);
  const passing = v.phase === 'pass' && myTurn(S);
  const canPass = passing ? legalCards(S, 'pass') : new Set();
  const canPlay = v.phase === 'play' ? legalCards(S, 'play') : new Set();
  const locked = new Set(v.phase === 'pass' ? v.my_pass || [] : []);
  const fresh = S.received && S.received.until > Date.now() ? S.received.cards : new Set();
  const dealt = S.anim.has('hand');
  // The fewer the cards, the more of each shows: a desktop fans them
  // within about 800 px; at 360 px they wrap, ten to a row at most.
  const n = hand.length;
  const wide = Math.min(1.05, n > 1 ? 800 / (n - 1) / 78 : 1);
  const narrow = n <= 6 ? 1.04 : n <= 7 ? 0.9 : 0.62;
  const tight = (wide < 0.9 ? '.tight-w' : '') + (narrow < 0.9 ? '.tight-n' : '');
  return vars(h('div.hand' + tight, { id: 'hand' }, hand.map((c, i) => {
    const playable = canPlay.has(c) && !S.ctx.pending;
    const choosable = canPass.has(c) && !S.ctx.pending;
    const cls = ['handcard',
      S.sel.has(c) || locked.has(c) ? 'selected' : '',
      locked.has(c) ? 'locked' : '',
      fresh.has(c) ? 'received' : '',
      myTurn(S) && v.phase === 'play' && !canPlay.has(c) ? 'illegal' : '',
      playable || choosable ? 'can' : '',
      c === v.papayoo ? 'papayoo' : '',
      dealt || (S.anim.has('card:' + c) && !S.from.has(c)) ? 'anim' : ''].filter(Boolean).join(' ');
    return vars(h('button', {
      class: cls, type: 'button', 'data-action': 'move', 'data-card': c, disabled: !(playable || choosable),
      'data-key': 'papayoo:card:' + c, 'data-from': S.from.get(c),
      'aria-pressed': S.sel.has(c) ? 'true' : 'false',
      'aria-label': cardText(c), html: paperSVG(c, v.papayoo), ...tap(() => tapCard(S, c)),
    }, fresh.has(c) ? h('span.newtag', t('papayoo.new')) : null), { i, d: `${i * 25}ms` });
  })), {
    n, m: (n - 1) / 2, sw: wide.toFixed(3), sn: narrow,
    // A gentle arc: at most about ±6° and 10 px at the ends.
    rot: `${Math.min(1.2, 12 / Math.max(n, 1)).toFixed(2)}deg`, drop: `${n > 2 ? (40 / ((n - 1) * (n - 1))).toFixed(3) : 0}px`,
  });
}

// opponentEl is another seat: name, cards left, points, what it does.
export function opponentEl(S, s) {
  const v = view(S);
  const n = v.hand_sizes[s];
  const turn = playing(S) && v.to_move.includes(s);
  const passed = v.phase === 'pass' && v.passed.includes(s);
  const backs = Math.min(n, 8);
  const taking = S.lastTaker && S.lastTaker.seat === s && S.lastTaker.until > Date.now();
  return h('div' + '.opp' + (turn ? '.turn' : '') + (taking ? '.taker' : '') + (S.anim.has('seat:' + s) ? '.flash' : ''), { 'data-player': s },
    h('div.oname', h('span.nm', S.ctx.name(s)),
      v.dealer === s && v.phase !== 'over' ? h('span.badge.dealer', { title: t('papayoo.dealer') }, t('papayoo.dealer.short')) : null),
    v.phase === 'over' ? null : h('div.backs', { 'aria-label': t('papayoo.cards', { n }), 'data-key': seatKey(s) },
      Array.from({ length: backs }, (_, i) => vars(h('span.back', { html: backSVG() }), { i })),
      h('span.count', String(n))),
    h('div.ostats',
      h('span.taken', { title: t('papayoo.taken.title') }, t('papayoo.taken', { n: v.taken[s] })),
      h('span.total', t('papayoo.total', { n: v.scores[s] }))),
    v.phase === 'pass' ? h('div.pstate' + (passed ? '.done' : ''), passed ? t('papayoo.passed') : t('papayoo.choosing')) : null,
    turn && v.phase === 'play' ? h('div.pstate.playing', t('papayoo.thinking')) : null,
    taking ? h('div.takes' + (landing(S) ? '.landing' : ''), t('papayoo.takes', { n: S.lastTaker.points })) : null);
}

// The status line's word on the moment, beyond the round and the
// dealer: only what the app's hint line (help.js) does not say. What the
// player must do now, and whose turn it is, are said there once.
function hint(S) {
  const v = view(S);
  if (v.phase === 'over') return t('table.over');
  if (v.phase !== 'pass' || myTurn(S)) return null;
  if (me(S) < 0) return t('papayoo.hint.pass.watch', { n: v.pass_size });
  return t('papayoo.hint.pass.wait', { names: v.to_move.map(S.ctx.name).join(', ') });
}

// scoresEl is the table of points taken and totals.
export function scoresEl(S) {
  const v = view(S);
  const n = v.players;
  const low = Math.min(...v.scores);
  return h('table.pscores', { id: 'scores' },
    h('thead', h('tr', h('th', t('papayoo.col.player')), h('th', t('papayoo.col.taken')), h('th', t('papayoo.col.total')))),
    h('tbody', Array.from({ length: n }, (_, s) => h('tr' + (s === me(S) ? '.me' : '') + (v.scores[s] === low && v.round > 1 ? '.lead' : ''),
      h('td', S.ctx.name(s)), h('td', String(v.taken[s])), h('td', String(v.scores[s]))))));
}

// passInfoEl is, during the play, the cards I gave and got.
export function passInfoEl(S) {
  const v = view(S);
  if (me(S) < 0 || v.phase !== 'play' || !v.received) return null;
  return h('div.passinfo',
    h('div', h('span', t('papayoo.gave', { name: S.ctx.name(left(S, me(S))) })), ' ',
      h('span.minis', (v.my_pass || []).map(c => h('span.mini', { html: paperSVG(c, v.papayoo) })))),
    h('div', h('span', t('papayoo.got', { name: S.ctx.name(right(S, me(S))) })), ' ',
      h('span.minis', v.received.map(c => h('span.mini', { html: paperSVG(c, v.papayoo) })))));
}

// overlayEl is the panel of a round's or the game's end.
export function overlayEl(S) {
  if (!S.overlay) return null;
  const v = view(S);
  const scores = S.overlay.scores || v.scores;
  const rs = S.overlay.roundScores || v.round_scores;
  const winners = S.overlay.winners || [];
  return endPanel(S.ctx, S.overlay.kind, '.papresults', () => { S.overlay = null; },
    h('h2', S.overlay.kind === 'over' ? t('table.over') : t('papayoo.round_end', { n: S.overlay.round, of: v.options.rounds })),
    S.overlay.kind === 'over' ? winnersLine(S.ctx, winners) : h('p', t('papayoo.round_end.note')),
    papayooLine(S, S.overlay.papayoo),
    h('table.results',
      h('tr', h('th', t('papayoo.col.player')), h('th', t('papayoo.col.round')), h('th', t('papayoo.col.total'))),
      scores.map((x, s) => h('tr' + (winners.includes(s) ? '.win' : ''),
        h('td', S.ctx.name(s)), h('td', rs && rs[s] !== undefined ? String(rs[s]) : ''), h('td', String(x))))));
}

// papayooLine says who took the round's Papayoo, its 40 points the
// biggest part of a round's score; nothing when this page did not see it.
function papayooLine(S, p) {
  if (!p || p.taker < 0) return null;
  const mine = p.taker === me(S);
  return h('p.paptaker', { id: 'papayoo-taker' }, h('span.mini', { html: paperSVG(p.card, p.card) }), ' ',
    t(mine ? 'papayoo.end.taker.me' : 'papayoo.end.taker', { name: S.ctx.name(p.taker), card: cardText(p.card) }));
}

// render draws the screen: the status line, the others, the centre and
// the side (die, scores), my place with the pass bar and my hand.
export function render(S, root) {
  const v = view(S);
  const mine = me(S) >= 0;
  const others = around(me(S), v.players);
  Object.assign(root.dataset, {
    phase: v.phase, myturn: myTurn(S) && !S.ctx.pending ? '1' : '0', need: v.phase === 'pass' ? need(S) : '',
    round: v.round, overlay: S.overlay ? S.overlay.kind : '', led: v.led || '', die: v.die || '', turn: v.turn,
    selected: S.sel.size,
  });
  root.classList.add('papayoo-game');
  const myStats = mine ? h('div.mystats',
    h('span.nm', S.ctx.name(me(S))),
    v.dealer === me(S) && v.phase !== 'over' ? h('span.badge.dealer', t('papayoo.dealer.short')) : null,
    h('span.taken', t('papayoo.taken', { n: v.taken[me(S)] })),
    h('span.total', t('papayoo.total', { n: v.scores[me(S)] }))) : null;
  root.append(...[
    h('div.status' + (myTurn(S) ? '.yours' : ''), { id: 'status' },
      h('strong', t('papayoo.round', { n: v.round, of: v.options.rounds })), ' · ',
      h('span', ty('papayoo.dealt', v.dealer === me(S), { name: S.ctx.name(v.dealer) })), hint(S) ? [' · ', h('span.hint', hint(S))] : null),
    h('div.ptable',
      h('div.opps', others.map(s => opponentEl(S, s))),
      h('div.felt', trickEl(S), h('aside.side', dieEl(S), scoresEl(S)))),
    mine && v.phase !== 'over' ? h('div.me' + (myTurn(S) ? '.turn' : ''), { 'data-player': me(S) }, myStats, actionsEl(S), handEl(S), passInfoEl(S)) : null,
    overlayEl(S),
  ].filter(Boolean));
  S.anim = new Set();
  S.from = new Map();
}
