// Tapis's browser client: the lobby (create a table) and the table page
// (join, then play over a WebSocket). Game screens live in their own
// modules; a game without one gets the generic screen.
import { h, clear, toast, tap } from './dom.js';
import { t, tn, ty, setLang, getLang, otherLang, has } from './i18n.js';
import { loadGames, setGames, gameName, screenFor } from './registry.js';
import { helpPage, helpButton, refreshHelp, closeHelp, hintLine } from './help.js';
import { turnAlert, ring, seatBars } from './notify.js';
import { scoreSheet } from './sheet.js';
import { focusKey, restoreFocus } from './a11y.js';
import { optionLabel, joinSummary } from './tableinfo.js';
import { fullNames } from './names.js';
import * as motion from './motion.js';
import { guide } from './guide.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { accountChip, closeAccount } from './account.js';
import { homeParts } from './home.js';
import { ensurePlayer, player } from './player.js';
import { chatPanel } from './chat.js';
import { historyPage } from './history.js';
import { ratedField, ratedTag, leaderboardPage, profilePage, boardIcon } from './ratings.js';
import { leaveControl, closeLeave, gonePanel, closedPanel } from './leave.js';
// Issue 26, actions (settings.js): the settings' gear, the pace told to
// the table, the spectators' eye, a timeout's toast.
import { settingsButton, closeSettings, onChange as onSettings, pace, noteFinished } from './settings.js';
// Tutorials (issue 26): the step panel, the links, the opener.
import { tutorialPanel, tutorialLinks, loadTutorials, setOpener, pickGame, gameOffer } from './tutorial.js';
// Issue 29, friends and notifications: the pages, the header's links, the
// table's "Invite a friend".
import { friendsPage, inviteFriend } from './friends.js';
import { inboxPage, headerLinks } from './inbox.js';
import { notifySettingsPage } from './notifysettings.js';
// Issue 26: "My games", the player's finished matches.
import { myGamesPage } from './mygames.js';
import { coachField, coachPanel } from './coach.js'; // issue 27: the coach

// Seat tokens, by table id, kept by the browser so that a refresh or a
// lost connection brings the player back to the same seat.
const tokens = {
  get(id) { try { return JSON.parse(localStorage.getItem('tapis.seat.' + id)); } catch { return null; } },
  set(id, v) { localStorage.setItem('tapis.seat.' + id, JSON.stringify(v)); },
};

let current = null; // what is on screen: {render()} for a language switch
let helpGame = null; // the game of the table on screen: the header's "?" opens its rules

function header() {
  const top = clear(document.getElementById('top'));
  top.append(
    // The smallest phones show the club alone (layout.css), for the
    // player's name beside it to be read whole.
    h('a.logo', { href: '/', 'aria-label': t('app.title'), title: t('app.title') }, '♣', h('span.logo-text', ' ', t('app.title'))),
    h('div.row.topright', h('a.toplink', { href: '/leaderboard', id: 'toplink-board', title: t('board.heading') }, boardIcon(), h('span.tl-text', t('board.link'))),
      helpGame ? helpButton(helpGame) : null, headerLinks() /* issue 29 */, accountChip(), h('button.lang', {
      id: 'lang', 'data-action': 'lang',
      onclick: () => { setLang(otherLang()); document.documentElement.lang = getLang(); header(); current?.render(); refreshHelp(); },
      // A phone shows the language's code (issue 26, layouts: the
      // header's name had no room left); its title and label say it whole.
      title: t('lang.switch'), 'aria-label': t('lang.switch'),
    }, h('span.lang-long', t('lang.switch')), h('span.lang-short', { 'aria-hidden': 'true' }, t('lang.short')))),
  );
}

// ---------------------------------------------------------------- lobby

