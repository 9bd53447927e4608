// Da Capo!'s cards drawn: a value on its colour, the Joker.
export const JOKER = 'J';

// Each value has its colour, so that a run 1..10 reads at a glance.
const colors = ['', '#c62828', '#e65100', '#c58a00', '#558b2f', '#2e7d32', '#00838f', '#1565c0', '#303f9f', '#6a1b9a', '#ad1457'];

export function cardSVG(v) {
  if (v === JOKER) {
    return `<svg viewBox="0 0 100 140" class="svgcard" aria-label="Joker">
<defs><linearGradient id="dcj" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#c62828"/><stop offset=".25" stop-color="#f9a825"/><stop offset=".5" stop-color="#2e7d32"/>
<stop offset=".75" stop-color="#1565c0"/><stop offset="1" stop-color="#6a1b9a"/></linearGradient></defs>
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fffdf7" stroke="#888" stroke-width="2"/>
<rect x="10" y="24" width="80" height="92" rx="8" fill="url(#dcj)"/>
<path d="M50 40 L57 60 L78 60 L61 72 L67 93 L50 80 L33 93 L39 72 L22 60 L43 60Z" fill="#fffdf7" stroke="#212121" stroke-width="1.5"/>
<text x="13" y="20" font-size="17" font-weight="800" fill="#212121">J</text>
<text x="87" y="133" font-size="17" font-weight="800" fill="#212121" text-anchor="end">J</text>
</svg>`;
  }
  const c = colors[v] || '#333';
  return `<svg viewBox="0 0 100 140" class="svgcard" aria-label="${v}">
<rect x="2" y="2" width="96" height="136" rx="10" fill="#fffdf7" stroke="#888" stroke-width="2"/>
<rect x="10" y="24" width="80" height="92" rx="8" fill="${c}"/>
<circle cx="50" cy="70" r="31" fill="#fffdf7" opacity=".16"/>
<text x="50" y="89" font-size="${v === 10 ? 46 : 54}" font-weight="800" text-anchor="middle" fill="#fffdf7">${v}</text>
<text x="13" y="20" font-size="17" font-weight="800" fill="${c}">${v}</text>
<text x="87" y="133" font-size="17" font-weight="800" fill="${c}" text-anchor="end">${v}</text>
</svg>`;
}
