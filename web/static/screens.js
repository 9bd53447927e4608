// The game screens, by game: the code that draws a game's table, for the
// table page and the history's replay. A game without one is drawn by the
// generic screen (generic.js), so a new game needs no entry here to be
// played; a screen of its own is one module and one line.
import { caboUI } from './cabo.js';
import { papayooUI } from './papayoo.js';
import { limitsUI } from './limits.js';
import { dacapoUI } from './dacapo.js';
import { genericUI } from './generic.js';

const screens = { cabo: caboUI, papayoo: papayooUI, limits: limitsUI, dacapo: dacapoUI };

// screenFor is the screen that draws game: its own, or the generic one
// when it has none or generic is asked for (?screen=generic).
export function screenFor(game, generic = false) {
  return (generic ? null : screens[game]) || genericUI;
}