async function home() {
  const main = clear(document.getElementById('main'));
  main.append(h('p', t('home.loading')));
  let list;
  try { list = await api('GET', '/api/games'); } catch { main.textContent = t('err.network'); return; }
  setGames(list);
  // Tables are public by default, as on most sites: a game among friends
  // only is the choice to make.
  const form = { game: list.find(g => g.name === 'cabo')?.name || list[0].name, players: 0, seats: [], options: {}, turn: 0, memory: false, public: true, rated: false,
    days: false, dayTurn: DAY_TURNS[3] }; // turn-based tables (issue 29)
  const parts = homeParts({ games: list, open: (url, seat) => openTable(url, seat), turnLabel });
  const render = () => {
    parts.render();
    const g = list.find(x => x.name === form.game);
    if (form.players < g.min || form.players > g.max) form.players = Math.min(Math.max(2, g.min), g.max);
    // A new table faces bots that play well at every seat but the
    // creator's, so that it starts at once; any seat may be changed to a
    // guest.
    const dflt = g.bots.includes('normal') ? 'normal' : 'random';
    while (form.seats.length < g.max) form.seats.push(form.seats.length === 0 ? '' : dflt);
    form.seats = form.seats.map(s => (s && !g.bots.includes(s) ? dflt : s));
    clear(main);
    const seatChoice = i => {
      if (i === 0) return h('span.you', t('home.seat.you'));
      const sel = h('select', { name: 'seat' + i, 'data-seat': i, onchange: e => { form.seats[i] = e.target.value; } },
        h('option', { value: '' }, t('home.seat.guest')),
        g.bots.map(b => h('option', { value: b }, t('home.seat.bot.' + b))));
      sel.value = form.seats[i];
      return sel;
    };
    const optInput = o => {
      const key = `opt.${g.name}.${o.name}`;
      const label = optionLabel(g.name, o.name);
      const cur = o.name in form.options ? form.options[o.name] : o.default;
      if (o.kind === 'bool') {
        return h('label.opt', h('input', { type: 'checkbox', name: o.name, checked: !!cur, onchange: e => { form.options[o.name] = e.target.checked; } }), ' ', label);
      }
      const placeholder = cur == null ? (has(key + '.none') ? t(key + '.none') : t('home.option.unlimited')) : '';
      return h('label.opt', label, ' ',
        h('input', {
          type: 'number', name: o.name, min: o.min, max: o.max, value: cur ?? '', placeholder,
          onchange: e => {
            const v = e.target.value.trim();
            if (v === '') delete form.options[o.name]; else form.options[o.name] = Number(v);
          },
        }));
    };
    main.append(h('section.home',
      // The leaderboards are the header's (#toplink-board), at every size.
      h('div.hometop', h('div', h('h1', t('app.title')), h('p.tagline', t('app.tagline'))), parts.who),
      parts.mine,
      h('div.homegrid', h('div.homeplay', parts.quick, parts.lobby),
      h('form.card-panel', { id: 'create', onsubmit: e => { e.preventDefault(); create(); } },
        h('h2', t('home.create')),
        h('label', t('home.game'), ' ',
          (() => {
            const s = h('select', {
              name: 'game',
              onchange: e => {
                form.game = e.target.value; form.options = {};
                if (e.isTrusted) pickGame(form.game, 'create', render); // tutorial: offered to a player new to it
                render();
              },
            },
              list.map(x => h('option', { value: x.name }, gameName(x.name))));
            s.value = form.game; return s;
          })()),
        h('p.about', has(`game.${g.name}.about`) ? t(`game.${g.name}.about`) : ''),
        gameOffer('create'), // tutorial
        h('label', t('home.players'), ' ', (() => {
          const s = h('select', { name: 'players', onchange: e => { form.players = Number(e.target.value); render(); } },
            Array.from({ length: g.max - g.min + 1 }, (_, i) => h('option', { value: g.min + i }, g.min + i)));
          s.value = form.players; return s;
        })()),
        h('fieldset', h('legend', t('home.seats')),
          Array.from({ length: form.players }, (_, i) => h('div.seatrow', h('span', t('home.seat', { n: i + 1 })), ' ', seatChoice(i)))),
        g.options.length ? h('fieldset', h('legend', t('home.options')), g.options.map(optInput)) : null,
        paceField(form, render), // turn-based tables (issue 29)
        form.days ? null : h('label', t('home.turn'), ' ', (() => {
          const s = h('select', { name: 'turn_seconds', onchange: e => { form.turn = Number(e.target.value); } },
            TURNS.map(n => h('option', { value: n }, turnLabel(n))));
          s.value = form.turn; return s;
        })()),
        // A table option, not a game's: off, memory is part of the game.
        g.memory_aid ? h('label.opt', h('input', { type: 'checkbox', name: 'memory_aid', checked: form.memory, onchange: e => { form.memory = e.target.checked; } }), ' ', t('memory.option')) : null,
        ratedField(form),
        coachField(form), // issue 27: the coach
        h('fieldset.visibility', h('legend', t('vis.legend')),
          [['public', true], ['private', false]].map(([k, v]) => h('label.opt', h('input', {
            type: 'radio', name: 'visibility', value: k, checked: form.public === v, onchange: () => { form.public = v; },
          }), ' ', t('vis.' + k)))),
        h('button.primary', { type: 'submit', 'data-action': 'create' }, t('home.submit')),
      ),
      h('nav.helplinks', { id: 'helplinks', 'aria-labelledby': 'helplinks-title' }, h('h2', { id: 'helplinks-title' }, t('help.rules')),
        h('ul', list.map(({ name: x }) => h('li', h('a', { href: '/help/' + x, 'data-help': x }, gameName(x)), ' ', tutorialLinks(x))))))));
  };
  const create = async () => {
    const name = parts.name();
    try { await parts.needPlayer(); } catch (err) { if (err.message !== 'no name') toast(refusalText(err)); return; }
    const bots = form.seats.slice(0, form.players).map((s, i) => (i === 0 ? '' : s));
    // A rated table always has a time per move: "none" leaves it to the
    // server's default for rated tables (60 s).
    try {
      const r = await api('POST', '/api/tables', { game: form.game, players: form.players, options: form.options, bots, name, turn_seconds: form.rated && !form.turn ? undefined : form.turn, memory_aid: !!(list.find(x => x.name === form.game)?.memory_aid && form.memory), public: form.public, lang: getLang(), rated: !!form.rated, coach: !!form.coach || undefined, ...paceRequest(form) });
      openTable(r.url, r);
    } catch (err) { toast(refusalText(err)); }
  };
  current = { render, close: parts.close };
  render();
}

