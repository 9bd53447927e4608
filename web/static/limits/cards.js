// Limits's cards drawn: a colour card, a limit card, a limit card's back.
export const COLOURS = ['red', 'blue', 'purple', 'yellow', 'green'];
const FILL = { red: '#d7332b', blue: '#1f64c8', purple: '#7c3aa6', yellow: '#f0b91e', green: '#2b9a4e' };
const DARK = { red: '#8f1d17', blue: '#123f80', purple: '#4d1f6b', yellow: '#8a6400', green: '#17602f' };

// A shape per colour, so that the cards read without colour vision too.
const SHAPE = {
  red: '<circle cx="0" cy="0" r="17"/>',
  blue: '<rect x="-15" y="-15" width="30" height="30" rx="2"/>',
  purple: '<path d="M0 -20 L18 0 L0 20 L-18 0Z"/>',
  yellow: '<path d="M0 -20 L5.9 -8.1 L19 -6.2 L9.5 3.1 L11.8 16.2 L0 10 L-11.8 16.2 L-9.5 3.1 L-19 -6.2 L-5.9 -8.1Z"/>',
  green: '<path d="M0 -18 L18 14 L-18 14Z"/>',
};
export const shape = (c, x, y, s, fill) => `<g transform="translate(${x} ${y}) scale(${s})" fill="${fill}">${SHAPE[c]}</g>`;

// colourSVG draws a colour card.
export function colourSVG(c) {
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="${FILL[c]}" stroke="${DARK[c]}" stroke-width="3"/>
<rect x="10" y="10" width="80" height="120" rx="7" fill="none" stroke="#fff" stroke-width="2" opacity=".55"/>
<ellipse cx="50" cy="70" rx="30" ry="40" fill="#fff" opacity=".22"/>
${shape(c, 50, 70, 1.25, '#fff')}
${shape(c, 21, 23, 0.42, '#fff')}${shape(c, 79, 117, 0.42, '#fff')}
</svg>`;
}

// limitSVG draws a limit card: each colour with its base limit, X for none.
export function limitSVG(base, no) {
  const rows = COLOURS.map((c, i) => {
    const y = 27 + i * 22;
    const v = base[i] === null || base[i] === undefined ? 'X' : String(base[i]);
    return `<rect x="10" y="${y - 9}" width="80" height="19" rx="5" fill="${FILL[c]}"/>
${shape(c, 22, y + 0.5, 0.36, '#fff')}
<text x="78" y="${y + 6}" font-size="17" font-weight="800" text-anchor="end" fill="#fff">${v}</text>`;
  }).join('');
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fbf5e4" stroke="#6b5a2e" stroke-width="2.5"/>
<text x="50" y="13" font-size="9" font-weight="700" text-anchor="middle" fill="#6b5a2e">#${no}</text>
${rows}</svg>`;
}

// limitBackSVG is the back of a limit card: −2.
export function limitBackSVG() {
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#3b2f5c" stroke="#241b3b" stroke-width="2.5"/>
<rect x="11" y="11" width="78" height="118" rx="7" fill="none" stroke="#f3c25b" stroke-width="2" opacity=".8"/>
<text x="50" y="84" font-size="40" font-weight="800" text-anchor="middle" fill="#f3c25b">−2</text>
</svg>`;
}
