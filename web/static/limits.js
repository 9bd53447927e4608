// The Limits screen (RULES.md §3): the round's limit card, the players
// around the table, the active pile (only its top card, as at the table),
// the seat's hidden card(s) and hand as colour cards, and the moves of
// REPLAY.md as taps: hide, place, exchange, accuse. An accusation is
// resolved in a panel that shows every hidden card, the limit and the count.
import { h } from './dom.js';
import { t } from './i18n.js';
import { backSVG } from './cards.js';
import { around, endPanel, winnersLine, stylesheet } from './screen.js';
import { refusalText } from './refusal.js';

const COLOURS = ['red', 'blue', 'purple', 'yellow', 'green'];
const FILL = { red: '#d7332b', blue: '#1f64c8', purple: '#7c3aa6', yellow: '#f0b91e', green: '#2b9a4e' };
const DARK = { red: '#8f1d17', blue: '#123f80', purple: '#4d1f6b', yellow: '#8a6400', green: '#17602f' };

// A shape per colour, so that the cards read without colour vision too.
const SHAPE = {
  red: '<circle cx="0" cy="0" r="17"/>',
  blue: '<rect x="-15" y="-15" width="30" height="30" rx="2"/>',
  purple: '<path d="M0 -20 L18 0 L0 20 L-18 0Z"/>',
  yellow: '<path d="M0 -20 L5.9 -8.1 L19 -6.2 L9.5 3.1 L11.8 16.2 L0 10 L-11.8 16.2 L-9.5 3.1 L-19 -6.2 L-5.9 -8.1Z"/>',
  green: '<path d="M0 -18 L18 14 L-18 14Z"/>',
};
const shape = (c, x, y, s, fill) => `<g transform="translate(${x} ${y}) scale(${s})" fill="${fill}">${SHAPE[c]}</g>`;

// colourSVG draws a colour card.
export function colourSVG(c) {
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="${FILL[c]}" stroke="${DARK[c]}" stroke-width="3"/>
<rect x="10" y="10" width="80" height="120" rx="7" fill="none" stroke="#fff" stroke-width="2" opacity=".55"/>
<ellipse cx="50" cy="70" rx="30" ry="40" fill="#fff" opacity=".22"/>
${shape(c, 50, 70, 1.25, '#fff')}
${shape(c, 21, 23, 0.42, '#fff')}${shape(c, 79, 117, 0.42, '#fff')}
</svg>`;
}

// limitSVG draws a limit card: each colour with its base limit, X for none.
export function limitSVG(base, no) {
  const rows = COLOURS.map((c, i) => {
    const y = 27 + i * 22;
    const v = base[i] === null || base[i] === undefined ? 'X' : String(base[i]);
    return `<rect x="10" y="${y - 9}" width="80" height="19" rx="5" fill="${FILL[c]}"/>
${shape(c, 22, y + 0.5, 0.36, '#fff')}
<text x="78" y="${y + 6}" font-size="17" font-weight="800" text-anchor="end" fill="#fff">${v}</text>`;
  }).join('');
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fbf5e4" stroke="#6b5a2e" stroke-width="2.5"/>
<text x="50" y="13" font-size="9" font-weight="700" text-anchor="middle" fill="#6b5a2e">#${no}</text>
${rows}</svg>`;
}

