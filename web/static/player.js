// Who this browser is: the player of its session cookie (docs/API.md,
// "Players and sessions"), a guest until it claims a username. The page
// learns it from GET /api/me and makes the guest on the first action that
// needs one (create, join, quick match, setting the name).
import { api } from './api.js';

let me = null;       // {id, name, username, guest}, or null without a session
let loading = null;  // the GET /api/me under way or done
let making = null;   // {name, promise}: the POST /api/me under way
const watchers = new Set();

// player is the player as last known (null: none yet).
export function player() { return me; }

// loadPlayer asks the server once who this browser is; reloadPlayer asks
// again (after a sign-in elsewhere, say).
export function loadPlayer() {
  loading ||= api('GET', '/api/me').then(r => setPlayer(r.player || null), () => me);
  return loading;
}
export function reloadPlayer() { loading = null; return loadPlayer(); }

// onPlayer calls fn with the player whenever it changes; it returns the
// function that stops it.
export function onPlayer(fn) { watchers.add(fn); return () => watchers.delete(fn); }

// setPlayer records a player the server answered with.
export function setPlayer(p) {
  me = p || null;
  // The name is kept for the next guest on this browser (after a sign-out).
  if (me?.name) localStorage.setItem('tapis.name', me.name);
  for (const fn of watchers) fn(me);
  return me;
}

// savedName is the name to offer: the player's, else the one the browser
// kept from an earlier visit.
export function savedName() { return me?.name || localStorage.getItem('tapis.name') || ''; }

// ensurePlayer makes sure there is a player named name: it makes the guest
// (or renames the player) when needed. Two calls for the same name at once
// (a name field's change and the button pressed right after it) make one
// request. An empty name keeps the player's; with no player it is refused.
export async function ensurePlayer(name) {
  const n = (name || '').trim();
  await loadPlayer();
  if (me && (!n || me.name === n)) return me;
  if (!n) throw Object.assign(new Error('name'), { code: 'need_name' });
  if (making?.name === n) return making.promise;
  const promise = api('POST', '/api/me', { name: n }).then(r => setPlayer(r.player), err => {
    // A server without players (older than docs/API.md's issue 16) still
    // takes a name with each request.
    if (err.status === 404 || err.status === 405) return null;
    throw err;
  }).finally(() => { if (making?.promise === promise) making = null; });
  making = { name: n, promise };
  localStorage.setItem('tapis.name', n);
  return promise;
}
