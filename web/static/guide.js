// The guided first turn (issue 15): the first time a player sits at a
// table where every other seat is a bot, a small panel offers to show them
// their first turn; then a few steps point at the table's own elements (an
// outline and a bubble) and say, in help.js's hint words, what to do now.
// For a game that has a tutorial (tutorial.js, issue 26), the offer is
// first the tutorial's, which teaches by playing; the tour stays offered
// beside it. The bubble's placement (placeBubble) is the tutorial's too.
//
// The guide lives beside the table, not in it: app.js redraws the whole
// table on every message, so the bubble and the outline are fixed elements
// of the body, placed again over the element of the moment after each
// redraw. Neither blocks the table: the outline lets clicks through, and
// the bubble goes where it covers the fewest of the table's controls.
import { h, tap } from './dom.js';
import { t } from './i18n.js';
import { hintText } from './help.js';
import { hasTutorial, startTutorial } from './tutorial.js';

// Offered once per game and browser: the key is set when the panel shows,
// so that a refresh or a second table does not offer it again.
const KEY = game => 'tapis.guide.' + game;
const remembered = game => { try { return localStorage.getItem(KEY(game)) != null; } catch { return true; } };
// tutorial: the home page's offer of the tutorial (tutorial.js) is not
// made to a player this guide has made its offer to.
export const guideOffered = remembered;
const remember = (game, v) => { try { localStorage.setItem(KEY(game), v); } catch { /* private mode: offered every time */ } };

// A step points at sel (the first that is on the page and not empty) and
// says text. The player's own place is [data-player=seat] in every game's
// screen; #game is the last resort (the generic screen).
const MINE = seat => [`#game [data-player="${seat}"]`, '#hand', '#game'];
const STEPS = {
  cabo: [
    { sel: MINE, text: 'guide.cabo.cards' },
    { sel: () => ['#game .center'], text: 'guide.cabo.piles' },
    { sel: () => ['#actions', '#hint'], text: 'guide.cabo.actions' },
    { sel: () => ['#hint'], text: 'guide.cabo.hint' },
  ],
  // The other games: the player's place, then the hint line.
  any: [
    { sel: MINE, text: 'guide.any.hand' },
    { sel: () => ['#hint'], text: 'guide.any.hint' },
  ],
};

// g is the guide on screen, or null: its table and game, mode 'offer' or
// 'steps', the step, the last position seen (n) so that a move of the
// player's own moves the guide on, and its elements.
let g = null;

// guide is called by app.js after each redraw of a table: it offers the
// guide when it should, moves it on when the player has made a move, and
// places it over the table as just drawn.
export function guide(info, st, seat, name, refused) {
  if (g && (g.table !== info?.id || seat !== g.seat)) close();
  if (!info || !st) return;
  if (!g) {
    if (!offerable(info, st, seat)) return;
    remember(info.game, 'offered');
    g = { table: info.id, game: info.game, seat, mode: 'offer', step: 0, n: st.n, shown: '', place: '' };
    g.box = h('div.guide', { id: 'guide', role: 'dialog', 'aria-live': 'polite', 'aria-label': t('guide.title') });
    g.ring = h('div.guide-ring', { 'aria-hidden': 'true' });
    document.body.append(g.ring, g.box);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', place);
    // The table's layout moves without a redraw too (a card's animation,
    // the log growing): the guide follows it.
    g.timer = setInterval(place, 300);
  }
  if (st.n !== g.n) {
    // Doing the step is making a move: the guide goes on with the player.
    if (g.mode === 'steps' && st.by === seat) go(g.step + 1);
    if (!g) return;
    g.n = st.n;
  }
  if (st.status === 'over') { close(); return; }
  g.hint = hintText(info.game, st, seat, name, refused);
  draw();
}

// offerable: a seated player, a game under way, every other seat a bot
// (a tutorial's table has its own panel: tutorial.js), and this game's
// guide not offered before in this browser.
function offerable(info, st, seat) {
  return seat >= 0 && st.status === 'playing' && info.seats.length > 1 &&
    info.seats.every((s, i) => i === seat || (s.bot && s.bot !== 'tutorial')) && !remembered(info.game);
}

const steps = () => STEPS[g.game] || STEPS.any;

function go(step) {
  if (step >= steps().length) { close(); return; }
  g.mode = 'steps';
  g.step = step;
  draw();
}

function close() {
  if (!g) return;
  clearInterval(g.timer);
  g.box.remove();
  g.ring.remove();
  document.removeEventListener('keydown', onKey);
  window.removeEventListener('resize', place);
  g = null;
}

// Going back to another page (the browser's Back button, which app.js
// follows without loading the page anew) leaves the guide behind.
window.addEventListener('popstate', () => close());

// Escape skips the guide (or declines the offer), unless the rules are
// open over the table: that Escape is theirs.
function onKey(e) {
  if (e.key !== 'Escape' || document.getElementById('help')) return;
  if (g?.mode === 'offer') remember(g.game, 'no');
  close();
}

