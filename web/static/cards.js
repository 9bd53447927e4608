// SVG playing cards for Cabo: a face shows its value and, for 7–12, its
// power; a back is the same for every card.

const colors = ['#2e7d32', '#388e3c', '#43a047', '#558b2f', '#689f38', '#827717', '#9e9d24',
  '#1565c0', '#1565c0', '#6a1b9a', '#6a1b9a', '#c62828', '#c62828', '#212121'];
const powers = { 7: '👁', 8: '👁', 9: '🔍', 10: '🔍', 11: '⇄', 12: '⇄' };

export function faceSVG(v) {
  const c = colors[v] ?? '#333';
  const p = powers[v] ? `<text x="50" y="122" font-size="20" text-anchor="middle" fill="${c}">${powers[v]}</text>` : '';
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-label="${v}">
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
