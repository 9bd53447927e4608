// The generic screen, for any game without its own: the seat's view shown
// as readable nested lists, and every legal move as a button (the moves are
// REPLAY.md's JSON, straight from the server).
import { h } from './dom.js';
import { t } from './i18n.js';

function label(m) {
  const parts = [m.type];
  for (const [k, v] of Object.entries(m)) {
    if (k === 'type') continue;
    parts.push(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  }
  return parts.join(' · ');
}

function show(v, depth = 0) {
  if (v === null || v === undefined) return h('span.nil', '—');
  if (Array.isArray(v)) {
    if (v.every(x => x === null || typeof x !== 'object')) return h('span.list', v.length ? v.map(x => (x === null ? '—' : String(x))).join(' ') : '∅');
    return h('ol.tree', v.map(x => h('li', show(x, depth + 1))));
  }
  if (typeof v === 'object') {
    return h('dl.tree', Object.entries(v).map(([k, x]) => [h('dt', k.replaceAll('_', ' ')), h('dd', show(x, depth + 1))]));
  }
  return h('span.val', String(v));
}

export function genericUI(ctx) {
  function render(root) {
    const s = ctx.state;
    const mine = s.to_move.includes(ctx.seat) && s.status === 'playing';
    Object.assign(root.dataset, { myturn: mine && !ctx.pending ? '1' : '0', status: s.status });
    root.append(
      h('div.status', { id: 'status' },
        s.status === 'over' ? t('table.over')
          : mine ? t('table.turn.yours') : t('table.wait', { names: s.to_move.map(ctx.name).join(', ') })),
      h('p.note', t('generic.note')),
      h('div.generic',
        h('section.card-panel', h('h3', t('table.moves')),
          h('div.moves', { id: 'actions' }, s.legal.map(m => h('button', {
            type: 'button', 'data-action': 'move', disabled: ctx.pending || !mine, onclick: () => ctx.move(m),
          }, label(m))))),
        h('section.card-panel', h('h3', t('table.scores')),
          h('table.results', s.result.scores.map((x, i) => h('tr' + (s.result.winners.includes(i) ? '.win' : ''), h('td', ctx.name(i)), h('td', x))))),
        h('section.card-panel.viewbox', h('h3', t('table.view')), show(s.view))));
  }
  function logLine(e) {
    const { type, ...rest } = e;
    return `${type}: ${Object.entries(rest).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')}`;
  }
  return { render, logLine };
}
