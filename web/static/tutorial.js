// Tutorials that teach by playing (issue 26). A tutorial is a table of its
// own (POST /api/tutorials/{game}, docs/API.md): a prepared deal against a
// bot that plays a script, where each of the player's moves is a step the
// server tells this seat alone, when it is awaited, in a "tutorial"
// message. This module starts one, offers to resume one (the table's id
// is kept in localStorage, as guide.js keeps its memory), and draws the
// step over the table: its words, an outline on what it is done with,
// placed as guide.js places its bubble.
import { h, tap, toast } from './dom.js';
import { t, has, getLang } from './i18n.js';
import { api } from './api.js';
import { placeBubble, guideOffered } from './guide.js';
import { finished } from './settings.js';
import { loadPlayer, savedName } from './player.js';
import { refusalText } from './refusal.js';

// The games with a tutorial, as GET /api/tutorials lists them, asked once.
let games = [];
let loading = null;
export function loadTutorials() {
  loading ||= api('GET', '/api/tutorials').then(r => { games = r.games || []; }, () => { games = []; });
  return loading;
}
export const hasTutorial = game => games.includes(game);

// isTutorial says whether the table info is a tutorial's: its other seats
// are the script's bot.
export const isTutorial = info => !!info?.seats?.some(s => s.bot === 'tutorial');

// open goes to a table's page with its seat response (app.js's openTable).
let open = (url) => { location.href = url; };
export function setOpener(fn) { open = fn; }

// The tutorial under way of a game: its table's id, until it is played
// out. A refresh, another page or tomorrow offer to resume it.
const KEY = game => 'tapis.tutorial.' + game;
export const resumable = game => { try { return localStorage.getItem(KEY(game)) || ''; } catch { return ''; } };
const keep = (game, id) => {
  try { if (id) localStorage.setItem(KEY(game), id); else localStorage.removeItem(KEY(game)); } catch { /* private mode: no resume */ }
};

// startTutorial makes a tutorial table of game and goes to it.
export async function startTutorial(game) {
  offered(game);
  await loadPlayer();
  try {
    const r = await api('POST', '/api/tutorials/' + game, { name: savedName() || t('tutorial.name'), lang: getLang() });
    keep(game, r.table);
    open(r.url, r);
  } catch (err) { toast(refusalText(err)); }
}

// tutorialLinks is a game's "Tutorial" button and, when one is under way,
// "Resume the tutorial" (the help page's, the home page's): empty for a
// game without a tutorial. It fills in once the list of tutorials is in.
export function tutorialLinks(game) {
  const span = h('span.tutlinks', { 'data-tutorial': game });
  loadTutorials().then(() => {
    if (!hasTutorial(game)) return;
    const id = resumable(game);
    // replaceChildren would write a null as the word "null".
    span.replaceChildren(...[
      h('button', { type: 'button', 'data-action': 'tutorial-start', 'data-game': game, ...tap(() => startTutorial(game)) }, t('tutorial.start')),
      id ? h('a.button', { href: '/t/' + id, 'data-action': 'tutorial-resume', 'data-game': game }, t('tutorial.resume')) : null].filter(Boolean));
  });
  return span;
}

// The offer of the home page: a player who picks a game there (the create
// form's game, quick match's, the lobby's filter) and is new to it is
// offered its tutorial beside what they picked, once per game in this
// browser, as guide.js offers it at a first table against bots. New: no
// game of it finished at a seat (settings.js), no tutorial of it started,
// no offer made before, here or at a table.
const OFFERED = game => 'tapis.tutorial.offered.' + game;
const offered = game => { try { localStorage.setItem(OFFERED(game), '1'); } catch { /* private mode: offered again */ } };
function newTo(game) {
  try {
    if (localStorage.getItem(OFFERED(game))) return false;
  } catch { return false; }
  return hasTutorial(game) && !resumable(game) && !guideOffered(game) && finished(game) === 0;
}

// offering is the offer on the home page: its game and where it was
// picked ('create', 'quick' or 'lobby'), until answered or the page left.
let offering = null;

// pickGame notes that the player picked game at where, by their own hand
// (a page that sets a choice itself offers nothing): a game new to them
// gets the offer there, and redraw draws it. The list of tutorials is
// asked first when it is not in yet.
export function pickGame(game, where, redraw) {
  loadTutorials().then(() => {
    if (!newTo(game)) return;
    offered(game);
    offering = { game, where };
    redraw();
    // Beside the choice just made, and wholly in the window.
    document.getElementById('tutoffer')?.scrollIntoView({ block: 'nearest' });
  });
}

