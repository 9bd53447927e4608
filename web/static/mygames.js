// "My games" (issue 26): the signed-in player's finished matches, rated
// or not, public or not, newest first (GET /api/me/matches, docs/API.md's
// "Finished matches"), each a link to its replay (/m/{table}/{match});
// "More" asks for the next page. The header's account menu leads here.
import { h, clear } from './dom.js';
import { t, has, getLang } from './i18n.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { player, loadPlayer, onPlayer } from './player.js';
import { openAccount } from './account.js';
import { stylesheet } from './screen.js';
import { gameName } from './registry.js';
import { ratedTag, place } from './ratings.js';

const PAGE = 20;

// seatText is a seat as a line lists it: a bot by its number and level,
// the player's own as "you".
function seatText(s, i, mine) {
  if (mine) return t('mg.you');
  if (s.bot) return t('seat.bot', { n: i + 1, kind: has('bot.' + s.bot) ? t('bot.' + s.bot) : s.bot });
  return s.name || t('mg.deleted');
}

// line is one match of the list, a link to its replay.
function line(m, dateFmt) {
  const others = m.seats.map((s, i) => h('span.mg-seat' + (i === m.seat ? '.mine' : '') + (s.place === 1 ? '.won' : ''),
    h('span.mg-who', seatText(s, i, i === m.seat)), ' ', h('span.mg-pts', t('mg.points', { n: s.score }))));
  return h('li.card-panel.mg-match', { dataset: { table: m.table, match: m.match, game: m.game } },
    h('a.mg-link', { href: `/m/${m.table}/${m.match}`, 'aria-label': t('mg.open', { game: gameName(m.game), date: dateFmt.format(new Date(m.date)) }) },
      h('div.mg-head',
        h('strong.mg-game', gameName(m.game)),
        h('span.mg-date', dateFmt.format(new Date(m.date))),
        m.rated ? ratedTag() : h('span.mg-unrated', t('mg.unrated')),
        m.public ? null : h('span.mg-private', t('mg.private'))),
      h('div.mg-result' + (m.place === 1 ? '.won' : ''),
        h('span.mg-place', t('mg.place', { place: place(m.place - 1), n: m.seats.length })),
        h('span.mg-sep', { 'aria-hidden': 'true' }, '·'),
        h('span.mg-score', t('mg.score', { n: m.score })),
        h('span.mg-replay', t('mg.replay'))),
      h('div.mg-seats', others)));
}

// myGamesPage draws /games into main and returns the page's {render, close}.
export function myGamesPage(main) {
  stylesheet('mygames.css');
  // who is the player whose games are shown (undefined before the first
  // answer); gen counts the lists begun, so that an answer for an earlier
  // player is dropped.
  const S = { who: undefined, gen: 0, matches: [], next: '', loaded: false, loading: false, err: null, signedOut: false, closed: false };
  const more = async () => {
    if (S.loading) return;
    const gen = S.gen;
    S.loading = true;
    render();
    let r = null, err = null;
    try {
      r = await api('GET', `/api/me/matches?limit=${PAGE}` + (S.next ? '&before=' + encodeURIComponent(S.next) : ''));
    } catch (e) { err = e; }
    if (gen !== S.gen) return;
    if (r) Object.assign(S, { matches: [...S.matches, ...r.matches], next: r.next, err: null });
    else if (err.status === 401) S.signedOut = true;
    else S.err = refusalText(err);
    S.loading = false;
    S.loaded = true;
    render();
  };
  const start = async () => {
    await loadPlayer();
    const who = player()?.id || '';
    if (who === S.who) return;
    Object.assign(S, { who, gen: S.gen + 1, matches: [], next: '', loaded: !who, loading: false, err: null, signedOut: !who });
    if (who) await more();
    else render();
  };
  const render = () => {
    if (S.closed) return;
    const dateFmt = new Intl.DateTimeFormat(getLang(), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
    clear(main);
    const page = h('section.mygames', { id: 'mygames' }, h('h1', t('mg.title')));
    main.append(page);
    if (S.signedOut) {
      page.append(h('div.card-panel.mg-empty', { id: 'mygames-signin' }, h('p', t('mg.signin')),
        h('button.primary', { type: 'button', 'data-action': 'account', onclick: openAccount }, t('mg.signin.button'))));
      return;
    }
    if (!S.loaded) { page.append(h('p', t('home.loading'))); return; }
    if (!S.matches.length && !S.err) {
      page.append(h('div.card-panel.mg-empty', { id: 'mygames-none' }, h('p', t('mg.none')),
        h('a.button.primary', { href: '/' }, t('mg.play'))));
      return;
    }
    page.append(h('p.mg-intro', t('mg.intro')));
    page.append(h('ol.mg-list', { id: 'mygames-list' }, S.matches.map(m => line(m, dateFmt))));
    if (S.err) page.append(h('p.mg-err', { role: 'alert' }, S.err));
    if (S.next) {
      page.append(h('div.row.mg-more', h('button', { type: 'button', 'data-action': 'mygames-more', disabled: S.loading, onclick: more },
        S.loading ? t('home.loading') : t('mg.more'))));
    }
  };
  // Signing in or out on this page shows that player's games.
  const off = onPlayer(() => { if (!S.closed) start(); });
  render();
  start();
  return { render, close: () => { S.closed = true; off?.(); } };
}
