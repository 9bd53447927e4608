// Keyboard play: the table is drawn anew on every message, which would
// throw the keyboard's focus back to the top of the page each time (a
// bot's move in the middle of choosing a card). focusKey notes what has
// the focus before a drawing, restoreFocus gives it back after.

// focusKey names the focused control inside root by its tag and the
// attributes that identify it (a card's seat and slot, a button's action),
// which a drawing keeps; null when the focus is elsewhere (the page's
// header, nowhere).
export function focusKey(root) {
  const el = document.activeElement;
  if (!el || el === document.body || !root.contains(el)) return null;
  let sel = el.tagName.toLowerCase();
  for (const a of IDENTITY) {
    const v = el.getAttribute(a);
    if (v !== null) sel += `[${a}="${CSS.escape(v)}"]`;
  }
  return sel;
}

// IDENTITY are the attributes that say which control an element is, as
// opposed to how it looks now (data-build, aria-pressed).
const IDENTITY = ['id', 'data-action', 'data-seat', 'data-slot', 'data-i', 'data-card', 'data-src', 'data-player',
  'data-color', 'data-pile', 'data-bpile', 'data-helper', 'data-index', 'data-slot-card', 'data-pass'];

// restoreFocus focuses again the control key names. When it is gone or
// disabled (the draw pile once a card is drawn), the focus goes to the
// first move the player may make now (#actions), or waits on the game
// itself, so that Tab goes on from the table, not from the page's top.
export function restoreFocus(root, key) {
  if (!key) return;
  let el = root.querySelector(key);
  const parked = el && el.id === 'game';
  if (!el || el.disabled || parked) {
    el = root.querySelector('#actions button:not(:disabled)') || root.querySelector('#game');
    if (el?.id === 'game') el.tabIndex = -1;
  }
  el?.focus({ preventScroll: true });
}