// gameOffer is the offer to draw at where, or null: the renderers of the
// home page's parts call it where the offer goes, at each redraw.
export function gameOffer(where) {
  if (!offering || offering.where !== where || location.pathname !== '/') return null;
  const { game } = offering;
  const name = has('game.' + game) ? t('game.' + game) : game;
  const box = h('div.tutoffer', { id: 'tutoffer', role: 'note', 'data-game': game },
    h('p', t('guide.offer.tutorial', { game: name })),
    h('div.row',
      h('button', { type: 'button', 'data-action': 'tutoffer-no', ...tap(() => { offering = null; box.remove(); }) }, t('guide.no')),
      h('button.primary', { type: 'button', 'data-action': 'tutoffer-play', ...tap(() => { offering = null; startTutorial(game); }) }, t('tutorial.play'))));
  return box;
}

// p is the panel on screen, or null: its table, the step message, and
// its elements; dismissed are the tables whose end the player closed.
let p = null;
const dismissed = new Set();

// tutorialPanel is called by app.js after each redraw of a table with
// the table, the page's seat and the last "tutorial" message (null: none,
// or no table): it draws the step of the moment over the table.
export function tutorialPanel(info, seat, step) {
  if (info) offering = null; // at a table: the home page's offer is over
  const on = !!(info && step && seat >= 0 && step.game === info.game && !dismissed.has(info.id) && isTutorial(info));
  if (p && (!on || p.table !== info.id)) close();
  if (!on) return;
  if (!p) {
    p = { table: info.id, game: info.game, shown: '', place: '' };
    p.box = h('div.guide.tutorial', { id: 'tutorial', role: 'dialog', 'aria-live': 'polite', 'aria-label': t('tutorial.title') });
    p.ring = h('div.guide-ring', { 'aria-hidden': 'true' });
    document.body.append(p.ring, p.box);
    window.addEventListener('resize', place);
    // The table moves without a redraw too (a card's animation): the
    // panel follows it, as the guide does.
    p.timer = setInterval(place, 300);
  }
  p.step = step;
  if (step.done) keep(info.game, ''); // played out: nothing to resume
  else if (!resumable(info.game)) keep(info.game, info.id);
  draw();
}

function close() {
  if (!p) return;
  clearInterval(p.timer);
  p.box.remove();
  p.ring.remove();
  window.removeEventListener('resize', place);
  document.body.style.paddingBottom = '';
  p = null;
}
window.addEventListener('popstate', () => close());

const mode = s => (s.done ? 'done' : s.waiting ? 'waiting' : 'step');
const words = m => (m ? m[getLang()] || m.en || '' : '');

// draw writes the panel anew only when its words change, so that a
// button under the player's finger is not replaced by a bot's move.
function draw() {
  const s = p.step;
  const key = [mode(s), s.step, getLang()].join('|');
  if (key !== p.shown) {
    p.shown = key;
    p.box.replaceChildren(...(s.done ? end(s) : stepParts(s)));
    p.box.setAttribute('aria-label', t('tutorial.title'));
  }
  Object.assign(p.box.dataset, { mode: mode(s), step: s.step, of: s.of });
  place();
}

function stepParts(s) {
  return [
    h('p.guide-count', t('tutorial.step', { n: s.step, of: s.of })),
    h('p.guide-text' + (s.waiting ? '.tutorial-wait' : ''), s.waiting ? t('tutorial.waiting') : words(s.text)),
    h('div.guide-buttons',
      h('button', { type: 'button', 'data-action': 'tutorial-leave', ...tap(() => { location.href = '/'; }) }, t('tutorial.leave'))),
  ];
}

function end(s) {
  const table = p.table;
  return [
    h('p.guide-count', t('tutorial.over')),
    h('p.guide-text', words(s.end)),
    h('div.guide-buttons',
      h('button', { type: 'button', 'data-action': 'tutorial-stay', ...tap(() => { dismissed.add(table); close(); }) }, t('tutorial.stay')),
      h('a.button.primary', { href: '/', 'data-action': 'tutorial-real' }, t('tutorial.real'))),
  ];
}

// target is what the step is done with: its point, when it is on the
// page with a size.
function target() {
  const s = p.step;
  if (s.done || s.waiting || !s.point) return null;
  const el = document.querySelector(s.point);
  const r = el?.getBoundingClientRect();
  return r && r.width > 0 && r.height > 0 ? el : null;
}

// place outlines the step's target and puts the panel beside it, as the
// guide's bubble. On a phone no place beside it leaves the step's other
// controls free (a swap's two cards and its button): the panel is then a
// sheet at the bottom of the window, and the page gets as much room
// below its end, so that all of it can be scrolled above the sheet.
function place() {
  if (!p) return;
  const docked = document.documentElement.clientWidth < DOCK;
  p.box.classList.toggle('docked', docked);
  p.place = placeBubble(p.box, p.ring, target(), p.place);
  document.body.style.paddingBottom = docked ? p.box.offsetHeight + 8 + 'px' : '';
}
const DOCK = 600; // px: narrower, the panel is a sheet
