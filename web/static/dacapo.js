// The Da Capo! screen (RULES.md §4): the three building piles in the
// centre, every player's personal pile (top card face up) and helper piles,
// and the seat's hand. A move is "pick a source, then a target": a hand
// card, your personal top, a helper top or an opponent's personal top, then
// a building pile the server's legal moves allow; or a hand card onto a
// helper pile, which ends the turn. With an empty hand and nothing left to
// draw, building is optional: an "End turn" button, shown only while the
// server lists the move end, stops the turn (RULES.md §4).
import { h } from './dom.js';
import { t } from './i18n.js';
import { backSVG } from './cards.js';
import { around, endPanel, stylesheet } from './screen.js';
import { refusalText } from './refusal.js';

const JOKER = 'J';
const SLIDE_MS = 900;   // a completed pile slides away
const NOTICE_MS = 3500; // a refill or a new hand is told for a moment

// Each value has its colour, so that a run 1..10 reads at a glance.
const colors = ['', '#c62828', '#e65100', '#c58a00', '#558b2f', '#2e7d32', '#00838f', '#1565c0', '#303f9f', '#6a1b9a', '#ad1457'];

export function cardSVG(v) {
  if (v === JOKER) {
    return `<svg viewBox="0 0 100 140" class="svgcard" aria-label="Joker">
<defs><linearGradient id="dcj" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#c62828"/><stop offset=".25" stop-color="#f9a825"/><stop offset=".5" stop-color="#2e7d32"/>
<stop offset=".75" stop-color="#1565c0"/><stop offset="1" stop-color="#6a1b9a"/></linearGradient></defs>
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fffdf7" stroke="#888" stroke-width="2"/>
<rect x="10" y="24" width="80" height="92" rx="8" fill="url(#dcj)"/>
<path d="M50 40 L57 60 L78 60 L61 72 L67 93 L50 80 L33 93 L39 72 L22 60 L43 60Z" fill="#fffdf7" stroke="#212121" stroke-width="1.5"/>
<text x="13" y="20" font-size="17" font-weight="800" fill="#212121">J</text>
<text x="87" y="133" font-size="17" font-weight="800" fill="#212121" text-anchor="end">J</text>
</svg>`;
  }
  const c = colors[v] || '#333';
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-label="${v}">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fffdf7" stroke="#888" stroke-width="2"/>
<rect x="10" y="24" width="80" height="92" rx="8" fill="${c}"/>
<circle cx="50" cy="70" r="31" fill="#fffdf7" opacity=".16"/>
<text x="50" y="89" font-size="${v === 10 ? 46 : 54}" font-weight="800" text-anchor="middle" fill="#fffdf7">${v}</text>
<text x="13" y="20" font-size="17" font-weight="800" fill="${c}">${v}</text>
<text x="87" y="133" font-size="17" font-weight="800" fill="${c}" text-anchor="end">${v}</text>
</svg>`;
}

export function dacapoUI(ctx) {
  stylesheet('dacapo.css');
  let sel = null;          // the chosen source: {from, card?, index?, seat?}
  let anim = new Set();    // keys to animate on the next render
  // Where a card of the next render comes from, for motion.js: "pile:P"
  // or "helper:S:I" -> the data-keys of its places before the move (the
  // first one on screen: my hand card, or the backs of another's hand).
  let from = new Map();
  const handKeys = (s, c) => (s === ctx.seat ? `dacapo:hand:${c}:0` : `dacapo:backs:${s}`);
  const sliding = new Map(); // building pile -> {cards, at}: completed, sliding away
  let notice = null;       // {text key, params, until}
  let overlay = null;      // {kind: 'game'|'over', ...}
  let counts = null;       // personal pile sizes as the events go, for a game's end
  const drew = new Map();  // seat -> {n, until}: cards just drawn, shown as "+n"

  const me = () => ctx.seat;
  const view = () => ctx.state.view;
  const myTurn = () => ctx.state.status === 'playing' && ctx.state.to_move.includes(me());
  const cardName = c => (c === JOKER ? t('dacapo.joker') : String(c));
  const later = ms => setTimeout(() => ctx.render(), ms + 30);

  // The legal moves, sorted by what they need: the building piles each
  // source may go onto, and the helper piles each hand card may go onto.
  const srcKey = m => (m.from === 'hand' ? 'hand:' + m.card : m.from === 'helper' ? 'helper:' + m.index
    : m.from === 'opponent' ? 'opponent:' + m.seat : m.from);
  function legal() {
    const builds = new Map(); // source key -> Set of piles
    const helpers = new Map(); // hand card -> Set of helper piles
    let end = false; // the move end: stop building with an empty hand
    if (!myTurn()) return { builds, helpers, end };
    for (const m of ctx.state.legal) {
      if (m.type === 'end') {
        end = true;
      } else if (m.type === 'build') {
        const k = srcKey(m);
        if (!builds.has(k)) builds.set(k, new Set());
        builds.get(k).add(m.pile);
      } else if (m.type === 'helper') {
        const k = String(m.card);
        if (!helpers.has(k)) helpers.set(k, new Set());
        helpers.get(k).add(m.index);
      }
    }
    return { builds, helpers, end };
  }

  // The card a source names, as the view shows it.
  function srcCard(s) {
    const v = view();
    if (!s) return null;
    if (s.from === 'hand') return s.card;
    if (s.from === 'stock') return v.stocks[me()]?.top ?? null;
    if (s.from === 'opponent') return v.stocks[s.seat]?.top ?? null;
    const p = v.helpers[me()][s.index];
    return p.length ? p[p.length - 1] : null;
  }
  const sameSrc = (a, b) => a && b && srcKey(a) === srcKey(b);

  function pick(s) {
    if (!myTurn() || ctx.pending) return;
    sel = sameSrc(sel, s) ? null : s;
    ctx.render();
  }

  function buildOn(p) {
    if (!sel || !myTurn() || ctx.pending) return;
    const { builds } = legal();
    if (!builds.get(srcKey(sel))?.has(p)) return;
    const m = { type: 'build', from: sel.from, pile: p };
    if (sel.from === 'hand') m.card = sel.card;
    if (sel.from === 'helper') m.index = sel.index;
    if (sel.from === 'opponent') m.seat = sel.seat;
    ctx.move(m);
  }

  function helperOn(i) {
    if (!sel || sel.from !== 'hand' || !myTurn() || ctx.pending) return;
    if (!legal().helpers.get(String(sel.card))?.has(i)) return;
    ctx.move({ type: 'helper', card: sel.card, index: i });
  }

  function endTurn() {
    if (!myTurn() || ctx.pending || !legal().end) return;
    sel = null;
    ctx.move({ type: 'end' });
  }

  const tell = (key, params) => { notice = { key, params, until: Date.now() + NOTICE_MS }; later(NOTICE_MS); };

  function onEvent(e) {
    switch (e.type) {
      case 'deal':
        sliding.clear(); sel = null; overlay = overlay?.kind === 'game' ? overlay : null;
        counts = null;
        anim.add('deal');
        break;
      case 'build': {
        if (e.from === 'stock' || e.from === 'opponent') {
          const o = e.from === 'stock' ? e.seat : e.owner;
          anim.add('stock:' + o);
          from.set('pile:' + e.pile, 'dacapo:stock:' + o);
          if (counts && e.left !== undefined) counts[o] = e.left;
        }
        if (e.from === 'helper') from.set('pile:' + e.pile, `dacapo:helper:${e.seat}:${e.index}`);
        if (e.from === 'hand') from.set('pile:' + e.pile, handKeys(e.seat, e.card));
        if (e.completed) {
          sliding.set(e.pile, { card: e.card, at: Date.now() });
          later(SLIDE_MS);
        }
        break;
      }
      case 'helper':
        from.set(`helper:${e.seat}:${e.index}`, handKeys(e.seat, e.card));
        break;
      case 'draw':
        anim.add('hand:' + e.seat);
        drew.set(e.seat, { n: e.count, until: Date.now() + NOTICE_MS });
        later(NOTICE_MS);
        if (e.seat === me()) {
          // A draw at a turn's start is the refill; during my own turn it
          // is the 4 new cards of an emptied hand.
          const during = ctx.state.view.turn === me() && ctx.state.by === me();
          tell(during ? 'dacapo.notice.fresh' : 'dacapo.notice.refill', { n: e.count, cards: (e.cards || []).map(cardName).join(' ') });
          for (const c of e.cards || []) anim.add('card:' + c);
        }
        break;
      case 'reshuffle':
        anim.add('draw');
        tell('dacapo.notice.reshuffle', { n: e.count });
        break;
      case 'turn':
        if (e.seat === me()) anim.add('myturn');
        break;
      case 'game_end':
        overlay = {
          kind: 'game', game: e.game, winners: e.winners, stalemate: e.stalemate,
          round: e.round_scores, scores: e.scores, left: counts ? [...counts] : null,
        };
        break;
      case 'game_over':
        overlay = { ...(overlay || {}), kind: 'over', match: e.winners, scores: e.scores };
        break;
    }
  }

  function onState(m, prev) {
    // Personal pile sizes before this message's events, so that a game's
    // end can say how many cards each player kept.
    counts = m.view.stocks.map(s => s.count);
    if (m.view.game !== prev?.view.game && overlay?.kind === 'game' && !overlay.left && prev) {
      overlay.left = prev.view.stocks.map(s => s.count);
    }
    if (!myTurn() || m.by === me()) sel = null;
    if (sel) {
      // Keep the choice only while it still names a playable card.
      const { builds, helpers } = legal();
      if (!builds.has(srcKey(sel)) && !(sel.from === 'hand' && helpers.has(String(sel.card)))) sel = null;
    }
  }

  // ------------------------------------------------------------ drawing

  function cardEl(v, opts = {}) {
    const { cls = '', attrs = {}, onclick, label } = opts;
    const tag = onclick ? 'button' : 'div';
    return h(tag + '.dc-card' + (cls ? '.' + cls.split(' ').filter(Boolean).join('.') : ''), {
      type: onclick ? 'button' : undefined, html: v === null ? '' : v === 'back' ? backSVG() : cardSVG(v),
      'aria-label': label, onclick, ...attrs,
    });
  }

  function pileEl(p, L) {
    const v = view();
    const pile = v.piles[p] || [];
    const value = pile.length;
    const top = value ? pile[value - 1] : null;
    const targets = sel ? L.builds.get(srcKey(sel)) : null;
    const can = !!targets?.has(p) && !ctx.pending;
    const c = srcCard(sel);
    const becomes = value + 1;
    const slide = sliding.get(p);
    const slideEl = slide && Date.now() - slide.at < SLIDE_MS ? (() => {
      const el = h('div.dc-card.dc-slide', { html: cardSVG(slide.card === JOKER ? JOKER : 10) });
      el.style.animationDelay = `-${Date.now() - slide.at}ms`; // CSSOM: allowed by the CSP
      return el;
    })() : null;
    const under = value > 1 ? pile.slice(Math.max(0, value - 3), value - 1) : [];
    return h('div.dc-bpile', { 'data-bpile': p },
      h('button.dc-bslot' + (can ? '.target' : '') + (value ? '' : '.empty') + (anim.has('pile:' + p) && !from.has('pile:' + p) ? '.anim' : ''), {
        type: 'button', 'data-pile': p, disabled: !can,
        'aria-label': t('dacapo.pile.label', { n: p + 1, value }),
        onclick: () => buildOn(p),
      },
      under.map((x, i) => h('span.dc-under', { html: cardSVG(x), dataset: { depth: under.length - i } })),
      top !== null ? h('span.dc-top', { html: cardSVG(top), 'data-key': 'dacapo:pile:' + p, 'data-from': from.get('pile:' + p) }) : h('span.dc-start', t('dacapo.pile.start')),
      top === JOKER ? h('span.dc-jv', '= ' + value) : null,
      can ? h('span.dc-becomes', c === JOKER ? t('dacapo.joker.becomes', { n: becomes }) : '→ ' + becomes) : null,
      slideEl),
      h('div.dc-label', value ? t('dacapo.pile.value', { n: value }) : t('dacapo.pile.empty')));
  }

  function stockEl(s, L, big) {
    const v = view();
    const st = v.stocks[s];
    const mine = s === me();
    const src = mine ? { from: 'stock' } : { from: 'opponent', seat: s };
    const can = L.builds.has(srcKey(src)) && !ctx.pending;
    const chosen = sameSrc(sel, src);
    const depth = Math.min(4, Math.max(0, st.count - 1));
    return h('div.dc-stock' + (big ? '.big' : ''),
      h('div.dc-stackwrap', { dataset: { depth } },
        st.top != null
          ? cardEl(st.top, {
            cls: ['dc-stocktop', can ? 'can' : '', chosen ? 'selected' : '', anim.has('stock:' + s) ? 'flip' : ''].join(' '),
            attrs: { 'data-src': mine ? 'stock' : 'opponent', 'data-seat': s, disabled: !can, 'data-build': can ? '1' : '0', 'data-key': 'dacapo:stock:' + s },
            label: t('dacapo.stock.of', { name: ctx.name(s) }),
            onclick: () => pick(src),
          })
          : h('div.dc-card.dc-emptyslot')),
      h('div.dc-count', { 'data-count': st.count }, t('dacapo.stock.count', { n: st.count })));
  }

  function helpersEl(s, L) {
    const v = view();
    const mine = s === me();
    const hand = sel?.from === 'hand' ? L.helpers.get(String(sel.card)) : null;
    return h('div.dc-helpers', [0, 1, 2].map(i => {
      const pile = v.helpers[s][i] || [];
      const top = pile.length ? pile[pile.length - 1] : null;
      const src = { from: 'helper', index: i };
      const canSrc = mine && top !== null && L.builds.has(srcKey(src)) && !ctx.pending;
      const target = mine && !!hand?.has(i) && !ctx.pending;
      const chosen = mine && sameSrc(sel, src);
      const shown = pile.slice(Math.max(0, pile.length - 5));
      const hidden = pile.length - shown.length;
      const onclick = () => (target ? helperOn(i) : canSrc ? pick(src) : null);
      const cls = ['dc-hpile', pile.length ? '' : 'empty', target ? 'target' : '', canSrc ? 'can' : '', chosen ? 'selected' : '',
        anim.has(`helper:${s}:${i}`) && !from.has(`helper:${s}:${i}`) ? 'anim' : ''].filter(Boolean).join('.');
      return h((mine ? 'button.' : 'div.') + cls, {
        type: mine ? 'button' : undefined, disabled: mine ? !(target || canSrc) : undefined,
        'data-src': mine ? 'helper' : undefined, 'data-index': i, 'data-helper': mine ? i : undefined,
        'data-build': canSrc ? '1' : '0', dataset: { n: shown.length },
        'aria-label': t('dacapo.helper.label', { n: i + 1, name: ctx.name(s) }),
        onclick: mine ? onclick : undefined,
      },
      hidden ? h('span.dc-more', '+' + hidden) : null,
      shown.map((c, j) => h('span.dc-hcard' + (j === shown.length - 1 ? '.top' : ''), j === shown.length - 1
        ? { html: cardSVG(c), 'data-key': `dacapo:helper:${s}:${i}`, 'data-from': from.get(`helper:${s}:${i}`) } : { html: cardSVG(c) })),
      !pile.length ? h('span.dc-hempty', target ? t('dacapo.helper.new') : '') : null);
    }));
  }

  function handBacks(s) {
    const n = view().hand_sizes[s];
    return h('div.dc-handbacks' + (anim.has('hand:' + s) ? '.anim' : ''), { 'aria-label': t('dacapo.hand.count', { n }), 'data-key': 'dacapo:backs:' + s },
      Array.from({ length: n }, () => h('span.dc-back', { html: backSVG() })),
      h('span.dc-hn', t('dacapo.hand.count', { n })),
      drew.get(s)?.until > Date.now() ? h('span.dc-drew' + (drew.get(s).shown ? '' : '.fresh'), t('dacapo.drew', { n: drew.get(s).n })) : null);
  }

  // nameEl is a player's name over their piles: whether they are playing
  // (turn), and their points in a match.
  function nameEl(s, turn) {
    const v = view();
    return h('div.dc-pname', h('span.dc-name', ctx.name(s)),
      turn ? h('span.dc-badge', t('dacapo.playing')) : null,
      v.options.match_target ? h('span.dc-score', t('dacapo.points', { n: v.scores[s] })) : null);
  }

  function opponentEl(s, L) {
    const v = view();
    const turn = v.turn === s && ctx.state.status === 'playing';
    return h('div.dc-player' + (turn ? '.turn' : ''), { 'data-player': s },
      nameEl(s, turn),
      h('div.dc-row', stockEl(s, L, false), helpersEl(s, L)),
      handBacks(s));
  }

  function myEl(L) {
    const v = view();
    const s = me();
    const turn = v.turn === s && ctx.state.status === 'playing';
    const hand = v.hand || [];
    const fresh = new Map();
    for (const k of anim) if (k.startsWith('card:')) fresh.set(k.slice(5), (fresh.get(k.slice(5)) || 0) + 1);
    return h('div.dc-player.mine' + (turn ? '.turn' : ''), { 'data-player': s },
      nameEl(s, turn),
      h('div.dc-row.dc-mine',
        h('div.dc-group', h('div.dc-cap', t('dacapo.stock')), stockEl(s, L, true)),
        h('div.dc-group', h('div.dc-cap', t('dacapo.helpers')), helpersEl(s, L))),
      h('div.dc-group.dc-handgroup', h('div.dc-cap', t('dacapo.hand')),
        h('div.dc-hand', { id: 'hand' }, hand.length ? hand.map((c, i) => {
          const src = { from: 'hand', card: c };
          const build = L.builds.has(srcKey(src));
          const can = (build || L.helpers.has(String(c))) && !ctx.pending;
          // Equal cards are one choice: only the first of them is raised.
          const chosen = sameSrc(sel, src) && hand.indexOf(c) === i;
          let isNew = false;
          if (fresh.get(String(c))) { fresh.set(String(c), fresh.get(String(c)) - 1); isNew = true; }
          // Equal cards are told apart by their rank among equals: a key
          // motion.js follows when the hand closes up.
          const k = hand.slice(0, i).filter(x => x === c).length;
          return cardEl(c, {
            // Gold: it fits a building pile; blue: only a helper pile.
            cls: ['dc-hcardbtn', can ? (build ? 'can' : 'can-help') : '', chosen ? 'selected' : '', isNew ? 'anim' : ''].join(' '),
            attrs: { 'data-src': 'hand', 'data-card': c, disabled: !can, 'data-build': build ? '1' : '0', 'data-key': `dacapo:hand:${c}:${k}` },
            label: cardName(c), onclick: () => pick(src),
          });
        }) : h('span.dc-nohand', t('dacapo.hand.empty')))));
  }

  // The status line's word on the moment, beyond the game's number: the
  // next step once a card is chosen, which only this screen knows. What
  // the player may do, and whom the table waits for, are the app's hint
  // line's (help.js), said once.
  function hint(L) {
    if (ctx.state.status === 'over') return t('table.over');
    if (!myTurn() || !sel) return null;
    const c = cardName(srcCard(sel));
    const nb = L.builds.get(srcKey(sel))?.size || 0;
    const nh = sel.from === 'hand' ? L.helpers.get(String(sel.card))?.size || 0 : 0;
    return nb && nh ? t('dacapo.hint.both', { card: c }) : nb ? t('dacapo.hint.build', { card: c }) : t('dacapo.hint.helper', { card: c });
  }

  function overlayEl() {
    if (!overlay) return null;
    const v = view();
    const names = ws => ws.map(ctx.name).join(', ');
    const match = !!v.options.match_target;
    const rows = Array.from({ length: v.players }, (_, s) => h('tr' + (overlay.winners?.includes(s) ? '.win' : ''),
      h('td', ctx.name(s)),
      // String(): dom.js's h() takes a bare 0 for missing attributes.
      h('td', overlay.left ? String(overlay.left[s]) : '—'),
      h('td', overlay.round ? String(overlay.round[s]) : '—'),
      match ? h('td', String((overlay.scores || v.scores)[s])) : null));
    return endPanel(ctx, overlay.kind, '.dc-end', () => { overlay = null; },
      h('h2', overlay.kind === 'over' ? (match ? t('dacapo.match.over') : t('table.over')) : t('dacapo.game.end', { n: overlay.game })),
      overlay.winners ? h('p.winners', t(overlay.stalemate ? 'dacapo.won.stalemate' : 'dacapo.won', { names: names(overlay.winners), n: overlay.game })) : null,
      overlay.kind === 'over' && match ? h('p.winners', t('dacapo.match.won', { names: names(overlay.match) })) : null,
      overlay.kind === 'game' && match ? h('p', t('dacapo.match.goes_on', { n: v.options.match_target })) : null,
      h('table.results',
        h('tr', h('th', t('dacapo.col.player')), h('th', t('dacapo.col.left')), h('th', t('dacapo.col.points')),
          match ? h('th', t('dacapo.col.total')) : null),
        rows));
  }

  function render(root) {
    const v = view();
    const mine = me() >= 0;
    const L = legal();
    if (sel && !L.builds.has(srcKey(sel)) && !(sel.from === 'hand' && L.helpers.has(String(sel.card)))) sel = null;
    const others = around(me(), v.players);
    Object.assign(root.dataset, {
      myturn: myTurn() && !ctx.pending ? '1' : '0', turn: v.turn, game: v.game, overlay: overlay ? overlay.kind : '',
      sel: sel ? srcKey(sel) : '', hand: (v.hand || []).join(','),
    });
    root.classList.add('dacapo');
    const nt = notice && notice.until > Date.now() ? notice : null;
    const match = v.options.match_target;
    root.append(...[
      h('div.status', { id: 'status' },
        h('strong', match ? t('dacapo.game.match', { n: v.game, target: match }) : t('dacapo.game.single')), hint(L) ? [' · ', hint(L)] : null,
        nt ? h('div.dc-notice' + (nt.shown ? '' : '.fresh'), { id: 'notice' }, t(nt.key, nt.params)) : null),
      h('div.dc-opponents.n' + others.length, others.map(s => opponentEl(s, L))),
      h('div.dc-center',
        h('div.dc-drawpile' + (anim.has('draw') ? '.anim' : ''),
          h('div.dc-card', { html: v.draw_count ? backSVG() : '' }),
          h('div.dc-label', t('dacapo.draw', { n: v.draw_count })),
          v.set_aside.length ? h('div.dc-label.dc-aside', t('dacapo.aside', { n: v.set_aside.length })) : null),
        h('div.dc-bpiles', [0, 1, 2].map(p => pileEl(p, L)))),
      mine ? myEl(L) : null,
      h('div.actions', { id: 'actions' },
        sel && myTurn() ? h('button', { type: 'button', 'data-action': 'cancel', onclick: () => { sel = null; ctx.render(); } }, t('dacapo.cancel')) : null,
        L.end ? h('button.primary.dc-endturn', { type: 'button', 'data-action': 'end', disabled: !!ctx.pending, onclick: endTurn }, t('dacapo.end')) : null),
      overlayEl(),
    ].filter(Boolean));
    anim = new Set();
    from = new Map();
    // A notice or a "+n drawn" fades in once, not at every redraw.
    if (nt) nt.shown = true;
    for (const d of drew.values()) d.shown = true;
  }

  function logLine(e) {
    const nm = s => ctx.name(s);
    switch (e.type) {
      case 'deal': return t('dacapo.log.deal', { n: e.game, name: nm(e.seat), tops: (e.tops || []).map((c, s) => `${nm(s)} ${cardName(c)}`).join(', ') });
      case 'hand': return e.cards ? t('dacapo.log.hand', { cards: e.cards.map(cardName).join(' ') }) : null;
      case 'turn': return t('dacapo.log.turn', { name: nm(e.seat) });
      case 'build': {
        const from = e.from === 'hand' ? t('dacapo.from.hand')
          : e.from === 'stock' ? t('dacapo.from.stock')
            : e.from === 'helper' ? t('dacapo.from.helper', { n: e.index + 1 })
              : t('dacapo.from.opponent', { name: nm(e.owner) });
        let s = t('dacapo.log.build', { name: nm(e.seat), card: cardName(e.card), from, n: e.pile + 1, value: e.value });
        if (e.completed) s += ' ' + t('dacapo.log.completed');
        if (e.left !== undefined) s += ' ' + (e.top != null ? t('dacapo.log.next', { card: cardName(e.top), n: e.left }) : t('dacapo.log.emptied'));
        return s;
      }
      case 'helper': return t('dacapo.log.helper', { name: nm(e.seat), card: cardName(e.card), n: e.index + 1 });
      case 'end': return t('dacapo.log.end', { name: nm(e.seat) });
      case 'draw':
        return e.cards ? t('dacapo.log.draw.me', { n: e.count, cards: e.cards.map(cardName).join(' ') }) : t('dacapo.log.draw', { name: nm(e.seat), n: e.count });
      case 'reshuffle': return t('dacapo.log.reshuffle', { n: e.count });
      case 'game_end': return t(e.stalemate ? 'dacapo.log.game_end.stalemate' : 'dacapo.log.game_end', {
        n: e.game, names: e.winners.map(nm).join(', '),
        scores: e.round_scores.map((x, s) => `${nm(s)} +${x}`).join(', '),
      });
      case 'game_over': return t('dacapo.log.game_over', { names: e.winners.map(nm).join(', '), scores: e.scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
    }
    return null;
  }

  // explain puts a refusal ({code, reason, args, error}) into the
  // player's language: a card ("7", "J") by its name, a pile (args.pile,
  // args.index, from 0) by its number on the screen (from 1).
  function explain(m) {
    return refusalText(m, 'dacapo', ctx.name, a => ({
      ...(a.card !== undefined ? { card: a.card === 'J' ? t('dacapo.joker') : a.card } : {}),
      ...(a.pile !== undefined ? { n: a.pile + 1 } : a.index !== undefined ? { n: a.index + 1 } : {}),
    }));
  }

  return { render, onEvent, onState, logLine, explain };
}
