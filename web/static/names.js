// Long player names are cut with an ellipsis by the stylesheets, so that a
// table fits a phone. The full name stays one gesture away: it is each cut
// name's title (a mouse's hover), and a tap on a cut name shows it in a
// toast, since a phone has no hover.
import { toast } from './dom.js';

const NAMES = 'ul.seats .nm, .pname > span:first-child, .oname .nm, .mystats .nm, .lim-name, .dc-name, .played .who, table.pscores td:first-child';

const cut = el => el.scrollWidth > el.clientWidth + 1;

// fullNames gives every name under root its full text as a title: set at
// each drawing, whether cut or not, as a resize may cut it later.
export function fullNames(root) {
  for (const el of root.querySelectorAll(NAMES)) if (!el.title) el.title = el.textContent.trim();
}

document.addEventListener('click', e => {
  const el = e.target.closest?.(NAMES);
  if (el && cut(el)) toast(el.title || el.textContent, 'info');
});
