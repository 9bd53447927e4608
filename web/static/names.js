// Long player names are cut with an ellipsis by the stylesheets, so that a
// table fits a phone. The full name stays one gesture away: it is each cut
// name's title (a mouse's hover), and a tap on a cut name shows it in a
// toast, since a phone has no hover.
import { toast } from './dom.js';
import { t } from './i18n.js';

const NAMES = 'ul.seats .nm, .pname > span:first-child, .oname .nm, .mystats .nm, .lim-name, .dc-name, .played .who, table.pscores td:first-child';

const cut = el => el.scrollWidth > el.clientWidth + 1;

// botName splits a bot's name as seatName words it ("Bot 2 (normal)",
// "Robot 2 (normal)", with " (you)" never: a bot is nobody's seat) into
// its two halves, or returns null for another name.
function botName(text) {
  const [before, after] = t('seat.bot', { n: '\u0001', kind: '\u0002' }).split('\u0001');
  const [mid, end] = after.split('\u0002');
  const esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`^${esc(before)}(\\d+)${esc(mid)}(.+)${esc(end)}$`).exec(text);
  return m ? [before + m[1], m[2]] : null;
}

// fullNames gives every name under root its full text as a title: set at
// each drawing, whether cut or not, as a resize may cut it later. A bot's
// name on a phone that is cut, or in a seat chip, is written on two
// lines instead, "Bot 2" over "normal" (issue 26: "Bot 2 (n…" said nothing of the level), its whole
// name kept in its title and for screen readers.
export function fullNames(root) {
  // Drawn for another width (a phone turned, a window resized), the
  // two lines are one again, and measured anew.
  for (const el of root.querySelectorAll('.two')) {
    el.classList.remove('two');
    el.removeAttribute('aria-label');
    el.textContent = el.dataset.whole;
  }
  const phone = window.innerWidth <= 600;
  for (const el of root.querySelectorAll(NAMES)) {
    const whole = el.title || el.textContent.trim();
    if (!el.title) el.title = whole;
    // A phone's seat chips are kept narrow, so that few lines hold them.
    // Under a played card (Papayoo), a cut bot's name is short on any
    // screen (papayoo.css shows its first line only).
    const under = el.matches('.played .who');
    if (!(phone && (el.closest('.tablebar ul.seats') || cut(el))) && !(under && cut(el))) continue;
    const parts = botName(whole);
    if (!parts) continue;
    el.classList.add('two');
    el.dataset.whole = el.textContent;
    el.setAttribute('aria-label', whole);
    el.replaceChildren(...parts.map((p, i) => Object.assign(document.createElement('span'), { className: i ? 'l2' : 'l1', textContent: p })));
  }
  // The width the names were last measured at: a test that resizes the
  // window waits for the frame that measures them anew.
  document.documentElement.dataset.namesWidth = window.innerWidth;
}

document.addEventListener('click', e => {
  const el = e.target.closest?.(NAMES);
  if (el && cut(el)) toast(el.title || el.textContent, 'info');
});

// A page turned or resized may cut names it did not cut when drawn.
// The names are measured once the page is laid out at its new size.
let pending = false;
window.addEventListener('resize', () => {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    const main = document.getElementById('main');
    if (main) fullNames(main);
  });
});
