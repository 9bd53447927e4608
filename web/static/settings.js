// A player's settings (issue 26), kept by the browser (localStorage):
// the pace at which they see the bots play and the cards travel (slow,
// normal, fast), and whether "Call Cabo!" asks before it is sent. The
// table's gear button opens them; the Cabo screen asks through askCabo.
//
// "Call Cabo!" asks by default during a player's first FIRST_GAMES games
// of Cabo (finished at a seat, counted here), then no longer: a call by
// mistake ends a round, and it is the new player who makes it, while a
// player who knows the game wants one tap. Whoever turns the question on
// or off in the settings keeps that choice for good.
//
// The pace is the player's own: their page's animations follow it
// (motion.js), and it is told to the table (app.js sends a "pace"
// message), whose bots wait at the slowest pace of the people seated
// (table/pace.go): alone with bots, the usual table, the bots play at
// exactly the pace chosen.
import { h } from './dom.js';
import { t } from './i18n.js';
import { stylesheet } from './screen.js';
import { toggles } from './notify.js';

const KEY = 'tapis.settings';
const FINISHED = 'tapis.finished.'; // + a game's name: games finished at a seat
export const FIRST_GAMES = 5;
export const PACES = ['slow', 'normal', 'fast'];

function load() {
  try { const s = JSON.parse(localStorage.getItem(KEY)); return s && typeof s === 'object' ? s : {}; } catch { return {}; }
}
function save(change) {
  try { localStorage.setItem(KEY, JSON.stringify({ ...load(), ...change })); } catch { /* private mode: not remembered */ }
  for (const fn of listeners) fn();
}

const listeners = new Set();
// onChange calls fn after every change of a setting; it returns the
// function that stops it.
export function onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

// pace is the player's pace: 'slow', 'normal' or 'fast'.
export function pace() { const p = load().pace; return PACES.includes(p) ? p : 'normal'; }

// finished is how many games of game this browser saw end at a seat.
export function finished(game) {
  const n = Number(localStorage.getItem(FINISHED + game));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

// noteFinished counts a game of game seen to its end at a seat.
export function noteFinished(game) {
  try { localStorage.setItem(FINISHED + game, String(finished(game) + 1)); } catch { /* not remembered */ }
}

// confirmCabo says whether "Call Cabo!" asks first: the player's choice,
// else yes during their first games.
export function confirmCabo() {
  const c = load().confirmCabo;
  return typeof c === 'boolean' ? c : finished('cabo') < FIRST_GAMES;
}

let open = null; // the overlay shown: the settings or a question

function close() {
  const was = open;
  open?.remove(); open = null;
  document.removeEventListener('keydown', onKey, true);
  return was;
}
function onKey(e) { if (e.key === 'Escape' && open) { e.preventDefault(); close(); } }

// show puts an overlay (id) with a dialog of content on the page, above
// the table and its guide, and focuses first.
function show(id, content, first) {
  stylesheet('settings.css');
  close();
  open = h('div.overlay.settings-overlay', { id, onclick: e => { if (e.target === open) close(); } },
    h('div.card-panel.settings', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': id + '-title' }, content));
  open.querySelector('h2')?.setAttribute('id', id + '-title');
  document.body.append(open);
  document.addEventListener('keydown', onKey, true);
  (open.querySelector(first) || open.querySelector('button'))?.focus();
}

// settingsButton is the table bar's gear: it opens the settings; game is
// the table's (Cabo's question shows at a Cabo table only), seated says
// whether the page is a player's (the turn alerts are theirs).
export function settingsButton(game, seated) {
  stylesheet('settings.css');
  return h('button.gear', {
    type: 'button', 'data-action': 'settings', title: t('settings.title'), 'aria-label': t('settings.title'), 'aria-haspopup': 'dialog',
    onclick: () => openSettings(game, seated),
  }, h('span', { 'aria-hidden': 'true' }, '⚙'), h('span.gear-text', t('settings.title')));
}

// openSettings shows the settings panel; every choice applies at once.
// The turn alerts' switches (notify.js) are there too: the table's bar
// keeps one button, so that it holds on one line on a phone.
export function openSettings(game, seated) {
  const now = pace();
  const radios = PACES.map(p => h('label.pace', h('input', {
    type: 'radio', name: 'pace', value: p, checked: p === now,
    onchange: () => save({ pace: p }),
  }), ' ', t('settings.pace.' + p)));
  const cabo = game === 'cabo' ? h('label.opt', h('input', {
    type: 'checkbox', name: 'confirm-cabo', checked: confirmCabo(),
    onchange: e => save({ confirmCabo: e.target.checked }),
  }), ' ', t('settings.cabo')) : null;
  show('settings', [
    h('h2', t('settings.title')),
    h('fieldset.paces', h('legend', t('settings.pace')), h('div.pacerow', radios), h('p.note', t('settings.pace.note'))),
    cabo,
    seated ? alerts() : null,
    h('div.row', h('button.primary', { type: 'button', 'data-action': 'close-settings', onclick: close }, t('settings.done'))),
  ], 'input[name=pace]:checked');
}

// alerts is the turn alerts' switches, drawn again when one changes.
function alerts() {
  const box = h('fieldset.alerts', h('legend', t('settings.alerts')));
  // A switch pressed is drawn anew: the keyboard's focus stays on it.
  const draw = () => {
    const had = box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    box.querySelector('.turnopts')?.remove();
    box.append(toggles(draw));
    if (had) box.querySelector(`[data-action=${had}]`)?.focus();
  };
  draw();
  return box;
}

// askCabo asks before a Cabo call is sent, in the page (not the browser's
// confirm(), which blocks the table's messages): yes runs call; "don't
// ask again" turns the question off for good.
export function askCabo(call) {
  const never = h('input', { type: 'checkbox', name: 'cabo-never' });
  const answer = yes => { if (never.checked) save({ confirmCabo: false }); close(); if (yes) call(); };
  show('confirm-cabo', [
    h('h2', t('cabo.ask.title')),
    h('p', { id: 'confirm-cabo-text' }, t('cabo.ask.text')),
    h('label.opt', never, ' ', t('cabo.ask.never')),
    h('div.row',
      h('button.danger', { type: 'button', 'data-action': 'confirm-cabo', onclick: () => answer(true) }, t('cabo.ask.yes')),
      h('button', { type: 'button', 'data-action': 'cancel-cabo', onclick: () => answer(false) }, t('cabo.ask.no'))),
  ], '[data-action=cancel-cabo]');
}

// closeSettings takes away what is open (the page is left).
export function closeSettings() { close(); }
