// The Da Capo! screen's drawing: the players' places, the centre, the
// status line and the end of a game.
import { h } from '../dom.js';
import { t, tn, tw } from '../i18n.js';
import { backSVG } from '../cards.js';
import { around, endPanel } from '../screen.js';
import { me, view, myTurn, cardName, legal, srcKey, srcCard, sameSrc } from './state.js';
import { pick, endTurn } from './input.js';
import { cardEl, pileEl, stockEl, helpersEl, handBacks } from './piles.js';

// nameEl is a player's name over their piles: whether they are playing
// (turn), and their points in a match.
function nameEl(S, s, turn) {
  const v = view(S);
  return h('div.dc-pname', h('span.dc-name', S.ctx.name(s)),
    turn ? h('span.dc-badge', t('dacapo.playing')) : null,
    v.options.match_target ? h('span.dc-score', t('dacapo.points', { n: v.scores[s] })) : null);
}

// opponentEl is another seat: name, piles, hand.
function opponentEl(S, s, L) {
  const v = view(S);
  const turn = v.turn === s && S.ctx.state.status === 'playing';
  return h('div.dc-player' + (turn ? '.turn' : ''), { 'data-player': s },
    nameEl(S, s, turn),
    h('div.dc-row', stockEl(S, s, L, false), helpersEl(S, s, L)),
    handBacks(S, s));
}

// myEl is my place: name, personal and helper piles, hand.
function myEl(S, L) {
  const v = view(S);
  const s = me(S);
  const turn = v.turn === s && S.ctx.state.status === 'playing';
  const hand = v.hand || [];
  const fresh = new Map();
  for (const k of S.anim) if (k.startsWith('card:')) fresh.set(k.slice(5), (fresh.get(k.slice(5)) || 0) + 1);
  return h('div.dc-player.mine' + (turn ? '.turn' : ''), { 'data-player': s },
    nameEl(S, s, turn),
    h('div.dc-row.dc-mine',
      h('div.dc-group', h('div.dc-cap', t('dacapo.stock')), stockEl(S, s, L, true)),
      h('div.dc-group', h('div.dc-cap', t('dacapo.helpers')), helpersEl(S, s, L))),
    h('div.dc-group.dc-handgroup', h('div.dc-cap', t('dacapo.hand')),
      h('div.dc-hand', { id: 'hand' }, hand.length ? hand.map((c, i) => {
        const src = { from: 'hand', card: c };
        const build = L.builds.has(srcKey(src));
        const can = (build || L.helpers.has(String(c))) && !S.ctx.pending;
        // Equal cards are one choice: only the first of them is raised.
        const chosen = sameSrc(S.sel, src) && hand.indexOf(c) === i;
        let isNew = false;
        if (fresh.get(String(c))) { fresh.set(String(c), fresh.get(String(c)) - 1); isNew = true; }
        // Equal cards are told apart by their rank among equals: a key
        // motion.js follows when the hand closes up.
        const k = hand.slice(0, i).filter(x => x === c).length;
        return cardEl(c, {
          // Gold: it fits a building pile; blue: only a helper pile.
          cls: ['dc-hcardbtn', can ? (build ? 'can' : 'can-help') : '', chosen ? 'selected' : '', isNew ? 'anim' : ''].join(' '),
          attrs: { 'data-src': 'hand', 'data-card': c, disabled: !can, 'data-build': build ? '1' : '0', 'data-key': `dacapo:hand:${c}:${k}` },
          label: cardName(c), onclick: () => pick(S, src),
        });
      }) : h('span.dc-nohand', t('dacapo.hand.empty')))));
}

// The status line's word on the moment, beyond the game's number: the
// next step once a card is chosen, which only this screen knows. What
// the player may do, and whom the table waits for, are the app's hint
// line's (help.js), said once.
function hint(S, L) {
  if (S.ctx.state.status === 'over') return t('table.over');
  if (!myTurn(S) || !S.sel) return null;
  const c = cardName(srcCard(S, S.sel));
  const nb = L.builds.get(srcKey(S.sel))?.size || 0;
  const nh = S.sel.from === 'hand' ? L.helpers.get(String(S.sel.card))?.size || 0 : 0;
  return nb && nh ? t('dacapo.hint.both', { card: c }) : nb ? t('dacapo.hint.build', { card: c }) : t('dacapo.hint.helper', { card: c });
}

