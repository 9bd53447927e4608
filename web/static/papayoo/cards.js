// Papayoo's cards drawn and named: the suits, a card as SVG and in words,
// the order a hand is sorted in.
import { t } from '../i18n.js';

const SUITS = ['S', 'H', 'D', 'C', 'P'];
const COLORS = { S: '#1d1d1b', H: '#c62828', D: '#1e5aa8', C: '#2e7d32', P: '#6a1b9a' };

// Suit drawings in a 100×100 box, so that no font is needed.
const SHAPES = {
  H: '<path d="M50 90C20 66 4 50 4 31C4 15 16 5 30 5C40 5 47 11 50 19C53 11 60 5 70 5C84 5 96 15 96 31C96 50 80 66 50 90Z"/>',
  D: '<path d="M50 2L88 50L50 98L12 50Z"/>',
  S: '<path d="M50 4C36 24 4 40 4 61C4 75 15 84 28 84C37 84 44 80 47 74C46 84 42 91 33 97H67C58 91 54 84 53 74C56 80 63 84 72 84C85 84 96 75 96 61C96 40 64 24 50 4Z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><path d="M46 50C46 74 42 88 32 97H68C58 88 54 74 54 50Z"/>',
  P: '<path d="M50 3L62 36L97 37L69 58L79 92L50 72L21 92L31 58L3 37L38 36Z"/>',
};

export const suitOf = c => c[0];
export const rankOf = c => Number(c.slice(1));
const order = c => SUITS.indexOf(suitOf(c)) * 100 + rankOf(c);
export const byOrder = (a, b) => order(a) - order(b);

// suitIcon is a small inline SVG of a suit, for the page's text.
export function suitIcon(s, cls = 'suit-ico') {
  return `<svg viewBox="0 0 100 100" class="${cls}" aria-hidden="true" fill="${COLORS[s]}">${SHAPES[s]}</svg>`;
}

// paperSVG draws a Papayoo card face; papayoo marks the 7 worth 40.
export function paperSVG(c, papayoo) {
  const s = suitOf(c), r = rankOf(c), col = COLORS[s];
  const isP = s === 'P', pap = c === papayoo;
  const icon = (x, y, k) => `<g transform="translate(${x} ${y}) scale(${k})" fill="${col}">${SHAPES[s]}</g>`;
  const bg = isP ? '#f6efff' : '#fffdf7';
  let centre;
  if (isP) {
    centre = `<g opacity=".18">${icon(16, 38, 0.68)}</g><text class="ctr-num" x="50" y="89" font-size="${r >= 10 ? 38 : 44}" font-weight="800" text-anchor="middle" fill="${col}" font-family="system-ui, sans-serif">${r}</text>`;
  } else {
    centre = icon(28, 48, 0.44);
  }
  return `<svg viewBox="0 0 100 140" class="svgcard" role="img" aria-label="${cardText(c)}">
<rect x="2" y="2" width="96" height="136" rx="9" fill="${bg}" stroke="${pap ? '#d4a017' : '#999'}" stroke-width="${pap ? 6 : 2}"/>
<text x="8" y="29" font-size="${r >= 10 ? 23 : 27}" font-weight="800" fill="${col}" font-family="system-ui, sans-serif" letter-spacing="-1">${r}</text>
${icon(9, 35, 0.2)}
${centre}
<text x="92" y="131" font-size="19" font-weight="800" fill="${col}" text-anchor="end" font-family="system-ui, sans-serif">${r}</text>
${pap ? '<rect x="52" y="6" width="42" height="24" rx="12" fill="#d4a017"/><text x="73" y="24" font-size="17" font-weight="800" text-anchor="middle" fill="#fff" font-family="system-ui, sans-serif">40</text>' : ''}
</svg>`;
}

// cardText is a card in words, for the log and for screen readers.
export function cardText(c) {
  if (!c) return '?';
  const s = suitOf(c);
  return s === 'P' ? t('papayoo.card.payoo', { n: rankOf(c) }) : `${rankOf(c)}${{ S: '♠', H: '♥', D: '♦', C: '♣' }[s]}`;
}

export const suitName = s => t('papayoo.suit.' + s);

// vars sets CSS custom properties through the CSSOM: the page's
// Content-Security-Policy (style-src 'self') ignores style attributes.
export function vars(el, v) {
  for (const [k, x] of Object.entries(v)) el.style.setProperty('--' + k, String(x));
  return el;
}