// openTable goes to a table's page; seat, a seat response (docs/API.md),
// is kept for coming back without a session. The server's invite link
// names the host as the guests reach it.
function openTable(url, seat) {
  if (seat?.token) tokens.set(seat.table, { seat: seat.seat, token: seat.token, invite: seat.invite });
  history.pushState(null, '', url);
  route();
}

// The times per move offered on the home page, in seconds (0: none).
const TURNS = [0, 30, 60, 120];
function turnLabel(n) {
  if (!n) return t('home.turn.none');
  if (n >= DAY_MIN) return t('turnbased.label', { time: durationLabel(n) }); // turn-based (issue 29)
  return n % 60 ? t('home.turn.s', { n }) : t('home.turn.min', { n: n / 60 });
}

// Turn-based tables (issue 29): the pace chosen at creation, real time
// or over days with a time per move of an hour to a week (a day unless
// chosen). A time per move of an hour or more is a turn-based table's
// (the server's two ranges do not meet): turnLabel says so wherever a
// table's time is shown (the lobby, the join page, the table).
const DAY_MIN = 3600;
const DAY_TURNS = [3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400];
function durationLabel(n) {
  if (n % 86400 === 0) return t('turnbased.d', { n: n / 86400 });
  return t('turnbased.h', { n: n / 3600 });
}
// leftLabel is a turn-based seat's time left, in days and hours, or
// hours and minutes under a day.
function leftLabel(secs) {
  const d = Math.floor(secs / 86400), hr = Math.floor(secs % 86400 / 3600), m = Math.floor(secs % 3600 / 60);
  return d ? t('turnbased.left.dh', { d, h: hr }) : t('turnbased.left.hm', { h: hr, m });
}
// paceField is the create form's choice of pace, and a turn-based
// table's time per move.
function paceField(form, render) {
  return h('fieldset.turnbased', h('legend', t('turnbased.legend')),
    [['realtime', false], ['days', true]].map(([k, v]) => h('label.opt', h('input', {
      type: 'radio', name: 'turnbased', value: k, checked: form.days === v, onchange: () => { form.days = v; render(); },
    }), ' ', t('turnbased.' + k))),
    form.days ? h('label', t('home.turn'), ' ', (() => {
      const s = h('select', { name: 'day_turn', onchange: e => { form.dayTurn = Number(e.target.value); } },
        DAY_TURNS.map(n => h('option', { value: n }, durationLabel(n))));
      s.value = form.dayTurn; return s;
    })()) : null,
    form.days ? h('p.hint', t('turnbased.hint')) : null);
}
// paceRequest is what the creation request says of the pace.
function paceRequest(form) {
  return form.days ? { turn_based: true, turn_seconds: form.dayTurn } : {};
}
// End of the turn-based tables' block.

// ---------------------------------------------------------------- table

// tablePage is the page of table id. Its state is one object, T, which
// the functions below share: the socket and its messages (connect,
// onMessage), the clocks, the log, joining, and drawing (renderTable).
function tablePage(id) {
  const T = newTable(id);
  const saved = tokens.get(id);
  // Presence is the socket's: the browser answers the server's pings by
  // itself, however long the tab stays in the background (where timers
  // are throttled, so no heartbeat is sent from one). A page put away
  // (another page, the back/forward cache) closes its socket at once,
  // so that its seat shows away; one shown again reconnects.
  const hide = () => { const ws = T.ws; T.ws = null; T.hidden = true; ws?.close(1000, 'page hidden'); };
  const show = e => { if (T.hidden && !T.closed) { T.hidden = false; if (e.persisted || !T.ws) connect(T); } };
  window.addEventListener('pagehide', hide);
  window.addEventListener('pageshow', show);
  current = {
    render: () => T.render(),
    close: () => {
      T.closed = true; T.ws?.close(); clearInterval(T.clockTimer); cancelAnimationFrame(T.frame); T.turnNote.stop(); T.chat.close(); closeLeave();
      closeSettings(); T.paceOff();
      window.removeEventListener('pagehide', hide); window.removeEventListener('pageshow', show);
    },
  };
  T.render();
  (async () => {
    try { T.info = await api('GET', '/api/tables/' + id); } catch (err) {
      if (err.status === 404) { T.notFound = true; T.render(); return; }
    }
    // The session's seat (a table reached from "Your tables", on another
    // device): the page is seated before the welcome says so, and offers
    // no join form meanwhile.
    if (T.info?.you >= 0 && T.seat < 0) T.seat = T.info.you;
    if (saved && saved.token == null) tokens.set(id, null);
    T.render();
    if (!T.info?.closed) connect(T); // issue 26, actions: a closed table is not played, only told

  })();
}

