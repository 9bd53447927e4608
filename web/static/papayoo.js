// The Papayoo screen (RULES.md §2): the seat's hand as a fanned row of
// cards sorted by suit, the pass chosen by tapping cards then "Pass", the
// die and its Papayoo, the trick in the centre with who played what, and
// the points taken this round and in the game.
//
// Only state.legal is offered: during the pass, the cards the server lists
// as pass steps (cards held and not chosen yet); during the play, the cards
// that follow the led suit (or any card when the seat cannot follow). The
// whole pass is sent at once, as REPLAY.md's {"type":"pass","cards":[...]}.
import { h, toast, tap } from './dom.js';
import { t } from './i18n.js';
import { backSVG } from './cards.js';
import { around, endPanel, winnersLine, stylesheet } from './screen.js';
import { refusalText } from './refusal.js';

const RECEIVED_MS = 5000;
const SUITS = ['S', 'H', 'D', 'C', 'P'];
const COLORS = { S: '#1d1d1b', H: '#c62828', D: '#1e5aa8', C: '#2e7d32', P: '#6a1b9a' };

// Suit drawings in a 100×100 box, so that no font is needed.
const SHAPES = {
  H: '<path d="M50 90C20 66 4 50 4 31C4 15 16 5 30 5C40 5 47 11 50 19C53 11 60 5 70 5C84 5 96 15 96 31C96 50 80 66 50 90Z"/>',
  D: '<path d="M50 2L88 50L50 98L12 50Z"/>',
  S: '<path d="M50 4C36 24 4 40 4 61C4 75 15 84 28 84C37 84 44 80 47 74C46 84 42 91 33 97H67C58 91 54 84 53 74C56 80 63 84 72 84C85 84 96 75 96 61C96 40 64 24 50 4Z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><path d="M46 50C46 74 42 88 32 97H68C58 88 54 74 54 50Z"/>',
  P: '<path d="M50 3L62 36L97 37L69 58L79 92L50 72L21 92L31 58L3 37L38 36Z"/>',
};

const suitOf = c => c[0];
const rankOf = c => Number(c.slice(1));
const order = c => SUITS.indexOf(suitOf(c)) * 100 + rankOf(c);
const byOrder = (a, b) => order(a) - order(b);

// suitIcon is a small inline SVG of a suit, for the page's text.
export function suitIcon(s, cls = 'suit-ico') {
  return `<svg viewBox="0 0 100 100" class="${cls}" aria-hidden="true" fill="${COLORS[s]}">${SHAPES[s]}</svg>`;
}

// paperSVG draws a Papayoo card face; papayoo marks the 7 worth 40.
export function paperSVG(c, papayoo) {
  const s = suitOf(c), r = rankOf(c), col = COLORS[s];
  const isP = s === 'P', pap = c === papayoo;
  const icon = (x, y, k) => `<g transform="translate(${x} ${y}) scale(${k})" fill="${col}">${SHAPES[s]}</g>`;
  const bg = isP ? '#f6efff' : '#fffdf7';
  let centre;
  if (isP) {
    centre = `<g opacity=".18">${icon(16, 38, 0.68)}</g><text class="ctr-num" x="50" y="89" font-size="${r >= 10 ? 38 : 44}" font-weight="800" text-anchor="middle" fill="${col}" font-family="system-ui, sans-serif">${r}</text>`;
  } else {
    centre = icon(28, 48, 0.44);
  }
  return `<svg viewBox="0 0 100 140" class="svgcard" role="img" aria-label="${cardText(c)}">
<rect x="2" y="2" width="96" height="136" rx="9" fill="${bg}" stroke="${pap ? '#d4a017' : '#999'}" stroke-width="${pap ? 6 : 2}"/>
<text x="8" y="29" font-size="${r >= 10 ? 23 : 27}" font-weight="800" fill="${col}" font-family="system-ui, sans-serif" letter-spacing="-1">${r}</text>
${icon(9, 35, 0.2)}
${centre}
<text x="92" y="131" font-size="19" font-weight="800" fill="${col}" text-anchor="end" font-family="system-ui, sans-serif">${r}</text>
${pap ? '<rect x="52" y="6" width="42" height="24" rx="12" fill="#d4a017"/><text x="73" y="24" font-size="17" font-weight="800" text-anchor="middle" fill="#fff" font-family="system-ui, sans-serif">40</text>' : ''}
</svg>`;
}

