// The Limits screen (RULES.md §3): the round's limit card, the players
// around the table, the active pile (only its top card, as at the table),
// the seat's hidden card(s) and hand as colour cards, and the moves of
// REPLAY.md as taps: hide, place, exchange, accuse. An accusation is
// resolved in a panel that shows every hidden card, the limit and the count.
//
// Its parts are in limits/: the cards, the state they share, following
// the table, input, drawing, the accusation's panel, the log's words.
import { stylesheet, screenOf } from './screen.js';
import { newState } from './limits/state.js';
import { onEvent, onState } from './limits/follow.js';
import { render } from './limits/draw.js';
import { logLine, explain } from './limits/log.js';

export { colourSVG, limitSVG, limitBackSVG } from './limits/cards.js';

// limitsCaption puts a move in words for the replay viewer (history.js).
export { caption as limitsCaption } from './limits/caption.js';

export function limitsUI(ctx) {
  stylesheet('limits.css');
  return screenOf(newState(ctx), { render, onEvent, onState, logLine, explain });
}