// newTable is a table page's state, with what it draws with: the game
// screen's context (ctx), the score sheet, the chat and the turn alert.
function newTable(id) {
  const T = {
    id, seat: -1, info: null, state: null, log: [], ui: null, ws: null, pending: false,
    closed: false, retry: 0, refusals: 0, joining: false, watching: false, notFound: false,
    // refused: the last refusal in words and the position it answered,
    // shown in the hint line until the table moves on.
    refused: null,
    // deadlines: for each seat on the clock (a table with a time per
    // move), when its time is up by this page's clock, from the last
    // state's turn_left_ms; a timer redraws the badges once a second.
    deadlines: {}, clockTimer: null,
    main: clear(document.getElementById('main')),
  };
  // render draws the table now (a person's action, a refusal);
  // draw, after a message, at the next frame: the person sees one frame
  // however many messages came before it, and a burst (bots playing at
  // once, a reconnection's catching up) costs one drawing, not one each.
  // A tab in the background draws when it is shown again.
  T.render = () => {
    if (T.frame) { cancelAnimationFrame(T.frame); T.frame = 0; }
    renderTable(T);
  };
  T.draw = () => { T.frame ||= requestAnimationFrame(() => { T.frame = 0; renderTable(T); }); };
  T.name = s => seatName(T, s);
  T.ctx = {
    get seat() { return T.seat; },
    get state() { return T.state; },
    get pending() { return T.pending; },
    get info() { return T.info; },
    name: T.name,
    move(m) {
      if (T.pending || !T.ws || T.ws.readyState !== 1) return;
      T.pending = true;
      // n is the position the move answers: a move overtaken by another
      // (sent while someone else's was on its way) is refused as stale.
      T.ws.send(JSON.stringify({ type: 'move', move: m, n: T.state?.n }));
      T.render();
    },
    again() { T.ws?.send(JSON.stringify({ type: 'again' })); },
    render: () => T.render(),
  };
  T.turnNote = turnAlert();
  // The player's pace goes to the table as they choose it (issue 26).
  T.paceOff = onSettings(() => sendPace(T));
  T.sheet = scoreSheet(T.ctx, () => T.info?.game);
  T.chat = chatPanel(id, T.ctx, m => {
    if (T.ws?.readyState !== 1) return false;
    T.ws.send(JSON.stringify(m));
    return true;
  });
  return T;
}

// seatName is seat s's name as the page shows it.
function seatName(T, s) {
  const seat = T.info?.seats[s];
  if (!seat) return '?';
  // A taken seat without a name is a player who deleted their account.
  const n = seat.bot ? t('seat.bot', { n: s + 1, kind: t('bot.' + seat.bot) })
    : seat.name || (seat.free ? t('table.seat.free') : t('player.deleted'));
  return s === T.seat ? `${n} (${t('table.you')})` : n;
}

function connect(T) {
  const id = T.id;
  const tok = tokens.get(id);
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = tok?.token ? '?token=' + encodeURIComponent(tok.token) : '';
  const ws = new WebSocket(`${proto}//${location.host}/api/tables/${id}/ws${q}`);
  T.ws = ws;
  let welcomed = false;
  ws.onopen = () => { T.retry = 0; sendPace(T); };
  ws.onmessage = e => { welcomed = true; onMessage(T, JSON.parse(e.data)); };
  ws.onclose = () => {
    if (T.closed || T.ws !== ws) return;
    // A token refused twice in a row (a table rebuilt without it) is
    // forgotten: the page then watches, and may offer a free seat.
    if (!welcomed && tok?.token && ++T.refusals >= 2) { tokens.set(id, null); T.refusals = 0; }
    if (welcomed) T.refusals = 0;
    T.ws = null; T.pending = false;
    T.render();
    // A refused token (403) or a missing table shows up as a close
    // before any welcome; the HTTP check below tells which.
    setTimeout(async () => {
      if (T.closed) return;
      try { T.info = await api('GET', '/api/tables/' + id); } catch (err) {
        if (err.status === 404) { T.notFound = true; T.render(); return; }
      }
      if (T.info?.closed) { T.render(); return; } // issue 26, actions: closed meanwhile
      connect(T);
    }, Math.min(5000, 500 * 2 ** T.retry++));
  };
}

