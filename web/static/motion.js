// Cards travel from where they leave to where they land (issue 15), by
// FLIP around app.js's render, which rebuilds the table on every message:
// before it, the screen rectangles of the elements that carry a stable
// data-key are noted; after it, an element whose key was elsewhere, or
// whose data-from names where it comes from (a space-separated list, the
// first key that was on screen wins), is drawn there by a transform that
// the Web Animations API takes to its own place.
//
// Only transforms move, so the layout never changes; only the new
// elements move, so nothing is shown that the new table does not show.
// A travel is short, and skippable: a click or the next render finishes
// every running one at once. prefers-reduced-motion: reduce turns it off.
//
// How long a travel takes is the player's pace (settings.js, issue 26).
import { pace } from './settings.js';

const MS = { slow: 600, normal: 300, fast: 120 };

// travelMs is how long a travel takes at the player's pace: what waits
// for a card to land (Papayoo's "takes the trick") waits that long. The
// stylesheets read it as --travel.
export function travelMs() { return MS[pace()]; }
// The z-index of a card in flight: above the table, below its panels.
const FLIGHT_Z = 9;
// The id of every travel: a test finds them among document.getAnimations().
export const ID = 'tapis-motion';

const reduced = matchMedia('(prefers-reduced-motion: reduce)');
let running = [];

// finish puts every card in flight at its place.
export function finish() {
  for (const a of running) a.finish();
  running = [];
}
// A press is a player who wants the table as it is now: every card is at
// its place before the release, which the screens act on (dom.js's tap),
// so that the release meets the layout that stays, not a card in flight.
// A keyboard's click has no press.
document.addEventListener('pointerdown', finish, true);
document.addEventListener('click', finish, true);
// A travel is a path between two places of one layout: a window resized
// or turned would leave the card flying across the old one, past the
// new window's edge.
window.addEventListener('resize', finish);

// before notes where the keyed elements of root are, once the travels
// still running are finished (a rectangle taken in flight is not a place).
export function before(root) {
  finish();
  const at = new Map();
  if (reduced.matches) return at;
  for (const el of root.querySelectorAll('[data-key]')) at.set(el.dataset.key, el.getBoundingClientRect());
  return at;
}

// after starts the travels of root's elements from the places before noted.
export function after(root, at) {
  document.documentElement.style.setProperty('--travel', travelMs() + 'ms');
  if (!at.size || reduced.matches) return;
  for (const el of root.querySelectorAll('[data-key], [data-from]')) {
    const from = (el.dataset.from || '').split(' ').map(k => at.get(k)).find(Boolean) || at.get(el.dataset.key);
    if (!from) continue;
    const to = el.getBoundingClientRect();
    // An element not laid out (hidden, or flipped edge-on by its own CSS
    // animation) has no place to travel to.
    if (!to.width || !to.height || !from.width || !from.height) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const sx = from.width / to.width, sy = from.height / to.height;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02 && Math.abs(sy - 1) < 0.02) continue;
    // The element's own transform (a fanned hand's tilt) is kept under
    // the travel's, and is where the travel ends.
    const own = getComputedStyle(el).transform;
    const base = own === 'none' ? '' : ' ' + own;
    // In flight a card passes over the table's other cards, but under
    // whatever covers the table (a panel, the chat, the header, the
    // guide: z-index 10 and up, style.css): issue 26.
    running.push(el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})${base}`, zIndex: FLIGHT_Z },
      { transform: base || 'none', zIndex: FLIGHT_Z },
    ], { duration: travelMs(), easing: 'cubic-bezier(.2, .7, .3, 1)', id: ID }));
  }
}
