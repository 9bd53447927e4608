// The Cabo screen's state, shared by its parts (follow.js, input.js,
// draw.js, log.js), and the small facts they all read from it.

// newState is a Cabo screen's state for the table ctx (see app.js).
export function newState(ctx) {
  return {
    ctx,
    sel: new Set(),      // my selected slots
    targets: [],         // selected slots of other players: {seat, slot}
    revealed: new Map(), // "seat:slot" -> {card, until}
    anim: new Set(),     // "seat:slot", "discard", "drawn": animate on next render
    // Slots turned face up since the last render: they flip once, not again
    // at each redraw while they stay shown.
    flips: new Set(),
    // Where a card of the next render comes from, for motion.js: "seat:slot",
    // "discard" or "drawn" -> the data-keys of its places before the move.
    from: new Map(),
    overlay: null,       // {kind: 'round'|'over', ...}
  };
}

export const me = S => S.ctx.seat;
export const view = S => S.ctx.state.view;
export const key = (s, i) => `${s}:${i}`;
export const slotKeys = (s, slots) => slots.map(i => 'cabo:' + key(s, i)).join(' ');
// A drawn card is shown to its drawer only: the others see it leave the
// draw pile.
export const DRAWN = 'cabo:drawn cabo:drawpile';
export const slotsText = sl => sl.map(i => i + 1).join(', ');
export const sorted = s => [...s].sort((a, b) => a - b);
export const myTurn = S => S.ctx.state.to_move.includes(me(S)) && S.ctx.state.status === 'playing';
export const power = c => (c === 7 || c === 8 ? 'peek' : c === 9 || c === 10 ? 'spy' : c === 11 || c === 12 ? 'swap' : '');