// sendPace tells the table the player's pace (settings.js): its bots
// play at it (table/pace.go).
function sendPace(T) {
  if (T.ws?.readyState === 1) T.ws.send(JSON.stringify({ type: 'pace', pace: pace() }));
}

function onMessage(T, m) {
  if (T.chat.onMessage(m)) return; // the chat's own, drawn by it
  switch (m.type) {
    case 'welcome':
      T.seat = m.seat; T.info = m.table; T.log = [];
      // ?screen=generic shows any game as its raw view and legal moves,
      // for bot writers and to keep the generic screen tested.
      T.ui = screenFor(m.table.game, new URLSearchParams(location.search).get('screen') === 'generic')(T.ctx);
      for (const e of m.history) addLog(T, e, true);
      break;
    case 'table':
      noteStandins(T, T.info, m.table);
      T.info = m.table;
      break;
    case 'state': {
      const prev = T.state;
      if (prev && m.match !== prev.match) T.log = [];
      T.state = m;
      if (T.tutorialNext) { T.tutorial = T.tutorialNext; T.tutorialNext = null; }
      if (T.refused && T.refused.n !== m.n) T.refused = null;
      setClocks(T, m.turn_left_ms);
      if (m.by === T.seat || m.to_move.indexOf(T.seat) < 0) T.pending = false;
      // A stand-in's move is logged as its, not as its player's.
      for (const e of m.events) addLog(T, m.standin && e && typeof e === 'object' ? { ...e, tapisStandin: m.by } : e, false);
      T.ui.onState?.(m, prev);
      // A game seen to its end at a seat: the first games ask before a
      // Cabo call (settings.js).
      if (T.seat >= 0 && prev?.match === m.match && prev.status === 'playing' && m.status === 'over') noteFinished(T.info?.game);
      T.turnNote.update(T.seat >= 0 && m.status === 'playing' && m.to_move.includes(T.seat), gameName(T.info?.game));
      break;
    }
    case 'standin_moves': {
      // Back at a seat a stand-in played for: what it played. The
      // welcome's history holds those moves' events, the same ones, as
      // the latest of the seat's: they read as the stand-in's there too.
      const keys = m.events.map(e => JSON.stringify(e));
      for (let i = T.log.length - 1, j = keys.length - 1; i >= 0 && j >= 0; i--) {
        if (JSON.stringify(T.log[i]) === keys[j]) { T.log[i] = { ...T.log[i], tapisStandin: m.seat }; j--; }
      }
      addLog(T, { type: 'tapis.missed', moves: m.moves, events: m.events }, true);
      break;
    }
    case 'watchers':
      if (T.info) T.info = { ...T.info, watchers: m.count };
      break;
    case 'tutorial': // a tutorial's step, for this seat alone (tutorial.js),
      T.tutorialNext = m; // shown with the state that follows it
      return;
    case 'left': case 'closed':
      // The seat left or the table closed: the socket closes, for good.
      T.gone = m.type; T.closed = true; T.ws?.close(); T.ws = null; closeLeave();
      break;
    case 'error':
      T.pending = false;
      T.refused = { text: explain(T, m), n: T.state?.n };
      toast(T.refused.text);
      break;
  }
  T.draw();
}

// setClocks starts the countdown of each seat in left (milliseconds
// left, relative, so this computer's clock may be wrong).
function setClocks(T, left) {
  const now = performance.now();
  T.deadlines = {};
  for (const [s, ms] of Object.entries(left || {})) T.deadlines[s] = now + ms;
  const any = Object.keys(T.deadlines).length > 0;
  if (any && !T.clockTimer) T.clockTimer = setInterval(() => tick(T), 1000);
  if (!any && T.clockTimer) { clearInterval(T.clockTimer); T.clockTimer = null; }
}

// tick redraws the badges only, not the table under the player's finger.
function tick(T) {
  for (const el of T.main.querySelectorAll('.clock[data-seat]')) drawClock(T, el, T.deadlines[el.dataset.seat]);
  seatBars(T.main, T.deadlines, (T.info?.turn_seconds || 0) * 1000);
}

function drawClock(T, el, deadline) {
  const secs = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
  el.textContent = secs >= DAY_MIN ? leftLabel(secs) : t('table.clock', { n: secs });
  el.classList.toggle('low', secs <= 10);
  if (T.info?.turn_seconds) ring(el, (deadline - performance.now()) / (T.info.turn_seconds * 1000));
}

function clock(T, i) {
  if (T.deadlines[i] == null || T.state?.status !== 'playing') return null;
  const el = h('span.clock', { dataset: { seat: i }, title: t('table.clock.title') });
  drawClock(T, el, T.deadlines[i]);
  return el;
}