// cardText is a card in words, for the log and for screen readers.
export function cardText(c) {
  if (!c) return '?';
  const s = suitOf(c);
  return s === 'P' ? t('papayoo.card.payoo', { n: rankOf(c) }) : `${rankOf(c)}${{ S: '♠', H: '♥', D: '♦', C: '♣' }[s]}`;
}

const suitName = s => t('papayoo.suit.' + s);

// vars sets CSS custom properties through the CSSOM: the page's
// Content-Security-Policy (style-src 'self') ignores style attributes.
function vars(el, v) {
  for (const [k, x] of Object.entries(v)) el.style.setProperty('--' + k, String(x));
  return el;
}

export function papayooUI(ctx) {
  stylesheet('papayoo.css');
  let sel = new Set();          // cards chosen for the pass, not sent yet
  let received = null;          // {cards: Set, until}: just received, highlighted
  let anim = new Set();         // "card:X", "hand", "die", "seat:N": animate on the next render
  // Where a card of the next render comes from, for motion.js: card ->
  // the data-key of its place before (a seat's cards, face down). A card
  // that was on screen already (mine, played; a trick taken into the last
  // trick's row) travels by its own key, papayoo:card:X.
  let from = new Map();
  const seatKey = s => 'papayoo:seat:' + s;
  let overlay = null;           // {kind: 'round'|'over', round, roundScores, scores, winners}
  let lastTaker = null;         // {seat, points, until}: the trick winner, flashed

  const me = () => ctx.seat;
  const view = () => ctx.state.view;
  const playing = () => ctx.state.status === 'playing';
  const myTurn = () => playing() && ctx.state.to_move.includes(me());
  const left = s => (s + 1) % view().players;
  const right = s => (s - 1 + view().players) % view().players;

  // legalCards is the set of cards state.legal offers, by kind.
  function legalCards(type) {
    const out = new Set();
    if (!myTurn()) return out;
    for (const m of ctx.state.legal || []) {
      if (m.type !== type) continue;
      if (m.card) out.add(m.card);
      for (const c of m.cards || []) out.add(c);
    }
    return out;
  }
  // need is how many cards are still to choose for the pass.
  const need = () => view().pass_size - (view().my_pass?.length || 0);

  function onEvent(e) {
    switch (e.type) {
      case 'deal':
        sel = new Set(); received = null; lastTaker = null;
        anim.add('hand');
        break;
      case 'pass':
        if (e.seat === me()) sel = new Set();
        break;
      case 'received':
        if (e.seat === me()) {
          received = { cards: new Set(e.cards), until: Date.now() + RECEIVED_MS };
          for (const c of e.cards) from.set(c, seatKey(e.from));
          setTimeout(() => ctx.render(), RECEIVED_MS + 50);
        }
        break;
      case 'die':
        anim.add('die');
        break;
      case 'play':
        // Mine travels from my hand by its own key.
        if (e.seat !== me()) from.set(e.card, seatKey(e.seat));
        break;
      case 'trick':
        lastTaker = { seat: e.seat, points: e.points || 0, until: Date.now() + 1800 };
        anim.add('seat:' + e.seat);
        setTimeout(() => ctx.render(), 1850);
        break;
      case 'round_end':
        overlay = { kind: 'round', round: e.round, roundScores: e.round_scores, scores: e.scores };
        break;
      case 'game_over':
        overlay = { kind: 'over', round: overlay?.round, roundScores: overlay?.roundScores, scores: e.scores, winners: e.winners };
        break;
    }
  }

  function onState(m) {
    // A chosen card that is no longer offered (a new round, a pass made
    // elsewhere) leaves the selection.
    const ok = legalCards('pass');
    for (const c of sel) if (!ok.has(c)) sel.delete(c);
    if (m.view.phase !== 'pass') sel = new Set();
  }

  function tapCard(c) {
    if (ctx.pending || !myTurn()) return;
    const v = view();
    if (v.phase === 'pass') {
      if (!legalCards('pass').has(c)) return;
      if (sel.has(c)) sel.delete(c);
      else if (sel.size >= need()) toast(t('papayoo.pass.full', { n: need() }), 'info');
      else sel.add(c);
      ctx.render();
    } else if (v.phase === 'play') {
      if (legalCards('play').has(c)) ctx.move({ type: 'play', card: c });
    }
  }

  function sendPass() {
    if (sel.size !== need() || ctx.pending) return;
    ctx.move({ type: 'pass', cards: [...sel].sort(byOrder) });
  }

  // ------------------------------------------------------------ drawing

  function cardEl(c, opts = {}) {
    const v = view();
    // A card that travels (motion.js) does not also slide in by CSS,
    // which would make its place wrong to travel to.
    const cls = ['pcard', opts.cls || '', c === v.papayoo ? 'papayoo' : '', anim.has('card:' + c) && !from.has(c) ? 'anim' : ''].filter(Boolean).join(' ');
    return h('div', { class: cls, 'data-card': c, 'data-key': 'papayoo:card:' + c, 'data-from': from.get(c), html: paperSVG(c, v.papayoo) });
  }

  function handEl() {
    const v = view();
    const hand = [...(v.hand || [])].sort(byOrder);
    const passing = v.phase === 'pass' && myTurn();
    const canPass = passing ? legalCards('pass') : new Set();
    const canPlay = v.phase === 'play' ? legalCards('play') : new Set();
    const locked = new Set(v.phase === 'pass' ? v.my_pass || [] : []);
    const fresh = received && received.until > Date.now() ? received.cards : new Set();
    const dealt = anim.has('hand');
    // The fewer the cards, the more of each shows: a desktop fans them
    // within about 800 px; at 360 px they wrap, ten to a row at most.
    const n = hand.length;
    const wide = Math.min(1.05, n > 1 ? 800 / (n - 1) / 78 : 1);
    const narrow = n <= 6 ? 1.04 : n <= 7 ? 0.9 : 0.62;
    const tight = (wide < 0.9 ? '.tight-w' : '') + (narrow < 0.9 ? '.tight-n' : '');
    return vars(h('div.hand' + tight, { id: 'hand' }, hand.map((c, i) => {
      const playable = canPlay.has(c) && !ctx.pending;
      const choosable = canPass.has(c) && !ctx.pending;
      const cls = ['handcard',
        sel.has(c) || locked.has(c) ? 'selected' : '',
        locked.has(c) ? 'locked' : '',
        fresh.has(c) ? 'received' : '',
        myTurn() && v.phase === 'play' && !canPlay.has(c) ? 'illegal' : '',
        playable || choosable ? 'can' : '',
        c === v.papayoo ? 'papayoo' : '',
        dealt || (anim.has('card:' + c) && !from.has(c)) ? 'anim' : ''].filter(Boolean).join(' ');
      return vars(h('button', {
        class: cls, type: 'button', 'data-action': 'move', 'data-card': c, disabled: !(playable || choosable),
        'data-key': 'papayoo:card:' + c, 'data-from': from.get(c),
        'aria-pressed': sel.has(c) ? 'true' : 'false',
        'aria-label': cardText(c), html: paperSVG(c, v.papayoo), ...tap(() => tapCard(c)),
      }, fresh.has(c) ? h('span.newtag', t('papayoo.new')) : null), { i, d: `${i * 25}ms` });
    })), {
      n, m: (n - 1) / 2, sw: wide.toFixed(3), sn: narrow,
      // A gentle arc: at most about ±6° and 10 px at the ends.
      rot: `${Math.min(1.2, 12 / Math.max(n, 1)).toFixed(2)}deg`, drop: `${n > 2 ? (40 / ((n - 1) * (n - 1))).toFixed(3) : 0}px`,
    });
  }

  function opponentEl(s) {
    const v = view();
    const n = v.hand_sizes[s];
    const turn = playing() && v.to_move.includes(s);
    const passed = v.phase === 'pass' && v.passed.includes(s);
    const backs = Math.min(n, 8);
    const taking = lastTaker && lastTaker.seat === s && lastTaker.until > Date.now();
    return h('div' + '.opp' + (turn ? '.turn' : '') + (taking ? '.taker' : '') + (anim.has('seat:' + s) ? '.flash' : ''), { 'data-player': s },
      h('div.oname', h('span.nm', ctx.name(s)),
        v.dealer === s && v.phase !== 'over' ? h('span.badge.dealer', { title: t('papayoo.dealer') }, t('papayoo.dealer.short')) : null),
      v.phase === 'over' ? null : h('div.backs', { 'aria-label': t('papayoo.cards', { n }), 'data-key': seatKey(s) },
        Array.from({ length: backs }, (_, i) => vars(h('span.back', { html: backSVG() }), { i })),
        h('span.count', String(n))),
      h('div.ostats',
        h('span.taken', { title: t('papayoo.taken.title') }, t('papayoo.taken', { n: v.taken[s] })),
        h('span.total', t('papayoo.total', { n: v.scores[s] }))),
      v.phase === 'pass' ? h('div.pstate' + (passed ? '.done' : ''), passed ? t('papayoo.passed') : t('papayoo.choosing')) : null,
      turn && v.phase === 'play' ? h('div.pstate.playing', t('papayoo.thinking')) : null,
      taking ? h('div.takes', t('papayoo.takes', { n: lastTaker.points })) : null);
  }

  function dieEl() {
    const v = view();
    if (!v.die) {
      return h('div.die.pending', { id: 'die', 'data-die': '' },
        h('div.face', '?'), h('div.dlabel', t('papayoo.die.pending')), h('div.drule', t('papayoo.rule.points')));
    }
    return h('div.die' + (anim.has('die') ? '.anim' : ''), { id: 'die', 'data-die': v.die },
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
  function passEl() {
    const v = view();
    const sent = !myTurn();
    const chosen = sent ? (v.my_pass || []).slice().sort(byOrder) : [...(v.my_pass || []), ...sel];
    return h('div.trickzone.passzone', { id: 'trick', 'data-led': '', 'data-count': 0 },
      h('div.caption', t(sent ? 'papayoo.pass.sent' : 'papayoo.pass.to', { name: ctx.name(left(me())) })),
      h('div.passslots', Array.from({ length: v.pass_size }, (_, i) => {
        const c = chosen[i];
        if (!c) return h('div.pslot.empty');
        const back = !sent && sel.has(c);
        return h('button.pslot', {
          type: 'button', 'data-slot-card': c, disabled: !back || ctx.pending, 'aria-label': cardText(c),
          html: paperSVG(c, v.papayoo), ...tap(() => tapCard(c)),
        });
      }), h('div.arrow', { 'aria-hidden': 'true' }, '➜')),
      h('div.note', sent ? t('papayoo.pass.hidden') : t('papayoo.pass.rule')));
  }

  function overEl() {
    const v = view();
    const winners = v.winners || [];
    return h('div.trickzone.overzone', { id: 'trick', 'data-led': '', 'data-count': 0 },
      h('div.caption', t('table.over')),
      h('div.bigwin', t('table.winners', { names: winners.map(ctx.name).join(', ') })),
      h('div.note', t('papayoo.over.note', { n: Math.min(...v.scores) })));
  }

  function trickEl() {
    const v = view();
    if (v.phase === 'pass' && me() >= 0) return passEl();
    if (v.phase === 'over') return overEl();
    let cards = v.trick || [], done = false, winner = -1, points = 0;
    if (!cards.length && v.last_trick && v.phase === 'play') {
      cards = v.last_trick.cards; done = true; winner = v.last_trick.winner; points = v.last_trick.points;
    }
    const b = done ? cards.findIndex(p => p.seat === winner) : best(cards);
    const led = v.led || (done && cards.length ? suitOf(cards[0].card) : '');
    let caption;
    if (v.phase === 'pass') caption = t('papayoo.trick.pass');
    else if (v.phase === 'over') caption = t('table.over');
    else if (done) caption = t('papayoo.trick.won', { name: ctx.name(winner), n: points });
    else if (!cards.length) caption = t('papayoo.trick.lead', { name: ctx.name(v.turn) });
    else caption = t('papayoo.trick.led', { suit: suitName(led) });
    return h('div.trickzone' + (done ? '.done' : ''), { id: 'trick', 'data-led': v.led || '', 'data-count': (v.trick || []).length },
      h('div.caption', led && !done && v.phase === 'play' ? h('span', { html: suitIcon(led) }) : null, ' ', caption),
      h('div.trick', cards.map((p, i) => h('div.played' + (i === b ? '.best' : '') + (p.seat === me() ? '.mine' : ''), { 'data-seat': p.seat },
        cardEl(p.card, { cls: p.seat === me() ? 'from-me' : 'from-top' }),
        h('div.who', p.seat === me() ? t('table.you') : ctx.name(p.seat)),
        i === b && done ? h('div.crown', t('papayoo.trick.taker')) : null))),
      !done && v.last_trick && cards.length && v.phase === 'play'
        ? h('div.lasttrick', h('span', t('papayoo.last', { name: ctx.name(v.last_trick.winner), n: v.last_trick.points })),
          v.last_trick.cards.map(p => h('span.mini', { html: paperSVG(p.card, v.papayoo), title: ctx.name(p.seat), 'data-key': 'papayoo:card:' + p.card })))
        : null);
  }

  // The status line's word on the moment, beyond the round and the
  // dealer: only what the app's hint line (help.js) does not say. What the
  // player must do now, and whose turn it is, are said there once.
  function hint() {
    const v = view();
    if (v.phase === 'over') return t('table.over');
    if (v.phase !== 'pass' || myTurn()) return null;
    if (me() < 0) return t('papayoo.hint.pass.watch', { n: v.pass_size });
    return t('papayoo.hint.pass.wait', { names: v.to_move.map(ctx.name).join(', ') });
  }

  function actionsEl() {
    const v = view();
    if (v.phase !== 'pass' || me() < 0) return null;
    if (myTurn()) {
      const n = need();
      return h('div.passbar',
        h('span.count', { id: 'passcount' }, t('papayoo.pass.count', { k: sel.size, n })),
        h('button.primary', {
          type: 'button', 'data-action': 'move', 'data-pass': '1', id: 'pass', disabled: ctx.pending || sel.size !== n, ...tap(sendPass),
        }, t('papayoo.pass.button', { n, name: ctx.name(left(me())) })));
    }
    return null;
  }

  function scoresEl() {
    const v = view();
    const n = v.players;
    const low = Math.min(...v.scores);
    return h('table.pscores', { id: 'scores' },
      h('thead', h('tr', h('th', t('papayoo.col.player')), h('th', t('papayoo.col.taken')), h('th', t('papayoo.col.total')))),
      h('tbody', Array.from({ length: n }, (_, s) => h('tr' + (s === me() ? '.me' : '') + (v.scores[s] === low && v.round > 1 ? '.lead' : ''),
        h('td', ctx.name(s)), h('td', String(v.taken[s])), h('td', String(v.scores[s]))))));
  }

  function passInfoEl() {
    const v = view();
    if (me() < 0 || v.phase !== 'play' || !v.received) return null;
    return h('div.passinfo',
      h('div', h('span', t('papayoo.gave', { name: ctx.name(left(me())) })), ' ',
        h('span.minis', (v.my_pass || []).map(c => h('span.mini', { html: paperSVG(c, v.papayoo) })))),
      h('div', h('span', t('papayoo.got', { name: ctx.name(right(me())) })), ' ',
        h('span.minis', v.received.map(c => h('span.mini', { html: paperSVG(c, v.papayoo) })))));
  }

  function overlayEl() {
    if (!overlay) return null;
    const v = view();
    const scores = overlay.scores || v.scores;
    const rs = overlay.roundScores || v.round_scores;
    const winners = overlay.winners || [];
    return endPanel(ctx, overlay.kind, '.papresults', () => { overlay = null; },
      h('h2', overlay.kind === 'over' ? t('table.over') : t('papayoo.round_end', { n: overlay.round, of: v.options.rounds })),
      overlay.kind === 'over' ? winnersLine(ctx, winners) : h('p', t('papayoo.round_end.note')),
      h('table.results',
        h('tr', h('th', t('papayoo.col.player')), h('th', t('papayoo.col.round')), h('th', t('papayoo.col.total'))),
        scores.map((x, s) => h('tr' + (winners.includes(s) ? '.win' : ''),
          h('td', ctx.name(s)), h('td', rs && rs[s] !== undefined ? String(rs[s]) : ''), h('td', String(x))))));
  }

  function render(root) {
    const v = view();
    const mine = me() >= 0;
    const others = around(me(), v.players);
    Object.assign(root.dataset, {
      phase: v.phase, myturn: myTurn() && !ctx.pending ? '1' : '0', need: v.phase === 'pass' ? need() : '',
      round: v.round, overlay: overlay ? overlay.kind : '', led: v.led || '', die: v.die || '', turn: v.turn,
      selected: sel.size,
    });
    root.classList.add('papayoo-game');
    const myStats = mine ? h('div.mystats',
      h('span.nm', ctx.name(me())),
      v.dealer === me() && v.phase !== 'over' ? h('span.badge.dealer', t('papayoo.dealer.short')) : null,
      h('span.taken', t('papayoo.taken', { n: v.taken[me()] })),
      h('span.total', t('papayoo.total', { n: v.scores[me()] }))) : null;
    root.append(...[
      h('div.status' + (myTurn() ? '.yours' : ''), { id: 'status' },
        h('strong', t('papayoo.round', { n: v.round, of: v.options.rounds })), ' · ',
        h('span', t('papayoo.dealt', { name: ctx.name(v.dealer) })), hint() ? [' · ', h('span.hint', hint())] : null),
      h('div.ptable',
        h('div.opps', others.map(opponentEl)),
        h('div.felt', trickEl(), h('aside.side', dieEl(), scoresEl()))),
      mine && v.phase !== 'over' ? h('div.me' + (myTurn() ? '.turn' : ''), { 'data-player': me() }, myStats, actionsEl(), handEl(), passInfoEl()) : null,
      overlayEl(),
    ].filter(Boolean));
    anim = new Set();
    from = new Map();
  }

  function logLine(e) {
    const nm = s => ctx.name(s);
    const cards = cs => (cs || []).slice().sort(byOrder).map(cardText).join(' ');
    switch (e.type) {
      case 'deal': return t('papayoo.log.deal', { round: e.round, name: nm(e.seat) });
      case 'hand': return t('papayoo.log.hand', { n: e.cards.length });
      case 'pass_card': return t('papayoo.log.pass_card', { cards: cards(e.cards) });
      case 'pass': return t('papayoo.log.pass', { cards: cards(e.cards), name: nm(e.to) });
      case 'passed': return t('papayoo.log.passed', { name: nm(e.seat) });
      case 'received': return t('papayoo.log.received', { cards: cards(e.cards), name: nm(e.from) });
      case 'die': return t('papayoo.log.die', { suit: suitName(e.suit), card: cardText(e.card) });
      case 'play': return t('papayoo.log.play', { name: nm(e.seat), card: cardText(e.card) });
      case 'trick': return t('papayoo.log.trick', { name: nm(e.seat), n: e.points || 0, cards: (e.cards || []).map(cardText).join(' ') });
      case 'round_end': return t('papayoo.log.round_end', { round: e.round, scores: e.round_scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
      case 'game_over': return t('papayoo.log.game_over', { names: e.winners.map(nm).join(', '), scores: e.scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
    }
    return null;
  }

  // explain puts a refusal ({code, reason, args, error}) into the
  // player's language: a card (args.card, "P20") and a suit (args.suit,
  // "H") by their names; a name that is no card (bad_card) as it was given.
  function explain(m) {
    return refusalText(m, 'papayoo', ctx.name, (a, reason) => ({
      ...(a.card !== undefined && reason !== 'bad_card' ? { card: cardText(a.card) } : {}),
      ...(a.suit !== undefined ? { suit: suitName(a.suit) } : {}),
    }));
  }

  return { render, onEvent, onState, logLine, explain };
}
