// The games the server plays, as GET /api/games serves them: each game's
// registration (games/<g>/register.go) with its name, players, options,
// bots and look (title, scoring, what a round is called, its screen). It
// is the client's one list of games: the pages read it, none names a game.
import { api } from './api.js';
import { t, has } from './i18n.js';
import { genericUI } from './generic.js';

let list = [];
let loading = null;
const screens = {};
const captions = {};

// loadGames fetches the registry and the games' screens once (again after
// a failure) and gives the list; app.js draws its first page after it.
export function loadGames() {
  loading ??= api('GET', '/api/games').then(async l => {
    list = l;
    // A screen is the module the registration names, exporting <name>UI,
    // and <name>Caption, a move in words for the replay viewer.
    await Promise.all(l.filter(g => g.screen).map(g => import('./' + g.screen)
      .then(m => { screens[g.name] = m[g.name + 'UI']; captions[g.name] = m[g.name + 'Caption']; }, () => {})));
    return l;
  }, () => { loading = null; return list; });
  return loading;
}

// setGames keeps a list the page fetched itself (the home page reads
// /api/games afresh).
export function setGames(l) { list = l; }

// gameNames lists the games' names, in the server's order.
export const gameNames = () => list.map(g => g.name);

// gameInfo is game's entry, or an empty one for a game not listed.
export const gameInfo = game => list.find(g => g.name === game) || {};

// gameName is game's name in the page's language, else its registered
// title, else its identifier.
export const gameName = game => (has('game.' + game) ? t('game.' + game) : gameInfo(game).title || game);

// screenFor is the screen that draws game: its own, or the generic one
// when it has none or generic is asked for (?screen=generic shows any
// game as its raw view and legal moves, for bot writers).
export function screenFor(game, generic = false) {
  return (generic ? null : screens[game]) || genericUI;
}

// captionFor is game's words for a move of the replay viewer, or
// undefined when its screen has none (history.js then lists the move's
// fields).
export const captionFor = game => captions[game];

// lowWins says whether game's lowest score wins (true), its highest
// (false), or neither is a rule (undefined: the winners say).
export function lowWins(game) {
  const s = gameInfo(game).scoring;
  return s === 'low' ? true : s === 'high' ? false : undefined;
}

// roundKey is the score sheet's word for one of game's rows: a round, or
// a game where a match is made of games.
export const roundKey = game => (gameInfo(game).round === 'game' ? 'sheet.game' : 'sheet.round');