function seatNote(s) {
  if (s.free || s.bot) return '';
  if (!s.connected) return ` · ${t(s.standin ? 'table.seat.standin' : 'table.seat.away')}`;
  return s.standin ? ` · ${t('table.seat.timeout')}` : '';
}

// hostControl is, on the host's page, a free or disconnected guest's
// seat's "Give to a bot" (a level and a button, reachable by keyboard);
// the server checks again (host.go), and says why it refuses. At a rated
// table only a free seat: a person's seat stays theirs.
function hostControl(T, info, s, i) {
  if (T.seat < 0 || T.seat !== info.host || i === T.seat || s.bot || s.connected || info.status === 'over') return null;
  if (info.rated && !s.free) return null;
  // Over days a person is away between moves: their seat is not the host's to give (issue 29).
  if (info.turn_based && !s.free) return null;
  // The level chosen outlives the table's redrawing, as the press does (tap).
  const level = h('select', {
    'aria-label': t('host.level'), dataset: { seatbotLevel: i },
    onchange: e => { (T.botLevels ||= {})[i] = e.target.value; },
  }, ['easy', 'normal', 'hard', 'random'].map(b => h('option', { value: b }, t('home.seat.bot.' + b))));
  level.value = T.botLevels?.[i] || 'normal';
  return h('span.seatbot', level, h('button', {
    type: 'button', dataset: { seatbot: i },
    ...tap(() => T.ws?.send(JSON.stringify({ type: 'seat_bot', seat: i, bot: level.value }))),
  }, t('host.give')));
}

// noteStandins logs, from two successive table infos, a bot starting to
// play for a seat (its player away, or out of time for a move) and an
// away player's return, so that nobody takes a stand-in's moves for the
// player's own. These lines are the page's, not the server's events.
function noteStandins(T, before, after) {
  if (!before || !T.ui || before.match !== after.match) return;
  const late = [];
  after.seats.forEach((s, i) => {
    const was = before.seats[i];
    if (!was || s.bot) return;
    if (s.standin && !was.standin) addLog(T, { type: 'tapis.standin', seat: i, timeout: s.connected }, true);
    else if (s.connected && !was.connected && was.standin) addLog(T, { type: 'tapis.back', seat: i }, true);
    if (s.standin && !was.standin && s.connected) late.push(i);
  });
  // A time per move run out is told on the screen too, not only in the
  // log (issue 26): to its player, and in words naming them to the others.
  if (late.length) toast(late.map(i => (i === T.seat ? t('timeout.you') : t('timeout.other', { name: T.name(i) }))).join(' '), 'info');
}

function pageLine(T, e) {
  // Said to the page's own player when it is theirs (issue 26, words).
  if (e.type === 'tapis.standin') return ty(e.timeout ? 'log.timeout' : 'log.standin', e.seat === T.seat, { name: T.name(e.seat) });
  if (e.type === 'tapis.back') return ty('log.back', e.seat === T.seat, { name: T.name(e.seat) });
  if (e.type === 'tapis.missed') {
    const list = e.events.map(ev => T.ui?.logLine?.(ev)).filter(Boolean).join(' · ');
    return t(e.moves === 1 ? 'log.missed.one' : 'log.missed', { n: e.moves, moves: list });
  }
  return null;
}

// logText is an entry of the log as its line: a stand-in's move says
// whose stand-in made it.
function logText(T, e) {
  const line = pageLine(T, e) ?? (T.ui.logLine ? T.ui.logLine(e) : JSON.stringify(e));
  if (!line || e.tapisStandin == null) return line;
  return ty('log.bystandin', e.tapisStandin === T.seat, { name: T.name(e.tapisStandin), line });
}

// The log keeps events, not text, so that it follows a language switch.
function addLog(T, e, old) {
  T.log.push(e);
  if (T.log.length > 500) T.log.shift();
  if (!old) T.ui.onEvent?.(e);
}

// explain words an error message: its reason in the screen's words,
// else its code (refusal.js).
function explain(T, m) {
  return T.ui.explain ? T.ui.explain(m) : refusalText(m, T.info?.game, T.name);
}

async function join(T, nm) {
  const n = nm.trim();
  if (!n && !player()) { toast(t('home.error.name')); return; }
  // One request at a time: a second press while the first is on its way
  // would take a second seat.
  if (T.joining) return;
  T.joining = true;
  try {
    await ensurePlayer(n);
    const r = await api('POST', `/api/tables/${T.id}/join`, { name: n });
    tokens.set(T.id, { seat: r.seat, token: r.token, invite: r.invite });
    T.ws?.close(); T.ws = null;
    connect(T);
  } catch (err) {
    toast(err.status === 409 ? t('table.full') : refusalText(err));
  } finally {
    T.joining = false;
  }
}

