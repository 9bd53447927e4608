// A finished match's analysis in the replay viewer (history.js): the
// server's search judged each decision of each person from what their
// seat knew (GET /api/tables/{id}/matches/{no}/analysis), giving each move
// its cost in win chance against the best move found. This module fetches
// it (the server answers "pending" until it has computed it), marks the
// costly moves along the viewer's slider, says the cost of the move on
// show and the best move found, and sums up each player's accuracy.
import { h } from './dom.js';
import { t, tn } from './i18n.js';

// pct is a win chance or a cost (0 to 1) in points of 100.
const pct = v => Math.round(v * 100);

// loadAnalysis fetches the analysis of match no of table id, asking again
// while the server computes it (every Retry-After seconds, a few minutes
// at most), and calls done with the report, or with null if there is none
// (the server analyses no matches, or gave up). It returns a function that
// stops asking.
export function loadAnalysis(id, no, done) {
  let stopped = false;
  let timer;
  let tries = 0;
  const ask = async () => {
    if (stopped) return;
    try {
      const r = await fetch(`/api/tables/${id}/matches/${no}/analysis`);
      if (stopped) return;
      if (r.status === 202 && tries++ < 90) {
        done({ status: 'pending' });
        timer = setTimeout(ask, 1000 * (Number(r.headers.get('Retry-After')) || 2));
        return;
      }
      done(r.ok ? await r.json() : null);
    } catch { if (!stopped) done(null); }
  };
  ask();
  return () => { stopped = true; clearTimeout(timer); };
}

// byStep indexes a report's decisions by the position they reached.
export const byStep = rep => new Map((rep?.moves || []).map(d => [d.n, d]));

// markStrip is a row of marks under the slider, one at each costly move
// (an inaccuracy, a mistake, a blunder), placed where the move lies in the
// match; a mark steps the viewer there (go).
export function markStrip(rep, total, go, name) {
  const marked = (rep?.moves || []).filter(d => d.mark);
  return h('div.hist-marks', { id: 'hist-marks', role: 'group', 'aria-label': t('analysis.marks') },
    marked.map(d => {
      const b = h('button.hist-tick', {
        type: 'button', dataset: { mark: d.mark, n: String(d.n), seat: String(d.seat) },
        title: t('analysis.tick', { n: d.n, name: name(d.seat), mark: t('analysis.mark.' + d.mark) }),
        'aria-label': t('analysis.tick', { n: d.n, name: name(d.seat), mark: t('analysis.mark.' + d.mark) }),
        onclick: () => go(d.n),
      });
      b.style.left = `${total > 0 ? (100 * d.n) / total : 0}%`;
      return b;
    }));
}

// judgement says how the move on show was judged: its mark and cost, or
// that it was the best found, and the best move in words (bestWords).
export function judgement(d, bestWords) {
  if (!d) return null;
  const parts = [];
  if (d.cost <= 0.005) parts.push(h('strong', t('analysis.best')));
  else {
    parts.push(h('strong', d.mark ? t('analysis.mark.' + d.mark) : t('analysis.fine')));
    parts.push(' ', t('analysis.cost', { cost: pct(d.cost), value: pct(d.value), best: pct(d.best) }));
    if (bestWords) parts.push(' ', t('analysis.instead', { move: bestWords }));
  }
  return h('p.hist-judge', { id: 'hist-judge', dataset: { mark: d.mark || (d.cost <= 0.005 ? 'best' : 'fine') } }, parts);
}

// accuracy is a player's summary, in words, for the players' list; none
// for a seat the analysis did not judge (a bot).
export function accuracy(rep, seat) {
  const p = rep?.players?.find(x => x.seat === seat);
  if (!p || !p.decisions) return null;
  const counts = [
    p.blunders && tn('analysis.blunders', p.blunders),
    p.mistakes && tn('analysis.mistakes', p.mistakes),
    p.inaccuracies && tn('analysis.inaccuracies', p.inaccuracies),
  ].filter(Boolean);
  return h('span.hist-accuracy', { dataset: { seat: String(seat) } },
    ' · ', t('analysis.accuracy', { n: Math.round(p.accuracy) }), counts.length ? ` (${counts.join(', ')})` : '');
}

// note says where the analysis stands, under the players' list.
export function note(rep) {
  if (rep?.status === 'pending') return h('p.note.hist-analysis', { id: 'hist-analysis', dataset: { status: 'pending' } }, t('analysis.pending'));
  if (rep?.status !== 'ready') return null;
  return h('p.note.hist-analysis', { id: 'hist-analysis', dataset: { status: 'ready' } }, t('analysis.about'));
}
