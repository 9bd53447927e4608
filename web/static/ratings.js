// Ratings as a player sees them (docs/API.md, "Ratings"): the create
// form's Rated box, the "rated" tag of a table, each player's rating
// change on a rated match's end panel, the leaderboards
// (/leaderboard/{game}) with the bots' levels as reference lines, a
// player's profile (/p/{id}) with their rating history, and "How ratings
// work" in the players' words.
import { h, clear } from './dom.js';
import { t, has, getLang } from './i18n.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { player, onPlayer, loadPlayer } from './player.js';
import { openAccount } from './account.js';
import { ratingChart } from './ratingchart.js';
import { gameNames, gameName } from './registry.js';
const botName = l => (has('bot.' + l) ? t('bot.' + l) : l);

// mayRate reports whether the player may sit at a rated table: signed in
// with a username (a guest has none).
export function mayRate(p = player()) { return !!(p && p.username && !p.guest); }

// ratedTag marks a rated table (the lobby's rows, the table's bar, the
// join form).
export function ratedTag() {
  return h('span.ratedtag', { title: t('rated.tag.title') }, t('rated.tag'));
}

// provisionalMark marks a provisional rating (σ still large).
function provisionalMark() {
  return h('span.provmark', { title: t('rated.provisional.title') }, t('rated.provisional'));
}

// Issue 27, ratings that make sense to people: a provisional rating is
// shown with its estimate, the number on the bots' scale (the API's
// "estimate"), and the bots are listed in level order on that scale.

// estimateMark is a provisional player's estimate beside their rating.
function estimateMark(n) {
  return h('span.estimate', { title: t('rated.estimate.title') }, t('rated.estimate', { n }));
}

// TOLD_APART is how far apart two levels' numbers must be for their
// measurement to tell them apart: an anchor's Sigma was about 2.7 when
// measured, some 65 points of the scale.
const TOLD_APART = 70;

// botScale lists a game's bot levels in level order, weakest first, with
// their numbers, where a new player starts, and, when two neighbouring
// levels' numbers are too close or out of order, that the measurements
// do not tell them apart yet.
function botScale(bots, start, id) {
  if (!bots?.length) return null;
  const close = bots.some((b, i) => i > 0 && b.rating - bots[i - 1].rating < TOLD_APART);
  return h('div.botscale', id ? { id } : {},
    h('ol.botlevels', bots.map(b => h('li', { dataset: { bot: b.level } }, t('board.bot', { level: botName(b.level), rating: b.rating })))),
    start ? h('p.note.newstart', t('scale.new', { rating: start.rating, estimate: start.estimate })) : null,
    close ? h('p.note.scaleclose', t('scale.close', { n: TOLD_APART })) : null);
}

// signed formats a rating change: +18, −7, ±0.
function signed(d) { return d > 0 ? '+' + d : d < 0 ? '−' + -d : '±0'; }

// boardIcon is the leaderboards' sign, a podium: drawn, since a phone
// or a server's browser may lack an emoji font.
export function boardIcon() {
  return h('span.boardicon', { 'aria-hidden': 'true', html: '<svg viewBox="0 0 18 16" width="18" height="16"><rect x="0" y="7" width="6" height="9" rx="1"/><rect x="6" y="2" width="6" height="14" rx="1"/><rect x="12" y="10" width="6" height="6" rx="1"/></svg>' });
}

// ------------------------------------------------------------ create form

// The Rated box of the create form on screen, redrawn when the player
// changes (claiming a username in the account panel enables it).
let field = null;
onPlayer(() => { if (field?.el.isConnected) drawField(); });

// ratedField is the create form's Rated box, bound to form.rated: offered
// to a player with a username, else disabled with the reason and a way to
// the account panel.
export function ratedField(form) {
  field = { el: h('div.ratedfield', { id: 'ratedfield' }), form };
  drawField();
  loadPlayer();
  return field.el;
}