// limitBackSVG is the back of a limit card: −2.
export function limitBackSVG() {
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#3b2f5c" stroke="#241b3b" stroke-width="2.5"/>
<rect x="11" y="11" width="78" height="118" rx="7" fill="none" stroke="#f3c25b" stroke-width="2" opacity=".8"/>
<text x="50" y="84" font-size="40" font-weight="800" text-anchor="middle" fill="#f3c25b">−2</text>
</svg>`;
}

export function limitsUI(ctx) {
  stylesheet('limits.css');
  let sel = [];         // selected hand indexes
  let target = -1;      // the seat chosen to accuse
  let overlay = null;   // {kind: 'accuse'|'over', acc, winners, scores}
  let anim = new Set(); // 'pile', 'hidden', 'hand:i', 'limit', 'seat:s'
  // Where the active pile's new top comes from, for motion.js: the
  // data-key of my hand card, or the backs of another's hand; null: none.
  let pileFrom = null;
  let drawn = [];       // colours I just drew, animated on the next render
  // What the events told, which the view does not keep: each seat's last
  // placed colour this round (the suspect colour), who placed the top card,
  // and each limit card's base limits.
  const seen = new WeakSet();
  let last = {};        // seat -> colour
  let topBy = -1;
  const bases = {};     // limit card number -> base limits
  let catchUp = false;

  const me = () => ctx.seat;
  const view = () => ctx.state.view;
  const legal = () => ctx.state.legal || [];
  const cname = c => t('limits.color.' + c);
  const cardName = c => t('limits.card.' + c);
  const hideN = () => (view().players === 2 ? 2 : 1);
  const playing = () => ctx.state.status === 'playing' && view().phase !== 'over';
  const myMove = () => playing() && ctx.state.to_move.includes(me());

  // learn follows the events once each, in order, whether they arrive
  // live (onEvent) or as the history of a reconnection (logLine).
  function learn(e) {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    switch (e.type) {
      case 'round':
        last = {}; topBy = -1;
        if (e.limit && e.base) bases[e.limit] = e.base;
        break;
      case 'place':
        last[e.seat] = e.card; topBy = e.seat;
        break;
      case 'exchange':
        last[e.seat] = e.color; topBy = e.seat;
        break;
    }
    return true;
  }

  function onEvent(e) {
    learn(e);
    switch (e.type) {
      case 'place':
        pileFrom = e.seat === me() ? `lim:hand:${e.card}:0` : 'lim:seat:' + e.seat;
        anim.add('seat:' + e.seat);
        break;
      case 'exchange':
        anim.add('pile'); anim.add('seat:' + e.seat);
        break;
      case 'draw':
        if (e.seat === me() && e.cards) drawn = drawn.concat(e.cards);
        break;
      case 'hide':
        if (e.seat === me()) anim.add('hidden'); else anim.add('seat:' + e.seat);
        break;
      case 'round':
        anim.add('limit');
        break;
      case 'accuse':
        if (e.accusation) overlay = { kind: 'accuse', acc: e.accusation };
        break;
      case 'game_over':
        overlay = { kind: 'over', acc: overlay?.acc, winners: e.winners, scores: e.scores };
        break;
    }
  }

  function onState(m, prev) {
    if (m.view?.limit && m.view.base) bases[m.view.limit] = m.view.base;
    if (prev && m.match !== prev.match) { last = {}; topBy = -1; overlay = null; sel = []; target = -1; }
    if (!prev || m.n !== prev.n) {
      if (m.by === me() || m.view.phase !== prev?.view.phase) { sel = []; target = -1; }
      if (target >= 0 && !accusable(target)) target = -1;
      sel = sel.filter(i => i < m.view.hand.length);
    }
  }

  // unlimited: the colour has no limit (X) this round, so nobody can be
  // over it.
  const unlimited = c => {
    const i = COLOURS.indexOf(c);
    return i >= 0 && view().base && view().base[i] === null;
  };
  const accusable = s => legal().some(m => m.type === 'accuse' && m.seat === s);
  const exchanges = () => legal().filter(m => m.type === 'exchange').map(m => m.color);
  const placeable = c => legal().some(m => m.type === 'place' && m.card === c);
  const selColours = () => sel.map(i => view().hand[i]).filter(Boolean)
    .sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
  const hideLegal = () => {
    const want = selColours().join(',');
    return legal().some(m => m.type === 'hide' && [...m.cards].sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b)).join(',') === want);
  };

  function clickCard(i) {
    if (!myMove() || ctx.pending) return;
    const v = view();
    if (v.phase === 'hide') {
      if (sel.includes(i)) sel = sel.filter(x => x !== i);
      else { sel.push(i); while (sel.length > hideN()) sel.shift(); }
    } else {
      sel = sel.includes(i) ? [] : [i];
      if (sel.length) target = -1;
    }
    ctx.render();
  }

  function clickSeat(s) {
    if (!myMove() || ctx.pending || !accusable(s)) return;
    target = target === s ? -1 : s;
    if (target >= 0) sel = [];
    ctx.render();
  }

  const act = {
    hide: () => ctx.move({ type: 'hide', cards: selColours() }),
    place: () => {
      const c = selColours()[0];
      if (c && placeable(c)) ctx.move({ type: 'place', card: c });
    },
    exchange: c => ctx.move({ type: 'exchange', color: c }),
    accuse: () => { if (target >= 0) ctx.move({ type: 'accuse', seat: target }); },
  };

  // ------------------------------------------------------------ pieces

  const scoreText = s => t('limits.score', { score: view().scores[s] });

  function tokens(n) {
    return n > 0 ? h('span.lim-tokens', { title: t('limits.taken', { n }) },
      Array.from({ length: n }, () => h('span.lim-token', '−2'))) : null;
  }

  function chip(c, label) {
    return h('span.lim-chip.c-' + c, h('span.lim-dot', { html: `<svg viewBox="-20 -20 40 40" aria-hidden="true">${shape(c, 0, 0, 0.9, '#fff')}</svg>` }), label ?? cname(c));
  }

  function opponentEl(s) {
    const v = view();
    const turn = playing() && v.to_move.includes(s);
    const can = myMove() && v.phase === 'turn' && accusable(s);
    const hid = v.has_hidden.includes(s);
    const cls = ['lim-opp', turn ? 'turn' : '', can ? 'can-accuse' : '', target === s ? 'target' : '',
      anim.has('seat:' + s) ? 'pulse' : '', v.winners?.includes(s) ? 'win' : ''].filter(Boolean).join('.');
    const n = v.hand_counts[s];
    const body = [
      h('div.lim-pname', h('span.lim-name', ctx.name(s)), h('span.score', scoreText(s)), tokens(v.limits_taken[s]),
        v.leader === s && v.phase !== 'over' ? h('span.lim-badge', t('limits.leader')) : null),
      h('div.lim-row',
        h('span.lim-fan', { title: t('limits.handcount', { n }), 'data-key': 'lim:seat:' + s },
          Array.from({ length: Math.min(n, 6) }, () => h('span.lim-mini', { html: backSVG() })),
          h('span.lim-count', '×' + n)),
        hid || v.phase === 'hide' ? h('span.lim-hid' + (hid ? '' : '.waiting'), hid ? t('limits.hidden.n', { n: hideN() }) : t('limits.hiding')) : null),
      h('div.lim-last', last[s] ? [t('limits.lastplaced'), ' ', chip(last[s])] : (v.placed.includes(s) ? t('limits.placed') : t('limits.noplaced'))),
      can ? h('div.lim-accusehint', target === s ? t('limits.accuse.chosen', { color: cname(last[s] || '?') }) : t('limits.accuse.tap')) : null,
      can && target === s && unlimited(last[s]) ? h('div.lim-warn', t('limits.accuse.x', { color: cname(last[s]) })) : null,
    ];
    if (can) {
      return h('button.' + cls, {
        type: 'button', 'data-seat': s, 'data-player': s, 'aria-pressed': target === s ? 'true' : 'false',
        onclick: () => clickSeat(s),
      }, body);
    }
    return h('div.' + cls, { 'data-player': s }, body);
  }

  function limitCardEl() {
    const v = view();
    const mine = {};
    for (const c of v.hidden) mine[c] = (mine[c] || 0) + 1;
    return h('div.lim-pile',
      h('div.lim-card.lim-limit' + (anim.has('limit') ? '.anim' : ''), { id: 'limitcard', html: limitSVG(v.base, v.limit), 'aria-label': t('limits.limitcard') }),
      h('div.label', t('limits.limitcard')),
      Object.keys(mine).length ? h('div.lim-mine', { title: t('limits.mine.title') }, h('span.label', t('limits.mine')),
        Object.entries(mine).map(([c, n]) => chip(c, '+' + n))) : null);
  }

  function pileEl() {
    const v = view();
    const c = selColours()[0];
    const can = myMove() && v.phase === 'turn' && sel.length === 1 && placeable(c);
    return h('div.lim-pile.lim-active',
      h('button.lim-card.lim-pilecard' + (v.pile_top ? '' : '.empty') + (can ? '.can' : '') + (anim.has('pile') ? '.anim' : ''), {
        type: 'button', 'data-action': 'pile', disabled: !can || ctx.pending, onclick: act.place,
        'data-key': 'lim:pile', 'data-from': pileFrom ?? undefined,
        'aria-label': v.pile_top ? t('limits.pile.top', { card: cardName(v.pile_top) }) : t('limits.pile.empty'),
        html: v.pile_top ? colourSVG(v.pile_top) : '',
      }, v.pile_top ? null : h('span.lim-empty', can ? t('limits.pile.tapto') : t('limits.pile.empty'))),
      h('div.label', t('limits.pile', { n: v.pile_count })),
      topBy >= 0 && v.pile_top ? h('div.label.lim-by', t('limits.pile.by', { name: ctx.name(topBy) })) : null);
  }

  function deckEl() {
    const v = view();
    return h('div.lim-pile.lim-decks',
      h('div.lim-stack',
        h('div.lim-card.lim-small', { html: backSVG() }),
        h('div.label', t('limits.draw', { n: v.draw_count }))),
      h('div.lim-stack',
        h('div.lim-card.lim-small' + (v.limits_left ? '' : '.empty'), { html: v.limits_left ? limitBackSVG() : '' }),
        h('div.label', t('limits.left', { n: v.limits_left }))));
  }

  function myAreaEl() {
    const v = view();
    const s = me();
    const turn = playing() && v.to_move.includes(s);
    // The cards just drawn slide in (the last ones of their colour).
    const drawnLeft = [...drawn];
    const fresh = new Set();
    for (let k = v.hand.length - 1; k >= 0; k--) {
      const j = drawnLeft.indexOf(v.hand[k]);
      if (j >= 0) { fresh.add(k); drawnLeft.splice(j, 1); }
    }
    const hidden = v.hidden.map(c => h('div.lim-card.lim-hiddencard' + (anim.has('hidden') ? '.anim' : ''), {
      'data-hidden': c, title: t('limits.hidden.peek', { card: cardName(c) }),
    }, h('span.lim-back', { html: backSVG() }), h('span.lim-peek.c-' + c, cname(c))));
    return h('div.lim-me' + (turn ? '.turn' : ''), { 'data-player': s },
      h('div.lim-pname', h('span.lim-name', ctx.name(s)), h('span.score', scoreText(s)), tokens(v.limits_taken[s]),
        last[s] ? h('span.lim-last', t('limits.lastplaced'), ' ', chip(last[s])) : null,
        v.leader === s && v.phase !== 'over' ? h('span.lim-badge', t('limits.leader')) : null),
      h('div.lim-mycards',
        hidden.length ? h('div.lim-hiddenbox', h('div.label', t('limits.hidden.mine')), h('div.lim-cards', hidden)) : null,
        h('div.lim-handbox', h('div.label', t('limits.hand', { n: v.hand.length })),
          h('div.lim-cards.lim-hand', v.hand.length ? v.hand.map((c, i) => h('button.lim-card.c-' + c +
            (sel.includes(i) ? '.selected' : '') + (fresh.has(i) ? '.anim' : ''), {
            type: 'button', 'data-i': i, 'data-card': c, disabled: !myMove() || ctx.pending,
            // Equal cards are told apart by their rank among equals.
            'data-key': `lim:hand:${c}:${v.hand.slice(0, i).filter(x => x === c).length}`,
            'aria-label': cardName(c), 'aria-pressed': sel.includes(i) ? 'true' : 'false',
            html: colourSVG(c), onclick: () => clickCard(i),
          })) : h('span.lim-none', t('limits.hand.empty'))))));
  }

  // The status line's word on the moment, beyond the round: only what the
  // app's hint line (help.js) does not say, who leads a round. What the
  // player must do now, and whom the table waits for, are said there once.
  function hint() {
    const v = view();
    if (v.phase === 'over') return t('table.over');
    if (v.phase === 'turn' && !v.led && v.turn !== me()) return t('limits.hint.lead.other', { name: ctx.name(v.turn) });
    return null;
  }

  function actions() {
    const v = view();
    if (!myMove()) return null;
    const off = ctx.pending;
    const b = (name, label, enabled, cls = '', onclick = act[name], extra = {}) => h('button' + (cls ? '.' + cls : ''), {
      type: 'button', 'data-action': name, disabled: off || !enabled, onclick, ...extra,
    }, label);
    if (v.phase === 'hide') {
      return [b('hide', t('limits.do.hide', { n: sel.length, want: hideN() }), sel.length === hideN() && hideLegal(), 'primary')];
    }
    const c = selColours()[0];
    const out = [];
    if (legal().some(m => m.type === 'place')) {
      out.push(b('place', c ? t('limits.do.place', { card: cardName(c) }) : t('limits.do.place.none'), !!c && placeable(c), 'primary'));
    }
    for (const x of exchanges()) {
      out.push(b('exchange', t('limits.do.exchange', { color: cname(x) }), true, 'exchange', () => act.exchange(x), { 'data-color': x }));
    }
    if (legal().some(m => m.type === 'accuse')) {
      out.push(b('accuse', target >= 0
        ? t('limits.do.accuse', { name: ctx.name(target), color: cname(last[target] || '?') })
        : t('limits.do.accuse.none'), target >= 0, 'danger'));
    }
    return out;
  }

  function lastAccEl() {
    const v = view();
    const a = v.last_accusation;
    if (!a || overlay) return null;
    return h('div.lim-lastacc', t('limits.lastacc', { text: verdict(a) }), ' ',
      h('button.link', { type: 'button', 'data-action': 'show-accusation', onclick: () => { overlay = { kind: v.phase === 'over' ? 'over' : 'accuse', acc: a, winners: v.winners, scores: v.scores }; ctx.render(); } }, t('limits.details')));
  }

  const verdict = a => t(a.over ? 'limits.verdict.over' : a.limit === null ? 'limits.verdict.x' : 'limits.verdict.ok', {
    accuser: ctx.name(a.accuser), suspect: ctx.name(a.suspect), color: cname(a.color),
    count: a.count, limit: a.limit === null ? 'X' : a.limit, taker: ctx.name(a.taker),
  });

  function accEl(a) {
    const n = a.hidden.length;
    const hiddenOf = a.hidden.reduce((k, cs) => k + cs.filter(c => c === a.color).length, 0);
    const ci = COLOURS.indexOf(a.color);
    const base = bases[a.limit_card] ? bases[a.limit_card][ci] : (a.limit === null ? null : a.limit - hiddenOf);
    const hiddenRows = Array.from({ length: n }, (_, s) => h('tr',
      h('td', ctx.name(s)),
      h('td.lim-cards', a.hidden[s].map(c => h('span.lim-mini.lim-flip' + (c === a.color ? '.hit' : ''), { html: colourSVG(c), title: cardName(c) })))));
    const limitLine = a.limit === null
      ? t('limits.acc.limit.x', { color: cname(a.color) })
      : t('limits.acc.limit', { color: cname(a.color), base, hidden: hiddenOf, limit: a.limit });
    return h('div.lim-acc',
      h('p.lim-acc-head', t('limits.acc.head', { accuser: ctx.name(a.accuser), suspect: ctx.name(a.suspect) }), ' ', chip(a.color)),
      h('div.lim-acc-body',
        bases[a.limit_card] ? h('div.lim-card.lim-limit.lim-small', { html: limitSVG(bases[a.limit_card], a.limit_card) }) : null,
        h('div', h('div.label', t('limits.acc.hidden')), h('table.lim-hiddentable', hiddenRows))),
      h('ul.lim-calc',
        h('li', limitLine),
        h('li', t('limits.acc.count', { count: a.count, color: cname(a.color), suspect: ctx.name(a.suspect) })),
        h('li.lim-verdict' + (a.over ? '.over' : '.ok'), verdict(a))));
  }

  function scoreTable(highlight) {
    const v = view();
    const n = v.players;
    const rs = v.last_accusation?.round_scores;
    return h('table.results',
      h('tr', ['limits.col.player', 'limits.col.points', 'limits.col.cards', 'limits.col.score'].map(k => h('th', t(k))),
        rs && highlight ? h('th', t('limits.col.round')) : null),
      Array.from({ length: n }, (_, s) => h('tr' + ((v.winners || []).includes(s) ? '.win' : ''),
        h('td', ctx.name(s)), h('td', String(v.points[s])), h('td', String(v.limits_taken[s])), h('td', h('strong', String(v.scores[s]))),
        rs && highlight ? h('td', rs[s] > 0 ? '+' + rs[s] : rs[s] || '') : null)));
  }

  function overlayEl() {
    if (!overlay) return null;
    const v = view();
    const over = overlay.kind === 'over';
    return endPanel(ctx, overlay.kind, '.lim-panel', () => { overlay = null; },
      h('h2', over ? t('table.over') : t('limits.acc.title')),
      over && overlay.winners ? winnersLine(ctx, overlay.winners) : null,
      overlay.acc ? accEl(overlay.acc) : null,
      h('h3', over ? t('limits.final') : t('table.scores')),
      scoreTable(true),
      h('p.lim-note', t('limits.scorenote'), ' ', over ? '' : t('limits.left', { n: v.limits_left })));
  }

  function render(root) {
    const v = view();
    const mine = me() >= 0;
    const others = around(me(), v.players);
    Object.assign(root.dataset, {
      phase: v.phase, myturn: myMove() && !ctx.pending ? '1' : '0', need: hideN(), turn: v.turn, round: v.round,
      overlay: overlay ? overlay.kind : '', hand: v.hand.length, pile: v.pile_count, left: v.limits_left,
    });
    root.classList.add('lim');
    root.append(...[
      h('div.status', { id: 'status' }, h('strong', t('table.round', { n: v.round })), hint() ? [' · ', hint()] : null),
      h('div.lim-opps', others.map(opponentEl)),
      h('div.lim-center', limitCardEl(), pileEl(), deckEl()),
      lastAccEl(),
      mine ? myAreaEl() : null,
      h('div.actions', { id: 'actions' }, actions()),
      h('details.lim-scores', h('summary', t('table.scores'), ' · ', t('limits.left', { n: v.limits_left })), scoreTable(false), h('p.lim-note', t('limits.scorenote'))),
      overlayEl(),
    ].filter(Boolean));
    anim = new Set();
    pileFrom = null;
    drawn = [];
  }

  function logLine(e) {
    if (learn(e) && !catchUp) {
      // An event of a reconnection's history, first seen here: draw
      // again once with what it told.
      catchUp = true;
      setTimeout(() => { catchUp = false; ctx.render(); }, 0);
    }
    const nm = s => ctx.name(s);
    switch (e.type) {
      case 'round': return t('limits.log.round', { round: e.round, name: nm(e.seat), limit: e.limit,
        base: COLOURS.map((c, i) => `${cname(c)} ${e.base?.[i] ?? 'X'}`).join(', ') });
      case 'hide':
        return e.cards ? t('limits.log.hide.me', { cards: e.cards.map(cardName).join(', ') }) : t('limits.log.hide', { name: nm(e.seat) });
      case 'place': return t('limits.log.place', { name: nm(e.seat), card: cardName(e.card) });
      case 'draw':
        return e.cards ? t('limits.log.draw.me', { cards: e.cards.map(cardName).join(', ') }) : t('limits.log.draw', { name: nm(e.seat), n: e.count });
      case 'exchange': return t('limits.log.exchange', { name: nm(e.seat), color: cname(e.color) });
      case 'pass': return t('limits.log.pass', { name: nm(e.seat) });
      case 'accuse': {
        const a = e.accusation;
        if (!a) return t('limits.log.accuse.short', { name: nm(e.seat) });
        return t('limits.log.accuse', {
          accuser: nm(a.accuser), suspect: nm(a.suspect), color: cname(a.color),
          hidden: a.hidden.map((cs, s) => `${nm(s)}: ${cs.map(cardName).join(', ') || '—'}`).join('; '),
        }) + ' ' + verdict(a);
      }
      case 'game_over': return t('limits.log.game_over', { names: (e.winners || []).map(nm).join(', '),
        scores: (e.scores || []).map((x, s) => `${nm(s)} ${x}`).join(', ') });
    }
    return null;
  }

  // explain puts a refusal ({code, reason, args, error}) into the
  // player's language: a colour (args.colour) is named as a card; a hide
  // of the wrong count read from JSON does not know the table's, n.
  function explain(m) {
    return refusalText(m, 'limits', ctx.name, (a, reason) => {
      const col = COLOURS.includes(a.colour) ? a.colour : null;
      const words = col ? { color: cname(col), card: cardName(col) } : {};
      return reason === 'hide_count' && a.n === undefined ? { ...words, n: hideN() } : words;
    });
  }

  return { render, onEvent, onState, logLine, explain };
}
