// The Cabo screen: the players' rows of face-down cards, the draw and
// discard piles, the drawn card, and the moves of RULES.md §1 as clicks.
// A card seen once (a peek) is shown for a few seconds, then hidden again:
// remembering it is part of the game. Its parts are in cabo/: the state
// they share, following the table, input, drawing, the log's words.
import { refusalText } from './refusal.js';
import { screenOf } from './screen.js';
import { newState } from './cabo/state.js';
import { onEvent, onState } from './cabo/follow.js';
import { render } from './cabo/draw.js';
import { logLine } from './cabo/log.js';

// explain puts a refusal ({code, reason, args, error}) into the player's
// language: Cabo's args are numbers the words take as they are.
const explain = (S, m) => refusalText(m, 'cabo', S.ctx.name);

// caboCaption puts a move in words for the replay viewer (history.js).
export { caption as caboCaption } from './cabo/caption.js';

export function caboUI(ctx) {
  return screenOf(newState(ctx), { render, onEvent, onState, logLine, explain });
}
