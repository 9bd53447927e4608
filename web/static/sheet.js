// The score sheet: every completed round's points per player, with the
// totals, from the state's "rounds" (whole even for a page that arrived
// mid-match); at the match's end, the final ranking. It opens on demand
// from the table's header, and joins the game's own panel at each round's
// end and at the match's.
import { h, tap } from './dom.js';
import { t, has } from './i18n.js';
import { stylesheet } from './screen.js';
import { lowWins as registeredLowWins, roundKey } from './registry.js';

// scoreSheet serves one table page. ctx is the page's table (app.js);
// game() names the table's game.
export function scoreSheet(ctx, game) {
  stylesheet('turn.css');
  let open = false, focusClose = false;

  const state = () => ctx.state;
  const roundName = i => t(roundKey(game()), { n: i + 1 });
  // "Round by round", or "Game by game" where a match is made of games.
  const byRound = () => (roundKey(game()) === 'sheet.game' ? 'sheet.games' : 'sheet.rounds');

  // lowWins says which way the ranking goes: the game's registration
  // says, or else its winners once it is over.
  const lowWins = res => {
    const low = registeredLowWins(game());
    if (low !== undefined) return low;
    const w = res.winners || [];
    return w.length > 0 && res.scores[w[0]] === Math.min(...res.scores) && res.scores[w[0]] !== Math.max(...res.scores);
  };

  function table() {
    const st = state();
    const res = st.result;
    const rounds = st.rounds || [];
    const n = res.scores.length;
    const seats = Array.from({ length: n }, (_, s) => s);
    const win = st.status === 'over' ? new Set(res.winners || []) : new Set();
    // Classes of their own: the games' stylesheets style .me and .win.
    const col = s => (s === ctx.seat ? '.sheet-me' : '') + (win.has(s) ? '.sheet-win' : '');
    // Issue 27 (the coach): the hints counted before a round has ended.
    const hints = ctx.info?.hints;
    if (!rounds.length && st.status !== 'over') {
      return [h('p.sheet-none', t('sheet.none')), hints ? h('p.sheet-hints', t('coach.used'), ':',
        seats.map(s => h('span.sheet-hint', s ? ' · ' : ' ', ctx.name(s), ' ', h('b', { 'data-hints': s }, String(hints[s] || 0))))) : null];
    }
    const sums = seats.map(s => rounds.reduce((a, r) => a + (r[s] || 0), 0));
    const adjusted = seats.some(s => sums[s] !== res.scores[s]);
    return [
      h('div.sheet-scroll', h('table.sheet-table', { 'data-rounds': rounds.length },
        h('thead', h('tr', h('th', { scope: 'col' }, h('span.sr', t('sheet.col.round'))),
          seats.map(s => h('th' + col(s), { scope: 'col', title: ctx.name(s) }, ctx.name(s))))),
        h('tbody', rounds.map((r, i) => h('tr', { 'data-round': i + 1 },
          h('th', { scope: 'row' }, roundName(i)),
          seats.map(s => h('td' + col(s), String(r[s] ?? '')))))),
        h('tfoot', h('tr.sheet-total', h('th', { scope: 'row' }, t('sheet.total')),
          seats.map(s => h('td' + col(s), { 'data-total': s }, String(res.scores[s])))),
        // Issue 27 (the coach): the hints each player asked for.
        ctx.info?.hints ? h('tr.sheet-hints', h('th', { scope: 'row' }, t('coach.used')),
          seats.map(s => h('td' + col(s), { 'data-hints': s }, String(ctx.info.hints[s] || 0)))) : null))),
      adjusted ? h('p.sheet-note', t('sheet.adjusted')) : null,
    ];
  }

  // ranking is the final order: winners first, then by score, ties
  // sharing a place.
  function ranking() {
    const res = state().result;
    const low = lowWins(res);
    const w = new Set(res.winners || []);
    const order = res.scores.map((sc, s) => ({ s, sc, w: w.has(s) }))
      .sort((a, b) => (b.w - a.w) || (low ? a.sc - b.sc : b.sc - a.sc) || a.s - b.s);
    let place = 0;
    return h('div.sheet-ranking', h('h3', { id: 'sheet-ranking' }, t('sheet.ranking')),
      h('ol.sheet-rank', order.map((x, i) => {
        const prev = order[i - 1];
        if (!prev || prev.w !== x.w || prev.sc !== x.sc) place = i + 1;
        return h('li' + (x.w ? '.sheet-win' : '') + (x.s === ctx.seat ? '.sheet-me' : ''), { 'data-seat': x.s },
          h('span.sheet-place', t('sheet.place', { n: place })), ' ', h('span.sheet-name', ctx.name(x.s)), ' ',
          h('span.sheet-score', points(game(), x.sc)), x.w ? h('span.sheet-badge', t('sheet.winner')) : null);
      })));
  }

  const newTable = () => h('a.button', { href: '/', 'data-action': 'new-table' }, t('sheet.newtable'));
  const over = () => state()?.status === 'over';

  function panel() {
    const close = () => { open = false; ctx.render(); };
    return h('div.overlay.sheet-overlay', {
      id: 'sheet', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'sheet-title',
      onkeydown: e => { if (e.key === 'Escape') close(); },
      onclick: e => { if (e.target === e.currentTarget) close(); },
    }, h('div.card-panel.sheet',
      h('h2', { id: 'sheet-title' }, t('sheet.title')),
      over() ? ranking() : null,
      over() ? h('h3', t(byRound())) : null,
      table(),
      h('div.row',
        h('button.primary', { type: 'button', 'data-action': 'close-sheet', ...tap(close) }, t('sheet.close')),
        over() && ctx.seat >= 0 ? h('button', { type: 'button', 'data-action': 'again', ...tap(() => { open = false; ctx.again(); }) }, t('table.again')) : null,
        over() ? newTable() : null)));
  }

  return {
    // button opens the sheet, in the table's header.
    button() {
      return h('button.sheet-open', {
        type: 'button', 'data-action': 'sheet', 'aria-haspopup': 'dialog',
        ...tap(() => { open = true; focusClose = true; ctx.render(); }),
      }, t('sheet.button'));
    },
    // after finishes a drawing of the table in main: the sheet joins a
    // round's or the match's panel of the game, and shows over the table
    // when asked for.
    after(main) {
      if (!state()) return;
      const gp = main.querySelector('#game #overlay .card-panel');
      if (gp && !gp.querySelector('.sheet')) {
        const row = [...gp.children].reverse().find(e => e.classList.contains('row'));
        // A match of one game or round has no table of them: the
        // game's own panel above has its points already.
        const one = over() && (state().rounds || []).length <= 1;
        const part = h('section.sheet.sheet-inline', over() ? ranking() : null, one ? null : [h('h3', t(over() ? byRound() : 'sheet.title')), table()]);
        gp.insertBefore(part, row || null);
        if (over() && row) row.append(newTable());
      }
      const again = main.querySelector('.again');
      if (again && over() && !again.querySelector('[data-action=new-table]')) again.append(' ', newTable());
      if (open) {
        const p = panel();
        main.append(p);
        if (focusClose) { focusClose = false; p.querySelector('[data-action=close-sheet]').focus(); }
      }
    },
    get open() { return open; },
  };
}

// points is a final total as the game calls it: "81 pts", or Limits'
// "score -2" (its points are one part of the score: docs/rules.md).
export function points(game, n) {
  return t(has(game + '.sheet.points') ? game + '.sheet.points' : 'sheet.points', { n });
}
