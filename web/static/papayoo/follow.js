// How the Papayoo screen follows the table: the events it animates or
// shows for a moment, and the pass a new position clears.
import { me, seatKey, legalCards } from './state.js';
import { travelMs } from '../motion.js';

const RECEIVED_MS = 5000;
// How long the taker of a trick is shown at their seat.
export const TAKES_MS = 1800;
// A trick taken less than LANDING_MS ago: its last card may still be
// on its way to the centre (motion.js's travelMs, the player's pace), and
// what says who takes it waits for the card to land (papayoo.css, .landing).
const landingMs = () => travelMs() + 100;

// landing says whether the last trick was taken a moment ago.
export function landing(S) {
  return !!S.lastTaker && S.lastTaker.until - Date.now() > TAKES_MS - landingMs();
}

// onEvent notes what an event changes on the screen: cards received,
// one that travels, a trick taken, the end of a round or of the game.
export function onEvent(S, e) {
  switch (e.type) {
    case 'deal':
      S.sel = new Set(); S.received = null; S.lastTaker = null;
      S.anim.add('hand');
      break;
    case 'pass':
      if (e.seat === me(S)) S.sel = new Set();
      break;
    case 'received':
      if (e.seat === me(S)) {
        S.received = { cards: new Set(e.cards), until: Date.now() + RECEIVED_MS };
        for (const c of e.cards) S.from.set(c, seatKey(e.from));
        setTimeout(() => S.ctx.render(), RECEIVED_MS + 50);
      }
      break;
    case 'die':
      S.papayoo = { card: e.card, taker: -1 };
      S.anim.add('die');
      break;
    case 'play':
      // Mine travels from my hand by its own key.
      if (e.seat !== me(S)) S.from.set(e.card, seatKey(e.seat));
      break;
    case 'trick':
      // Who took the Papayoo, for the round's end panel.
      if (S.papayoo && (e.cards || []).includes(S.papayoo.card)) S.papayoo.taker = e.seat;
      S.lastTaker = { seat: e.seat, points: e.points || 0, until: Date.now() + TAKES_MS };
      S.anim.add('seat:' + e.seat);
      setTimeout(() => S.ctx.render(), TAKES_MS + 50);
      break;
    case 'round_end':
      S.overlay = { kind: 'round', round: e.round, roundScores: e.round_scores, scores: e.scores, papayoo: S.papayoo };
      S.papayoo = null;
      break;
    case 'game_over':
      S.overlay = { kind: 'over', round: S.overlay?.round, roundScores: S.overlay?.roundScores, scores: e.scores, winners: e.winners, papayoo: S.overlay?.papayoo };
      break;
  }
}

export function onState(S, m) {
  // A chosen card that is no longer offered (a new round, a pass made
  // elsewhere) leaves the selection.
  const ok = legalCards(S, 'pass');
  for (const c of S.sel) if (!ok.has(c)) S.sel.delete(c);
  if (m.view.phase !== 'pass') S.sel = new Set();
  // A page that came in after the die learns the Papayoo from the view;
  // who took it is known only if its trick was seen here.
  if (m.view.papayoo && S.papayoo?.card !== m.view.papayoo) S.papayoo = { card: m.view.papayoo, taker: -1 };
}
