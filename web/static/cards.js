// SVG playing cards for Cabo: a face shows its value and, for 7–12, its
// power; a back is the same for every card.

const colors = ['#2e7d32', '#388e3c', '#43a047', '#558b2f', '#689f38', '#827717', '#9e9d24',
  '#1565c0', '#1565c0', '#6a1b9a', '#6a1b9a', '#c62828', '#c62828', '#212121'];
// Small drawn icons for the powers (no emoji font is needed).
const eye = c => `<g transform="translate(50 116)" fill="none" stroke="${c}" stroke-width="3"><path d="M-14 0 Q0 -11 14 0 Q0 11 -14 0Z"/><circle r="4" fill="${c}"/></g>`;
const glass = c => `<g transform="translate(48 114)" fill="none" stroke="${c}" stroke-width="3"><circle r="7"/><path d="M5 5 L12 12" stroke-linecap="round"/></g>`;
const swap = c => `<g transform="translate(50 116)" fill="none" stroke="${c}" stroke-width="3" stroke-linecap="round"><path d="M-12 -4 H10 M5 -9 L10 -4 L5 1"/><path d="M12 5 H-10 M-5 0 L-10 5 L-5 10"/></g>`;
const powers = { 7: eye, 8: eye, 9: glass, 10: glass, 11: swap, 12: swap };

export function faceSVG(v) {
  const c = colors[v] ?? '#333';
  const p = powers[v] ? powers[v](c) : '';
  return `<svg viewBox="0 0 100 140" class="svgcard" role="img" aria-label="${v}">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fffdf7" stroke="#888" stroke-width="2"/>
<rect x="9" y="9" width="82" height="122" rx="6" fill="none" stroke="${c}" stroke-width="2" opacity=".5"/>
<text x="14" y="30" font-size="20" font-weight="700" fill="${c}">${v}</text>
<text x="86" y="126" font-size="20" font-weight="700" fill="${c}" text-anchor="end">${v}</text>
<text x="50" y="88" font-size="52" font-weight="800" text-anchor="middle" fill="${c}">${v}</text>${p}
</svg>`;
}

export function backSVG() {
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-hidden="true">
<defs><pattern id="bk" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="10" height="10" fill="#8e2430"/><rect width="5" height="10" fill="#a4303e"/></pattern></defs>
<rect x="2" y="2" width="96" height="136" rx="10" fill="url(#bk)" stroke="#5c1119" stroke-width="2"/>
<rect x="12" y="12" width="76" height="116" rx="6" fill="none" stroke="#f3d9a4" stroke-width="2"/>
<text x="50" y="78" font-size="22" font-weight="700" text-anchor="middle" fill="#f3d9a4" font-family="serif">T</text>
</svg>`;
}
