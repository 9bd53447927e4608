// The Da Capo! screen (RULES.md §4): the three building piles in the
// centre, every player's personal pile (top card face up) and helper piles,
// and the seat's hand. A move is "pick a source, then a target": a hand
// card, your personal top, a helper top or an opponent's personal top, then
// a building pile the server's legal moves allow; or a hand card onto a
// helper pile, which ends the turn. With an empty hand and nothing left to
// draw, building is optional: an "End turn" button, shown only while the
// server lists the move end, stops the turn (RULES.md §4).
//
// Its parts are in dacapo/: the cards, the state they share, input,
// following the table, the piles, the rest of the drawing, the log's words.
import { stylesheet, screenOf } from './screen.js';
import { newState } from './dacapo/state.js';
import { onEvent, onState } from './dacapo/follow.js';
import { render } from './dacapo/draw.js';
import { logLine, explain } from './dacapo/log.js';

export { cardSVG } from './dacapo/cards.js';

// dacapoCaption puts a move in words for the replay viewer (history.js).
export { caption as dacapoCaption } from './dacapo/caption.js';

export function dacapoUI(ctx) {
  stylesheet('dacapo.css');
  return screenOf(newState(ctx), { render, onEvent, onState, logLine, explain });
}
