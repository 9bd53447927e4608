// What the game screens share: the seats around the table, the panel shown
// at a round's or the game's end, a refusal put into words, a screen's own
// stylesheet. ctx is the table a screen is given (see app.js).
import { h, tap } from './dom.js';
import { t, tn } from './i18n.js';
import { ratingLines } from './ratings.js';

// around lists the seats other than seat as they sit after it around a
// table of n; a spectator (seat -1) gets every seat, from 0.
export function around(seat, n) {
  const out = [];
  for (let i = 1; i <= n; i++) {
    const s = (seat + i + n) % n;
    if (s !== seat) out.push(s);
  }
  return out;
}

// endPanel is the panel over the table at a round's end (kind 'round', or
// the game's own kinds) and at the game's ('over'): the content, then its
// buttons. A round's end has Continue. The game's end has Play again for a
// seated player and Replay this match, first, then Continue (issue 26:
// what a player does next is on the panel, in the window, not under the
// table once the panel is gone; the row stays at the panel's foot, see
// layout.css). At a rated table the game's end lists the rating changes
// (ratings.js). dismiss forgets the panel, before the table is drawn
// again or the next game asked for. cls adds classes to the panel ('.x.y').
export function endPanel(ctx, kind, cls, dismiss, ...content) {
  const over = kind === 'over';
  const close = h('button' + (over ? '' : '.primary'), { type: 'button', 'data-action': 'close-overlay', ...tap(() => { dismiss(); ctx.render(); }) }, t('table.close'));
  const again = over && ctx.seat >= 0
    ? h('button.primary', { type: 'button', 'data-action': 'again', ...tap(() => { dismiss(); ctx.again(); }) }, t('table.again')) : null;
  // The history's viewer draws positions with no table behind them.
  const match = ctx.info?.id && ctx.state?.match;
  const replay = over && match
    ? h('a.button', { href: `/m/${ctx.info.id}/${match}`, 'data-action': 'replay' }, t('history.replay')) : null;
  return h('div.overlay', { id: 'overlay', 'data-kind': kind },
    h('div.card-panel' + cls, content, over ? ratingLines(ctx) : null, h('div.row.endactions', again, replay, close)));
}

// winnersLine names the winners of a game, for an end panel.
export function winnersLine(ctx, winners) {
  return h('p.winners', tn('table.winners', winners.length, { names: winners.map(ctx.name).join(', ') }));
}

// stylesheet loads a screen's own CSS file (in static/) once.
export function stylesheet(file) {
  if (document.querySelector(`link[data-css="${file}"]`)) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/static/' + file, 'data-css': file }));
}

// screenOf is a game screen as the table page uses it (app.js), from its
// parts, each given the screen's state S first: the state is the screen's
// own, its parts are functions of it (see cabo/, papayoo/, limits/, dacapo/).
export function screenOf(S, { render, onEvent, onState, logLine, explain }) {
  return {
    render: root => render(S, root),
    onEvent: e => onEvent(S, e),
    onState: (m, prev) => onState(S, m, prev),
    logLine: e => logLine(S, e),
    explain: m => explain(S, m),
  };
}