// renderTable draws the table page: its bar, the hint line, the invite
// or the join form, the game's screen, the log.
function renderTable(T) {
  const main = T.main;
  const focused = focusKey(main);
  const places = motion.before(main); // where the cards were, for them to travel from
  clear(main);
  if (T.notFound) {
    main.append(h('section.card-panel', h('p', t('table.notfound')), h('a', { href: '/' }, t('table.home'))));
    return;
  }
  if (T.info?.closed && !T.gone) { guide(null); tutorialPanel(null); main.append(closedPanel(T.info)); return; } // issue 26, actions
  if (T.gone) { guide(null); tutorialPanel(null); main.append(gonePanel(T.gone, T.seat >= 0 && T.seat === T.info?.host)); return; } // the guide leaves with the table
  if (!T.info) { main.append(h('p', t('home.loading'))); return; }
  const info = T.info;
  const free = info.seats.filter(s => s.free).length;
  if (helpGame !== info.game) { helpGame = info.game; header(); }
  const page = h('section.table', { id: 'table', dataset: { status: info.status, seat: T.seat } });
  page.append(tableBar(T, info));
  if (T.state && info.status !== 'waiting') page.append(hintLine(info.game, T.state, T.seat, T.name, T.refused?.text));
  if (T.state) page.append(coachPanel(T, tokens.get(T.id)?.token) || ''); // issue 27: the coach
  if (!T.ws) page.append(h('p.banner', t('table.reconnecting')));
  // A guest about to sit down came by the invite link: the join form
  // says what the table is, and the link would only be in its way.
  const joining = T.seat < 0 && free > 0 && !T.watching;
  if (info.status === 'waiting' && !joining) page.append(invitePanel(info, free));
  // Issue 29: a friend invited from the table, while it is open.
  if (T.seat >= 0 && info.status !== 'over' && free > 0) page.append(inviteFriend(info.id) || '');
  if (joining) {
    page.append(joinForm(T, info));
  } else if (T.seat < 0 && info.status !== 'waiting') {
    page.append(h('p.note', free > 0 ? t('table.spectator') : t('table.full')));
  }
  let game = null;
  if (T.state && T.ui) {
    game = h('div.game', { id: 'game', dataset: { game: info.game } });
    T.ui.render(game);
  }
  // Once the game is over, what to do next comes before the table, in the
  // window (issue 26, actions), for a page opened after the end too;
  // while the game's end panel is open, its own buttons say it.
  if (T.state?.status === 'over' && !game?.querySelector('#overlay')) {
    page.append(h('div.again', T.seat >= 0 ? h('button.primary', { 'data-action': 'again', ...tap(() => T.ctx.again()) }, t('table.again')) : null,
      ' ', h('a.button', { href: `/m/${T.id}/${T.state.match}`, 'data-action': 'replay' }, t('history.replay'))));
  }
  if (game) page.append(game);
  const log = logList(T);
  page.append(h('details.logbox', { open: true }, h('summary', t('table.log')), log));
  main.append(page);
  log.scrollTop = log.scrollHeight;
  seatBars(main, T.state?.status === 'playing' ? T.deadlines : {}, (info.turn_seconds || 0) * 1000);
  fullNames(main);
  restoreFocus(main, focused);
  T.sheet.after(main);
  T.chat.show();
  // The guide measures where things are before they travel there.
  guide(T.info, T.state, T.seat, T.name, T.refused?.text);
  tutorialPanel(T.info, T.seat, T.tutorial);
  motion.after(main, places);
}

// tableBar is the top of the table: the game, the seats with their
// clocks and badges, the time per move, the tools.
function tableBar(T, info) {
  return h('div.tablebar',
    h('h1', gameName(info.game), info.rated ? [' ', ratedTag()] : null, watchersBadge(info.watchers)),
    h('ul.seats', info.seats.map((s, i) => h('li' + (s.connected ? '' : '.away') + (i === T.seat ? '.me' : ''), h('span.nm', T.name(i)),
      seatNote(s), clock(T, i), i === info.host ? h('span.badge.host', { title: t('host.title') }, t('host.badge')) : null, hostControl(T, info, s, i), i === T.seat ? leaveControl(T, info) : null))),
    info.turn_seconds ? h('p.turntime', t('table.turn', { time: turnLabel(info.turn_seconds) })) : null,
    info.memory_aid ? h('p.badge.memaid', { id: 'memaid', title: t('memory.badge.title') }, t('memory.badge')) : null,
    // The turn alerts' switches are in the settings (settings.js).
    T.state ? h('div.tabletools', T.sheet.button(), settingsButton(info.game, T.seat >= 0)) : null);
}

