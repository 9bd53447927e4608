// The games the server plays, as GET /api/games serves them: each game's
// registration (games/<g>/register.go) with its name, players, options,
// bots and look (title, scoring, what a round is called). It is the
// client's one list of games: the pages read it, none names a game.
import { api } from './api.js';
import { t, has } from './i18n.js';

let list = [];
let loading = null;

// loadGames fetches the registry once (again after a failure) and gives
// the list; app.js draws its first page after it.
export function loadGames() {
  loading ??= api('GET', '/api/games').then(l => (list = l), () => { loading = null; return list; });
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

// lowWins says whether game's lowest score wins (true), its highest
// (false), or neither is a rule (undefined: the winners say).
export function lowWins(game) {
  const s = gameInfo(game).scoring;
  return s === 'low' ? true : s === 'high' ? false : undefined;
}

// roundKey is the score sheet's word for one of game's rows: a round, or
// a game where a match is made of games.
export const roundKey = game => (gameInfo(game).round === 'game' ? 'sheet.game' : 'sheet.round');
