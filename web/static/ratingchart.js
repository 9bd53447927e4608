// A player's rating history as an inline SVG line chart, drawn here (no
// library): the rating after each rated match, oldest first, against the
// number of rated games played (0: the start). Its viewBox is a phone's width, so that the labels stay
// readable at 360 px; wider screens cap it (ratings.css).
const NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = String(text);
  return e;
}

// niceStep is a round step (1, 2 or 5 times a power of ten) that cuts span
// into at most about n parts.
function niceStep(span, n) {
  const raw = Math.max(span / n, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

// ratingChart draws points ([{rating}], oldest first), numbered from
// first on the horizontal axis. label names the chart for a screen
// reader; xTitle names the horizontal axis.
export function ratingChart(points, { label, xTitle, first = 0 }) {
  const W = 360, H = 200, L = 44, R = 12, T = 12, B = 34;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'ratingchart', role: 'img', 'aria-label': label });
  const n = points.length;
  if (!n) return svg;
  const ys = points.map(p => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  const step = niceStep(hi - lo || 20, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) hi = lo + step;
  const x = i => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = v => T + ((hi - v) * (H - T - B)) / (hi - lo);
  // The grid and the rating labels.
  for (let v = lo; v <= hi + 1e-9; v += step) {
    svg.append(el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }),
      el('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'lab' }, v));
  }
  svg.append(el('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }),
    el('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }));
  // The matches' numbers: the first, the last and a few between.
  const xs = new Set([0, n - 1]);
  const xstep = niceStep(n - 1, 4);
  for (let i = xstep; i < n - 1; i += xstep) if (n - 1 - i > xstep / 2) xs.add(i);
  for (const i of xs) {
    svg.append(el('line', { x1: x(i), x2: x(i), y1: H - B, y2: H - B + 4, class: 'axis' }),
      el('text', { x: x(i), y: H - B + 16, 'text-anchor': 'middle', class: 'lab' }, i + first));
  }
  svg.append(el('text', { x: (L + W - R) / 2, y: H - 3, 'text-anchor': 'middle', class: 'lab title' }, xTitle));
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  svg.append(el('polyline', { points: line, class: 'line' }));
  // Dots while they can be told apart; the last one always, the rating now.
  points.forEach((p, i) => {
    if (n <= 40 || i === n - 1) svg.append(el('circle', { cx: x(i), cy: y(p.rating), r: i === n - 1 ? 4 : 2.5, class: i === n - 1 ? 'dot last' : 'dot' }));
  });
  return svg;
}