function drawField() {
  const { el, form } = field;
  const ok = mayRate();
  if (!ok) form.rated = false;
  clear(el).append(h('label.opt', h('input', {
    type: 'checkbox', name: 'rated', checked: !!form.rated, disabled: !ok,
    onchange: e => { form.rated = e.target.checked; },
  }), ' ', t('rated.option')),
  ok ? h('p.ratednote', t('rated.option.about'), ' ', h('a', { href: '/leaderboard#how' }, t('how.short')))
    : h('p.ratednote', { id: 'rated-why' }, t('rated.option.need'), ' ',
      h('a', { href: '#', 'data-action': 'rated-account', onclick: e => { e.preventDefault(); openAccount(); } }, t('rated.option.claim'))));
}

// ------------------------------------------------------------ end panel

// ratingLines is the end panel's part at a rated table: each person's
// rating before and after the match, the change and whether it is still
// provisional (bots are fixed anchors, left out). null at a table that is
// not rated.
export function ratingLines(ctx) {
  const info = ctx.info;
  if (!info?.rated) return null;
  const box = h('div.ratingchanges', { id: 'rating-changes' }, h('h3', t('rated.end.title')));
  if (!info.ratings?.length) return box.append(h('p.note', t('rated.end.wait'))), box;
  box.append(h('ul', info.ratings.map((r, i) => {
    if (!r || info.seats[i]?.bot) return null;
    const d = r.after - r.before;
    return h('li' + (i === ctx.seat ? '.me' : ''), { dataset: { seat: i } },
      h('span.who', ctx.name(i)), ' ',
      h('span.change', `${r.before} → ${r.after}`), ' ',
      h('span.delta' + (d > 0 ? '.up' : d < 0 ? '.down' : ''), `(${signed(d)})`),
      r.provisional ? [' ', provisionalMark()] : null);
  })), h('p.note', h('a', { href: '/leaderboard/' + info.game }, t('board.see'))));
  return box;
}

// ------------------------------------------------------------ how ratings work

// howRatings explains ratings to players, in a few lines.
export function howRatings(open = false) {
  return h('details.howratings.card-panel', { id: 'how', open },
    h('summary', h('h2', t('how.title'))),
    ['how.number', 'how.provisional', 'how.scale', 'how.places', 'how.leavers', 'how.bots', 'how.who'].map(k => h('p', t(k))));
}

// ------------------------------------------------------------ leaderboard

