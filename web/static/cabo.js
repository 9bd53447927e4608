// The Cabo screen: the players' rows of face-down cards, the draw and
// discard piles, the drawn card, and the moves of RULES.md §1 as clicks.
// A card seen once (a peek) is shown for a few seconds, then hidden again:
// remembering it is part of the game.
import { h, tap } from './dom.js';
import { t } from './i18n.js';
import { faceSVG, backSVG } from './cards.js';
import { around, endPanel, winnersLine } from './screen.js';
import { refusalText } from './refusal.js';

const PEEK_MS = 4000;

export function caboUI(ctx) {
  let sel = new Set();   // my selected slots
  let targets = [];      // selected slots of other players: {seat, slot}
  const revealed = new Map(); // "seat:slot" -> {card, until}
  let anim = new Set();  // "seat:slot", "discard", "drawn": animate on next render
  // Slots turned face up since the last render: they flip once, not again
  // at each redraw while they stay shown.
  let flips = new Set();
  // Where a card of the next render comes from, for motion.js: "seat:slot",
  // "discard" or "drawn" -> the data-keys of its places before the move.
  let from = new Map();
  let overlay = null;    // {kind: 'round'|'over', ...}

  const me = () => ctx.seat;
  const view = () => ctx.state.view;
  const key = (s, i) => `${s}:${i}`;
  const slotKeys = (s, slots) => slots.map(i => 'cabo:' + key(s, i)).join(' ');
  // A drawn card is shown to its drawer only: the others see it leave the
  // draw pile.
  const DRAWN = 'cabo:drawn cabo:drawpile';
  const slotsText = sl => sl.map(i => i + 1).join(', ');
  const sorted = s => [...s].sort((a, b) => a - b);

  const reveal = (seat, slots, cards) => {
    const until = Date.now() + PEEK_MS;
    slots.forEach((sl, j) => { revealed.set(key(seat, sl), { card: cards[j], until }); flips.add(key(seat, sl)); });
    setTimeout(() => ctx.render(), PEEK_MS + 50);
  };

  function onEvent(e) {
    switch (e.type) {
      case 'peek_initial':
        if (e.seen) reveal(e.seat, e.slots, e.seen);
        break;
      case 'peek': case 'spy':
        anim.add(key(e.target.seat, e.target.slot)); from.set('discard', DRAWN);
        if (e.seen) reveal(e.target.seat, [e.target.slot], e.seen);
        break;
      case 'swap':
        from.set(key(e.a.seat, e.a.slot), slotKeys(e.b.seat, [e.b.slot]));
        from.set(key(e.b.seat, e.b.slot), slotKeys(e.a.seat, [e.a.slot]));
        from.set('discard', DRAWN);
        break;
      case 'take_discard': case 'replace':
        if (e.failed) { reveal(e.seat, e.slots, e.seen); anim.add('discard'); break; }
        from.set(key(e.seat, e.slots[0]), e.type === 'replace' ? DRAWN : 'cabo:discard');
        from.set('discard', slotKeys(e.seat, e.slots));
        break;
      case 'draw':
        from.set('drawn', 'cabo:drawpile');
        break;
      case 'discard':
        from.set('discard', DRAWN);
        break;
      case 'reshuffle':
        anim.add('discard');
        break;
      case 'deal':
        revealed.clear();
        for (let s = 0; s < 8; s++) for (let i = 0; i < 6; i++) anim.add(key(s, i));
        anim.add('discard');
        break;
      case 'round_end':
        overlay = { kind: 'round', end: e.end, round: ctx.state?.result?.round };
        break;
      case 'game_over':
        overlay = { kind: 'over', winners: e.winners, scores: e.scores, end: overlay?.end };
        break;
    }
  }

  function onState(m, prev) {
    if (!prev || m.n !== prev.n) {
      // A new move: selections made for the old position no longer apply,
      // except while the player is still choosing in the same phase.
      if (m.by !== me() || m.view.phase !== prev?.view.phase) { sel = new Set(); targets = []; }
      if (m.by === me()) { sel = new Set(); targets = []; }
    }
  }

  const myTurn = () => ctx.state.to_move.includes(me()) && ctx.state.status === 'playing';
  const power = c => (c === 7 || c === 8 ? 'peek' : c === 9 || c === 10 ? 'spy' : c === 11 || c === 12 ? 'swap' : '');

  function clickSlot(seat, slot) {
    if (!myTurn() || ctx.pending) return;
    const v = view();
    if (seat === me()) {
      if (sel.has(slot)) sel.delete(slot); else sel.add(slot);
      if (v.phase === 'peek' && sel.size > v.options.initial_peek) sel.delete(sorted(sel)[0] === slot ? sorted(sel)[1] : sorted(sel)[0]);
    } else {
      const i = targets.findIndex(x => x.seat === seat && x.slot === slot);
      if (i >= 0) targets.splice(i, 1);
      else {
        const max = v.phase === 'drawn' && power(v.drawn) === 'swap' && v.options.swap_opponents ? 2 : 1;
        targets.push({ seat, slot });
        while (targets.length > max) targets.shift();
      }
    }
    ctx.render();
  }

  const act = {
    look: () => ctx.move({ type: 'peek_initial', slots: sorted(sel) }),
    draw: () => ctx.move({ type: 'draw' }),
    take: () => ctx.move({ type: 'take_discard', slots: sorted(sel) }),
    cabo: () => ctx.move({ type: 'cabo' }),
    replace: () => ctx.move({ type: 'replace', slots: sorted(sel) }),
    discard: () => ctx.move({ type: 'discard' }),
    peek: () => ctx.move({ type: 'peek', slot: sorted(sel)[0] }),
    spy: () => ctx.move({ type: 'spy', seat: targets[0].seat, slot: targets[0].slot }),
    swap: () => {
      const a = targets.length === 2 ? targets[0] : { seat: me(), slot: sorted(sel)[0] };
      const b = targets.length === 2 ? targets[1] : targets[0];
      ctx.move({ type: 'swap', a, b });
    },
  };

  function slotEl(seat, slot, filled, big) {
    const k = key(seat, slot);
    const r = revealed.get(k);
    let shown = r && r.until > Date.now() ? r.card : null;
    const v = view();
    if (v.phase === 'over' && v.last_round) {
      // The game is over: every card of the last round is shown.
      const c = v.last_round.hands[seat][slot];
      shown = c >= 0 ? c : null;
      filled = c >= 0;
    }
    const cls = ['slot', big ? 'big' : '',
      filled ? '' : 'empty',
      seat === me() && sel.has(slot) ? 'selected' : '',
      targets.some(x => x.seat === seat && x.slot === slot) ? 'target' : '',
      shown !== null ? 'revealed' : '',
      shown !== null && flips.has(k) ? 'flip' : '',
      anim.has(k) && !from.has(k) ? 'anim' : ''].filter(Boolean).join(' ');
    return h('button', {
      class: cls, type: 'button', 'data-seat': seat, 'data-slot': slot, disabled: !filled,
      'data-key': 'cabo:' + k, 'data-from': from.get(k),
      'aria-label': slotLabel(seat, slot, filled, shown),
      html: filled ? (shown !== null ? faceSVG(shown) : backSVG()) : '',
      ...tap(() => clickSlot(seat, slot)),
    });
  }

  // slotLabel is a card in words for screen readers: whose, which, and
  // its value only while the page shows it.
  function slotLabel(seat, slot, filled, shown) {
    const mine = seat === me();
    const p = { name: ctx.name(seat), slot: slot + 1, card: shown };
    if (!filled) return t(mine ? 'a11y.card.mine.empty' : 'a11y.card.empty', p);
    if (shown === null) return t(mine ? 'a11y.card.mine.hidden' : 'a11y.card.hidden', p);
    return t(mine ? 'a11y.card.mine.shown' : 'a11y.card.shown', p);
  }

  function playerEl(seat, big) {
    const v = view();
    const turn = v.to_move.includes(seat) && v.phase !== 'over';
    return h('div' + '.player' + (big ? '.mine' : '') + (turn ? '.turn' : ''), { 'data-player': seat },
      h('div.pname', h('span', ctx.name(seat)), ' ',
        h('span.score', t('cabo.score', { score: v.scores[seat] })),
        v.caller === seat ? h('span.badge', t('cabo.caller')) : null),
      h('div.slots', v.slots[seat].map((f, i) => slotEl(seat, i, f, big))));
  }

  // The status line's facts beyond the round: the game's end, or who
  // called Cabo and how many turns are left. What to do now, and whom the
  // table waits for, is the app's hint line's (help.js), said once.
  function facts() {
    const v = view();
    if (v.phase === 'over') return [' · ', t('table.over')];
    if (v.caller >= 0) return [' · ', t('cabo.hint.final', { name: ctx.name(v.caller), n: v.final_turns_left })];
    return [];
  }

  function actions() {
    const v = view();
    if (!myTurn()) return null;
    const off = ctx.pending;
    const b = (name, label, enabled, cls = '') => h('button' + (cls ? '.' + cls : ''), {
      type: 'button', 'data-action': name, disabled: off || !enabled, ...tap(act[name]),
    }, label);
    // Look is offered as soon as a card is chosen: a wrong count is
    // refused by the server, and the refusal explained.
    if (v.phase === 'peek') return [b('look', t('cabo.look'), sel.size > 0 || v.options.initial_peek === 0, 'primary')];
    if (v.phase === 'turn') {
      return [b('draw', t('cabo.draw'), v.draw_count > 0 || v.discard.length > 1, 'primary'),
        b('take', t('cabo.take'), sel.size >= 1),
        v.caller < 0 ? b('cabo', t('cabo.call'), true, 'danger') : null];
    }
    if (v.phase === 'drawn') {
      const p = power(v.drawn);
      return [b('replace', t('cabo.replace'), sel.size >= 1, 'primary'),
        b('discard', t('cabo.discard'), true),
        p === 'peek' ? b('peek', t('cabo.peek'), sel.size === 1) : null,
        p === 'spy' ? b('spy', t('cabo.spy'), targets.length === 1) : null,
        p === 'swap' ? b('swap', t('cabo.swap'), (sel.size === 1 && targets.length === 1) || targets.length === 2) : null];
    }
    return null;
  }

  function overlayEl() {
    if (!overlay) return null;
    const v = view();
    const end = overlay.end;
    const table = end ? h('table.results',
      h('tr', ['cabo.col.player', 'cabo.col.hand', 'cabo.col.total', 'cabo.col.round', 'cabo.col.score'].map(k => h('th', t(k)))),
      end.hands.map((hand, s) => h('tr' + (end.winners.includes(s) ? '.win' : ''),
        h('td', ctx.name(s), end.caller === s ? ` (${t('cabo.caller')})` : ''),
        h('td.minicards', hand.map(c => (c < 0 ? h('span.mini.empty') : h('span.mini', { html: faceSVG(c) })))),
        h('td', end.totals[s]), h('td', end.round_scores[s]), h('td', (overlay.scores || v.scores)[s])))) : null;
    return endPanel(ctx, overlay.kind, '', () => { overlay = null; },
      h('h2', overlay.kind === 'over' ? t('table.over') : t('cabo.round_end', { n: overlay.round || '' })),
      end && end.kamikaze >= 0 ? h('p', t('cabo.kamikaze', { name: ctx.name(end.kamikaze) })) : null,
      end && end.reset?.length ? h('p', t('cabo.reset', { names: end.reset.map(ctx.name).join(', ') })) : null,
      overlay.kind === 'over' ? winnersLine(ctx, overlay.winners) : null,
      table);
  }

  function render(root) {
    const v = view();
    const mine = me() >= 0;
    const others = around(me(), v.players);
    Object.assign(root.dataset, {
      phase: v.phase, myturn: myTurn() && !ctx.pending ? '1' : '0', need: v.options.initial_peek,
      drawn: v.drawn ?? '', turn: v.turn, round: v.round, overlay: overlay ? overlay.kind : '',
    });
    const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
    const canDraw = myTurn() && v.phase === 'turn';
    root.append(...[
      h('div.status', { id: 'status' }, h('strong', t('table.round', { n: v.round })), ...facts()),
      h('div.opponents', others.map(s => playerEl(s, false))),
      h('div.center',
        h('div.pile', h('button.slot.big.drawpile' + (canDraw ? '.can' : ''), {
          type: 'button', 'data-action': 'drawpile', 'data-key': 'cabo:drawpile', html: backSVG(), disabled: !canDraw || ctx.pending,
          ...tap(act.draw), 'aria-label': t('a11y.drawpile', { n: v.draw_count }),
        }), h('div.label', t('cabo.draw.pile', { n: v.draw_count }))),
        h('div.pile', h('button.slot.big.discardpile' + (anim.has('discard') && !from.has('discard') ? '.anim' : '') + (canDraw && sel.size ? '.can' : ''), {
          type: 'button', 'data-action': 'discardpile', 'data-key': 'cabo:discard', 'data-from': from.get('discard'), html: top === null ? '' : faceSVG(top),
          disabled: !canDraw || ctx.pending, ...tap(() => (sel.size ? act.take() : null)),
          'aria-label': top === null ? t('a11y.discard.empty') : t('a11y.discard', { card: top }),
        }), h('div.label', t('cabo.discard.pile'))),
        v.drawn != null ? h('div.pile.drawn', h('div.slot.big' + (anim.has('drawn') ? '.anim' : ''), { html: faceSVG(v.drawn), id: 'drawn', 'data-key': 'cabo:drawn', 'data-from': from.get('drawn'), role: 'img', 'aria-label': t('a11y.drawn', { card: v.drawn }) }),
          h('div.label', t('cabo.drawn'))) : null),
      mine ? playerEl(me(), true) : null,
      h('div.actions', { id: 'actions' }, actions()),
      overlayEl(),
    ].filter(Boolean));
    anim = new Set();
    flips = new Set();
    from = new Map();
  }

  function logLine(e) {
    const nm = s => ctx.name(s);
    const c = x => (x === undefined || x === null ? '?' : x);
    // Memory is a rule: what this seat saw privately (e.seen of its own
    // look) is written only at a table with the memory aid. The server
    // leaves it out of a reconnection's history too; live events still
    // carry it, for the few seconds the screen shows the card.
    const aid = !!ctx.info?.memory_aid;
    const saw = e.seat === me() && aid && e.seen;
    switch (e.type) {
      case 'deal': return t('cabo.log.deal', { round: e.round, name: nm(e.seat), card: c(e.card) });
      case 'peek_initial':
        if (saw) return t('memory.log.peek_initial', { slots: slotsText(e.slots), seen: e.seen.join(', ') });
        return e.seat === me() ? t('cabo.log.peek_initial.me', { slots: slotsText(e.slots) }) : t('cabo.log.peek_initial', { name: nm(e.seat), n: e.slots.length });
      case 'draw': return saw ? t('cabo.log.draw.me', { card: e.seen[0] }) : t('cabo.log.draw', { name: nm(e.seat) });
      case 'take_discard': case 'replace':
        // A wrong set claim is legal and costs its maker (bots make some
        // on purpose): the line says so plainly, and what it cost.
        if (e.failed) return t('cabo.log.wrong.' + e.type, { name: nm(e.seat), slots: slotsText(e.slots), seen: e.seen.join(', '), card: c(e.card) });
        return t('cabo.log.' + e.type, { name: nm(e.seat), card: c(e.card), slots: t('cabo.slots', { slots: slotsText(e.slots) }), discarded: (e.discarded || []).join(', ') });
      case 'discard': return t('cabo.log.discard', { name: nm(e.seat), card: c(e.card) });
      case 'peek': return t('cabo.log.peek', { name: nm(e.seat), card: c(e.card), slot: e.target.slot + 1 }) + (saw ? ' ' + t('memory.log.saw', { card: e.seen[0] }) : '');
      case 'spy': return t('cabo.log.spy', { name: nm(e.seat), card: c(e.card), target: nm(e.target.seat), slot: e.target.slot + 1 }) + (saw ? ' ' + t('memory.log.saw', { card: e.seen[0] }) : '');
      case 'swap': return t('cabo.log.swap', {
        name: nm(e.seat), card: c(e.card),
        a: t('cabo.slot.of', { name: nm(e.a.seat), slot: e.a.slot + 1 }), b: t('cabo.slot.of', { name: nm(e.b.seat), slot: e.b.slot + 1 }),
      });
      case 'cabo': return t('cabo.log.cabo', { name: nm(e.seat) });
      case 'reshuffle': return t('cabo.log.reshuffle', { count: e.count });
      case 'round_end': return t('cabo.log.round_end', { scores: e.end.round_scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
      case 'game_over': return t('cabo.log.game_over', { names: e.winners.map(nm).join(', ') });
    }
    return null;
  }

  // explain puts a refusal ({code, reason, args, error}) into the
  // player's language: Cabo's args are numbers the words take as they are.
  function explain(m) {
    return refusalText(m, 'cabo', ctx.name);
  }

  return { render, onEvent, onState, logLine, explain };
}
