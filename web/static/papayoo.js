// The Papayoo screen (RULES.md §2): the seat's hand as a fanned row of
// cards sorted by suit, the pass chosen by tapping cards then "Pass", the
// die and its Papayoo, the trick in the centre with who played what, and
// the points taken this round and in the game.
//
// Only state.legal is offered: during the pass, the cards the server lists
// as pass steps (cards held and not chosen yet); during the play, the cards
// that follow the led suit (or any card when the seat cannot follow). The
// whole pass is sent at once, as REPLAY.md's {"type":"pass","cards":[...]}.
//
// Its parts are in papayoo/: the cards, the state they share, following
// the table, input, the centre, the rest of the drawing, the log's words.
import { stylesheet, screenOf } from './screen.js';
import { newState } from './papayoo/state.js';
import { onEvent, onState } from './papayoo/follow.js';
import { render } from './papayoo/draw.js';
import { logLine, explain } from './papayoo/log.js';

export { suitIcon, paperSVG, cardText } from './papayoo/cards.js';

// papayooCaption puts a move in words for the replay viewer (history.js).
export { caption as papayooCaption } from './papayoo/caption.js';

export function papayooUI(ctx) {
  stylesheet('papayoo.css');
  return screenOf(newState(ctx), { render, onEvent, onState, logLine, explain });
}