// watchersBadge is the eye and the number of the table's spectators, when
// it has any (issue 26): the server tells the count (a "watchers" message).
const EYE = '<svg viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M12 5C6.5 5 2.7 9.1 1.5 12c1.2 2.9 5 7 10.5 7s9.3-4.1 10.5-7C21.3 9.1 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z"/></svg>';
function watchersBadge(n) {
  if (!(n > 0)) return null;
  const words = tn('table.watchers', n);
  return h('span.watchers', { id: 'watchers', role: 'img', title: words, 'aria-label': words },
    h('span.eye', { 'aria-hidden': 'true', html: EYE }), h('span.n', { 'aria-hidden': 'true' }, n));
}

// invitePanel is, while the table waits for players, its link to share.
function invitePanel(info, free) {
  const link = tokens.get(info.id)?.invite || location.origin + '/t/' + info.id;
  return h('div.card-panel.invite',
    h('p', tn('table.waiting', free)),
    h('label', t('table.invite')),
    h('div.row', h('input', { readonly: true, value: link, id: 'invite', onclick: e => e.target.select() }),
      h('button', {
        ...tap(() => { navigator.clipboard?.writeText(link); toast(t('table.copied'), 'info'); }),
      }, t('table.copy'))));
}

// joinForm is a guest's way to a free seat: what the table is, a name,
// and the choice of only watching.
function joinForm(T, info) {
  // The table is drawn anew on every message (a seat taken, a watcher
  // come): what the guest typed so far, and the focus, outlive it.
  const input = h('input', {
    name: 'name', id: 'joinname', maxlength: 24, placeholder: t('home.name.placeholder'),
    value: T.joinName ?? (player()?.name || localStorage.getItem('tapis.name') || ''),
    oninput: e => { T.joinName = e.target.value; },
  });
  // Its buttons act on a press released over them (tap), as the game's
  // do: a message between press and release redraws the form, and a
  // plain click would be lost (CI waited 12 minutes on one). Enter in the
  // name clicks the submit button (detail 0), which tap counts too; the
  // submission itself only stays on the page.
  return h('form.card-panel.join', { id: 'join', onsubmit: e => e.preventDefault() },
    h('h2', t('table.join')), joinSummary(info, T.name, gameName(info.game), turnLabel(info.turn_seconds)),
    info.rated ? h('p.jrated', { id: 'joinrated' }, ratedTag(), ' ', t('rated.join')) : null,
    h('label', t('home.name'), ' ', input),
    h('div.row', h('button.primary', { type: 'submit', 'data-action': 'join', ...tap(() => join(T, input.value)) }, t('table.join.submit')),
      h('button', { type: 'button', ...tap(() => { T.watching = true; T.render(); }) }, t('table.watch'))));
}

// A resize changes the log's height (a column beside a wide table, a
// line under the hint on a narrow one): its newest line stays in view.
window.addEventListener('resize', () => {
  const log = document.getElementById('log');
  if (log) log.scrollTop = log.scrollHeight;
});

// logList is the log as a list, a stand-in's lines marked.
function logList(T) {
  const lines = T.ui ? T.log.map(e => [logText(T, e), e]).filter(([l]) => l) : [];
  return h('ol.log', { id: 'log' }, lines.map(([l, e]) =>
    h('li' + (e.tapisStandin != null || e.type === 'tapis.missed' ? '.standin' : ''), l)));
}

function route() {
  current?.close?.();
  current = null;
  helpGame = null;
  closeHelp();
  closeAccount();
  header();
  const m = /^\/t\/([a-z0-9]+)$/.exec(location.pathname);
  const help = /^\/help\/([a-z0-9]+)$/.exec(location.pathname);
  const past = /^\/m\/([a-z0-9]+)\/([0-9]+)$/.exec(location.pathname);
  const board = /^\/leaderboard(?:\/([a-z0-9]+))?\/?$/.exec(location.pathname);
  const prof = /^\/p\/([^/]+)$/.exec(location.pathname);
  if (m) tablePage(m[1]);
  else if (board) current = leaderboardPage(document.getElementById('main'), board[1]);
  else if (prof) current = profilePage(document.getElementById('main'), decodeURIComponent(prof[1]));
  else if (past) current = historyPage(document.getElementById('main'), past[1], Number(past[2]));
  // Issue 29: friends, the inbox, the notifications' settings.
  else if (location.pathname === '/friends') current = friendsPage(document.getElementById('main'));
  else if (location.pathname === '/inbox') current = inboxPage(document.getElementById('main'));
  else if (location.pathname === '/notifications') current = notifySettingsPage(document.getElementById('main'));
  else if (location.pathname === '/games') current = myGamesPage(document.getElementById('main'));
  else if (help) { const main = document.getElementById('main'); current = { render: () => helpPage(main, help[1]) }; current.render(); }
  else home();
}

window.addEventListener('popstate', route);
setOpener(openTable);
loadTutorials();
setLang(getLang());
// The pages read their lists of games from the registry (registry.js).
loadGames().then(route);