// draw writes the bubble anew only when its words change, so that a
// button under the player's finger is not replaced by a bot's move.
function draw() {
  const game = t('game.' + g.game);
  const key = [g.mode, g.step, t('guide.next'), g.hint, hasTutorial(g.game)].join('|');
  if (key !== g.shown) {
    g.shown = key;
    g.box.replaceChildren(...(g.mode === 'offer' ? offer(game) : bubble()));
    g.box.setAttribute('aria-label', t('guide.title'));
  }
  Object.assign(g.box.dataset, { mode: g.mode, step: g.mode === 'steps' ? g.step + 1 : 0, of: steps().length });
  place();
}

function offer(game) {
  // A game with a tutorial offers it first: playing it teaches the rules,
  // the tour only the screen.
  const tut = hasTutorial(g.game);
  return [
    h('p.guide-text', t(tut ? 'guide.offer.tutorial' : 'guide.offer', { game })),
    h('div.guide-buttons',
      h('button', { type: 'button', 'data-action': 'guide-no', ...tap(() => { remember(g.game, 'no'); close(); }) }, t('guide.no')),
      h(tut ? 'button' : 'button.primary', { type: 'button', 'data-action': 'guide-yes', ...tap(() => { remember(g.game, 'yes'); go(0); }) }, t(tut ? 'guide.tour' : 'guide.yes')),
      tut ? h('button.primary', { type: 'button', 'data-action': 'guide-tutorial', ...tap(() => { remember(g.game, 'tutorial'); const game = g.game; close(); startTutorial(game); }) }, t('tutorial.play')) : null),
  ];
}

function bubble() {
  const all = steps(), s = all[g.step], last = g.step === all.length - 1;
  return [
    h('p.guide-count', t('guide.step', { n: g.step + 1, of: all.length })),
    h('p.guide-text', t(s.text)),
    // What to do now, in the hint line's own words: the rules as the
    // table applies them, said the same way in both places.
    g.hint ? h('p.guide-now', g.hint) : null,
    h('div.guide-buttons',
      h('button', { type: 'button', 'data-action': 'guide-skip', ...tap(() => { remember(g.game, 'skipped'); close(); }) }, t('guide.skip')),
      h('button.primary', { type: 'button', 'data-action': 'guide-next', ...tap(() => go(g.step + 1)) }, t(last ? 'guide.done' : 'guide.next'))),
  ];
}

// target is the element the current step points at: the first of its
// selectors on the page with a size (an empty #actions has none).
function target() {
  if (g.mode !== 'steps') return null;
  for (const sel of steps()[g.step].sel(g.seat)) {
    const el = document.querySelector(sel);
    const r = el?.getBoundingClientRect();
    if (r && r.width > 0 && r.height > 0) return el;
  }
  return null;
}

const M = 8; // the bubble's margin from the window's edges and the target
const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// place puts the guide's outline and bubble over the table as it is now.
function place() {
  if (!g) return;
  g.place = placeBubble(g.box, g.ring, target(), g.place);
}

// placeBubble puts the outline ring on el and the bubble box beside it: of
// the places around el (or, without one, under the hint line) and the
// window's corners, the one inside the window that hides least of el and
// of the table's controls, the nearer the better; kept, the place of the
// moment (its name, returned by the last call) unless another is clearly
// better.
export function placeBubble(box, ring, el, kept) {
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const tr = el ? el.getBoundingClientRect() : (document.getElementById('hint') || document.getElementById('game'))?.getBoundingClientRect();
  if (el) {
    Object.assign(ring.style, { display: 'block', left: tr.left - 4 + 'px', top: tr.top - 4 + 'px', width: tr.width + 8 + 'px', height: tr.height + 8 + 'px' });
  } else ring.style.display = 'none';
  const bw = box.offsetWidth, bh = box.offsetHeight;
  const at = tr || { left: W / 2, right: W / 2, top: 0, bottom: 0, width: 0, height: 0 };
  const cx = at.left + at.width / 2 - bw / 2, cy = at.top + at.height / 2 - bh / 2;
  const spots = {
    below: [cx, at.bottom + M], above: [cx, at.top - M - bh], right: [at.right + M, cy], left: [at.left - M - bw, cy],
    topleft: [M, M], topright: [W - M - bw, M], bottomleft: [M, H - M - bh], bottomright: [W - M - bw, H - M - bh],
  };
  // A disabled button counts: it is the step's action a moment later
  // (Cabo's Look, once two cards are chosen).
  const controls = [...document.querySelectorAll('#top button, #main button, #main select, #main input, #main summary, #main a')]
    .map(c => c.getBoundingClientRect()).filter(r => r.width > 0);
  let best = null;
  for (const [name, [x0, y0]] of Object.entries(spots)) {
    const x = Math.min(Math.max(x0, M), W - M - bw), y = Math.min(Math.max(y0, M), H - M - bh);
    const r = { left: x, top: y, right: x + bw, bottom: y + bh };
    let score = controls.reduce((sum, c) => sum + area(r, c), 0) + (el ? 4 * area(r, tr) : 0);
    score += Math.hypot(x + bw / 2 - (at.left + at.width / 2), y + bh / 2 - (at.top + at.height / 2)) / 10;
    // The place of the moment is kept unless another is clearly better,
    // so that the bubble does not hop at every redraw.
    if (name === kept) score -= 50;
    if (!best || score < best.score) best = { name, x, y, score };
  }
  Object.assign(box.style, { left: Math.round(best.x) + 'px', top: Math.round(best.y) + 'px' });
  return best.name;
}
