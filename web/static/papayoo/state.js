// The Papayoo screen's state, shared by its parts (follow.js, input.js,
// centre.js, draw.js, log.js), and the facts they all read from it.

// newState is a Papayoo screen's state for the table ctx (see app.js).
export function newState(ctx) {
  return {
    ctx,
    sel: new Set(),          // cards chosen for the pass, not sent yet
    received: null,          // {cards: Set, until}: just received, highlighted
    anim: new Set(),         // "card:X", "hand", "die", "seat:N": animate on the next render
    // Where a card of the next render comes from, for motion.js: card ->
    // the data-key of its place before (a seat's cards, face down). A card
    // that was on screen already (mine, played; a trick taken into the last
    // trick's row) travels by its own key, papayoo:card:X.
    from: new Map(),
    overlay: null,           // {kind: 'round'|'over', round, roundScores, scores, winners}
    lastTaker: null,         // {seat, points, until}: the trick winner, flashed
    papayoo: null,           // {card, taker}: this round's Papayoo, and who took it (-1: nobody yet)
  };
}

export const seatKey = s => 'papayoo:seat:' + s;
export const me = S => S.ctx.seat;
export const view = S => S.ctx.state.view;
export const playing = S => S.ctx.state.status === 'playing';
export const myTurn = S => playing(S) && S.ctx.state.to_move.includes(me(S));
export const left = (S, s) => (s + 1) % view(S).players;
export const right = (S, s) => (s - 1 + view(S).players) % view(S).players;

// legalCards is the set of cards state.legal offers, by kind.
export function legalCards(S, type) {
  const out = new Set();
  if (!myTurn(S)) return out;
  for (const m of S.ctx.state.legal || []) {
    if (m.type !== type) continue;
    if (m.card) out.add(m.card);
    for (const c of m.cards || []) out.add(c);
  }
  return out;
}

// need is how many cards are still to choose for the pass.
export const need = S => view(S).pass_size - (view(S).my_pass?.length || 0);