// overlayEl is the panel of a game's or the match's end.
function overlayEl(S) {
  if (!S.overlay) return null;
  const v = view(S);
  const names = ws => ws.map(S.ctx.name).join(', ');
  const match = !!v.options.match_target;
  const rows = Array.from({ length: v.players }, (_, s) => h('tr' + (S.overlay.winners?.includes(s) ? '.win' : ''),
    h('td', S.ctx.name(s)),
    // String(): dom.js's h() takes a bare 0 for missing attributes.
    h('td', S.overlay.left ? String(S.overlay.left[s]) : '—'),
    h('td', S.overlay.round ? String(S.overlay.round[s]) : '—'),
    match ? h('td', String((S.overlay.scores || v.scores)[s])) : null));
  return endPanel(S.ctx, S.overlay.kind, '.dc-end', () => { S.overlay = null; },
    h('h2', S.overlay.kind === 'over' ? (match ? t('dacapo.match.over') : t('table.over')) : t('dacapo.game.end', { n: S.overlay.game })),
    // A single game is no game 1 of anything: "wins!".
    S.overlay.winners ? h('p.winners', tw((S.overlay.stalemate ? 'dacapo.won.stalemate' : 'dacapo.won') + (match ? '' : '.single'), S.overlay.winners, me(S), { names: names(S.overlay.winners), n: S.overlay.game })) : null,
    S.overlay.kind === 'over' && match ? h('p.winners', tn('dacapo.match.won', S.overlay.match.length, { names: names(S.overlay.match) })) : null,
    S.overlay.kind === 'game' && match ? h('p', t('dacapo.match.goes_on', { n: v.options.match_target })) : null,
    h('table.results',
      h('tr', h('th', t('dacapo.col.player')), h('th', t('dacapo.col.left')), h('th', t('dacapo.col.points')),
        match ? h('th', t('dacapo.col.total')) : null),
      rows));
}

// render draws the screen: the status line, the others, the draw pile
// and the building piles, my place, the buttons.
export function render(S, root) {
  const v = view(S);
  const mine = me(S) >= 0;
  const L = legal(S);
  if (S.sel && !L.builds.has(srcKey(S.sel)) && !(S.sel.from === 'hand' && L.helpers.has(String(S.sel.card)))) S.sel = null;
  const others = around(me(S), v.players);
  Object.assign(root.dataset, {
    myturn: myTurn(S) && !S.ctx.pending ? '1' : '0', turn: v.turn, game: v.game, overlay: S.overlay ? S.overlay.kind : '',
    sel: S.sel ? srcKey(S.sel) : '', hand: (v.hand || []).join(','),
  });
  root.classList.add('dacapo');
  const nt = S.notice && S.notice.until > Date.now() ? S.notice : null;
  const match = v.options.match_target;
  root.append(...[
    h('div.status', { id: 'status' },
      h('strong', match ? t('dacapo.game.match', { n: v.game, target: match }) : t('dacapo.game.single')), hint(S, L) ? [' · ', hint(S, L)] : null,
      nt ? h('div.dc-notice' + (nt.shown ? '' : '.fresh'), { id: 'notice' }, t(nt.key, nt.params)) : null),
    h('div.dc-opponents.n' + others.length, others.map(s => opponentEl(S, s, L))),
    h('div.dc-center',
      h('div.dc-drawpile' + (S.anim.has('draw') ? '.anim' : ''),
        h('div.dc-card', { html: v.draw_count ? backSVG() : '' }),
        h('div.dc-label', t('dacapo.draw', { n: v.draw_count })),
        v.set_aside.length ? h('div.dc-label.dc-aside', t('dacapo.aside', { n: v.set_aside.length })) : null),
      h('div.dc-bpiles', [0, 1, 2].map(p => pileEl(S, p, L)))),
    mine ? myEl(S, L) : null,
    h('div.actions', { id: 'actions' },
      S.sel && myTurn(S) ? h('button', { type: 'button', 'data-action': 'cancel', onclick: () => { S.sel = null; S.ctx.render(); } }, t('dacapo.cancel')) : null,
      L.end ? h('button.primary.dc-endturn', { type: 'button', 'data-action': 'end', disabled: !!S.ctx.pending, onclick: () => endTurn(S) }, t('dacapo.end')) : null),
    overlayEl(S),
  ].filter(Boolean));
  S.anim = new Set();
  S.from = new Map();
  // A notice or a "+n drawn" fades in once, not at every redraw.
  if (nt) nt.shown = true;
  for (const d of S.drew.values()) d.shown = true;
}