// leaderboardPage draws /leaderboard/{game} in main: tabs per game, the
// ranked players (a page of 50), the bots' anchors between them as
// reference lines, the signed-in player's own line highlighted (or shown
// under the page when it is not on it), and how ratings work.
export function leaderboardPage(main, game) {
  const S = { game: gameNames().includes(game) ? game : 'cabo', offset: 0, data: null, err: null, closed: false };
  const load = async () => {
    const want = `${S.game}/${S.offset}`;
    S.data = null; S.err = null;
    render();
    try {
      const d = await api('GET', `/api/leaderboard?game=${encodeURIComponent(S.game)}&offset=${S.offset}`);
      if (S.closed || want !== `${S.game}/${S.offset}`) return;
      S.data = d;
    } catch (err) { S.err = err; }
    render();
  };
  const pick = g => {
    if (g === S.game) return;
    S.game = g; S.offset = 0;
    history.pushState(null, '', '/leaderboard/' + g);
    load();
  };
  const render = () => {
    if (S.closed) return;
    document.title = `${t('board.title', { game: gameName(S.game) })} · Tapis`;
    clear(main).append(h('section.board', { id: 'leaderboard', dataset: { game: S.game } },
      h('h1', t('board.heading')),
      h('nav.boardtabs', { 'aria-label': t('board.tabs') }, gameNames().map(g => h('a.chip', {
        href: '/leaderboard/' + g, dataset: { boardGame: g }, 'aria-current': g === S.game ? 'page' : null,
        onclick: e => { if (e.button === 0 && !e.ctrlKey && !e.metaKey) { e.preventDefault(); pick(g); } },
      }, gameName(g)))),
      boardPanel(),
      howRatings(location.hash === '#how')));
    if (location.hash === '#how' && !S.scrolled && S.data) { S.scrolled = true; document.getElementById('how')?.scrollIntoView(); }
  };
  const boardPanel = () => {
    const box = h('div.card-panel.boardpanel');
    if (S.err) return box.append(h('p', refusalText(S.err))), box;
    const d = S.data;
    if (!d) return box.append(h('p.note', t('home.loading'))), box;
    const me = player();
    box.append(h('p.note', t('board.min', { n: d.min_games })));
    box.append(h('details.scalebox', { open: true }, h('summary', t('scale.title')), botScale(d.bots, d.new_player, 'board-scale')));
    const bots = [...(d.bots || [])].sort((a, b) => b.rating - a.rating);
    const rows = [];
    let b = 0;
    const botRow = x => h('tr.botline', { dataset: { bot: x.level } }, h('td', { colspan: 5 },
      h('span', t('board.bot', { level: botName(x.level), rating: x.rating }))));
    // The bots' lines go between the players where their ratings fall;
    // above this page's first player only on the first page.
    const first = d.players[0];
    if (first && d.offset > 0) while (b < bots.length && bots[b].rating > first.rating) b++;
    for (const p of d.players) {
      while (b < bots.length && bots[b].rating > p.rating) rows.push(botRow(bots[b++]));
      rows.push(playerRow(p, me && p.id === me.id));
    }
    if (d.players.length < 50) while (b < bots.length) rows.push(botRow(bots[b++]));
    const onPage = me && d.players.some(p => p.id === me.id);
    if (d.you && !onPage) rows.push(h('tr.gap', h('td', { colspan: 5 }, t('board.you'))), playerRow(d.you, true));
    if (!d.players.length) box.append(h('p.empty', { id: 'board-empty' }, t('board.empty', { game: gameName(S.game), n: d.min_games })));
    box.append(h('div.boardwrap', h('table.boardtable',
      h('thead', h('tr', ['rank', 'name', 'rating', 'games', 'wins'].map(k => h('th.' + k, { scope: 'col' }, t('board.' + k))))),
      h('tbody', rows))));
    if (me && !d.you) box.append(h('p.note', { id: 'board-unranked' }, t('board.unranked', { n: d.min_games })));
    if (d.offset > 0 || d.players.length === 50) {
      box.append(h('div.row.boardpages',
        d.offset > 0 ? h('button', { type: 'button', onclick: () => { S.offset = Math.max(0, d.offset - 50); load(); } }, t('board.prev')) : null,
        d.players.length === 50 ? h('button', { type: 'button', onclick: () => { S.offset = d.offset + 50; load(); } }, t('board.next')) : null));
    }
    return box;
  };
  const playerRow = (p, mine) => h('tr.prow' + (mine ? '.me' : ''), { dataset: { player: p.id } },
    h('td.rank', p.rank),
    h('td.name', p.name ? h('a', { href: '/p/' + encodeURIComponent(p.id) }, p.name) : h('em', t('player.deleted'))),
    h('td.rating', h('strong', p.rating), p.provisional ? [' ', provisionalMark(), ' ', estimateMark(p.estimate)] : null),
    h('td.games', p.games),
    h('td.wins', p.wins));
  const stop = onPlayer(() => render());
  load();
  return { render, close: () => { S.closed = true; stop(); } };
}

// ------------------------------------------------------------ profile

// place is a rank (0 first) in words: 1st, 2nd… / 1er, 2e…
export function place(rank) {
  const n = rank + 1;
  return has('place.' + n) ? t('place.' + n) : t('place.n', { n });
}

// historyChart is a game's rating history as a chart, or null without
// one. It starts from 1500, every new player's rating, when the history
// goes back to the first game (it is cut at the last 1,000); the axis
// numbers the games played.
function historyChart(g) {
  if (!g.history?.length) return null;
  const whole = g.history.length >= g.games;
  const points = whole ? [{ rating: 1500 }, ...g.history] : g.history;
  return h('figure.pgchart', ratingChart(points, {
    first: whole ? 0 : g.games - g.history.length + 1,
    label: t('profile.chart', { game: gameName(g.game) }), xTitle: t('profile.xaxis'),
  }), h('figcaption', t('profile.history')));
}

// profilePage draws /p/{id} in main: the player's name and username, per
// game their rating, games, wins, the bot level they play like and their
// rating history as a chart, and their recent rated games, each linked to
// its match's page.
export function profilePage(main, id) {
  const S = { data: null, err: null, closed: false };
  const render = () => {
    if (S.closed) return;
    clear(main);
    const page = h('section.profile', { id: 'profile' });
    main.append(page);
    if (S.err) {
      const key = S.err.code === 'deleted_player' ? 'profile.deleted' : S.err.status === 404 ? 'profile.notfound' : null;
      page.append(h('div.card-panel', { id: 'profile-error' }, h('p', key ? t(key) : refusalText(S.err)), h('a', { href: '/leaderboard' }, t('board.heading'))));
      return;
    }
    const d = S.data;
    if (!d) { page.append(h('p', t('home.loading'))); return; }
    document.title = `${d.name} · Tapis`;
    const dateFmt = new Intl.DateTimeFormat(getLang(), { day: 'numeric', month: 'short', year: 'numeric' });
    page.append(h('div.proftop', h('h1', d.name || t('player.deleted')), d.username ? h('span.handle', '@' + d.username) : null,
      player()?.id === d.id ? h('span.badge', t('profile.you')) : null));
    if (!d.games.length) page.append(h('div.card-panel', h('p', { id: 'profile-none' }, t('profile.none'))));
    page.append(h('div.profgames', d.games.map(g => h('article.card-panel.profgame', { dataset: { game: g.game } },
      h('div.pghead', h('h2', h('a', { href: '/leaderboard/' + g.game }, gameName(g.game))),
        h('div.pgrating', h('strong', { title: t('board.rating') }, g.rating), g.provisional ? [provisionalMark(), estimateMark(g.estimate)] : null)),
      h('p.pgstats', t('profile.stats', { games: g.games, wins: g.wins }),
        g.plays_like ? [' · ', h('span.playslike', t('profile.playslike', { level: botName(g.plays_like) }))] : null),
      historyChart(g),
      g.bots?.length ? h('div.pgbots', h('span.label', t('scale.title')), botScale(g.bots)) : null))));
    page.append(h('div.card-panel.recent', { id: 'recent' }, h('h2', t('profile.recent')),
      d.recent.length ? h('ul.recentlist', d.recent.map(r => {
        const delta = r.rating_after - r.rating_before;
        return h('li', { dataset: { table: r.table, match: r.match } },
          h('span.rdate', dateFmt.format(new Date(r.at))), ' ',
          h('strong', gameName(r.game)), ' ',
          h('span.rplace', t('profile.place', { place: place(r.rank), n: r.players })), ' ',
          h('span.rchange', `${r.rating_before} → ${r.rating_after}`), ' ',
          h('span.delta' + (delta > 0 ? '.up' : delta < 0 ? '.down' : ''), `(${signed(delta)})`), ' ',
          h('a.rlink', { href: `/m/${r.table}/${r.match}` }, t('profile.replay')));
      })) : h('p.note', t('profile.none'))));
    page.append(howRatings(false));
    // "My games" (the header's menu) opens the profile at its games:
    // drawn after the answer, they are scrolled to once it came.
    if (location.hash === '#recent') document.getElementById('recent')?.scrollIntoView();
  };
  (async () => {
    try { S.data = await api('GET', '/api/players/' + encodeURIComponent(id)); } catch (err) { S.err = err; }
    render();
  })();
  render();
  return { render, close: () => { S.closed = true; } };
}
