// The home page's parts around the create form: who is playing (the
// name), "Your tables" (the player's unfinished tables, on any device),
// quick match (the queue) and the lobby (public tables waiting for
// players, live). app.js lays them out; each part redraws itself.
import { h, clear, toast, tap } from './dom.js';
import { t, tn, has, getLang } from './i18n.js';
import { api } from './api.js';
import { player, ensurePlayer, onPlayer, savedName, loadPlayer } from './player.js';
import { explain } from './account.js';
import { optionLines } from './tableinfo.js';
import { ratedTag } from './ratings.js';
import { pickGame, gameOffer } from './tutorial.js'; // tutorial: the offer to a player new to a game

function gameName(name) { return has('game.' + name) ? t('game.' + name) : name; }

// The waits before bots fill a quick match's free seats, in seconds (-1:
// never), and how they read.
const WAITS = [5, 10, 30, 60, 120, -1];
function waitLabel(n) {
  if (n < 0) return t('quick.wait.never');
  return n % 60 ? t('home.turn.s', { n }) : t('home.turn.min', { n: n / 60 });
}

// clock reads seconds as 0:12, 1:05.
function clock(secs) {
  const s = Math.max(0, Math.floor(secs));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// homeParts makes the parts for the games list (GET /api/games). open(url,
// seat) goes to a table, keeping seat (a seat response) when there is one;
// turnLabel puts a time per move into words.
export function homeParts({ games, open, turnLabel }) {
  const stops = [];
  const nameInput = h('input', {
    name: 'name', id: 'who-name', maxlength: 24, required: true, autocomplete: 'nickname', value: savedName(), placeholder: t('home.name.placeholder'),
    // Setting the name is an action that makes the guest, or renames the player.
    onchange: () => { if (nameInput.value.trim()) ensurePlayer(nameInput.value).catch(err => toast(explain(err))); },
  });
  // needPlayer makes the player before an action, or says what is missing.
  const needPlayer = async () => {
    const n = nameInput.value.trim();
    if (!n && !player()) { toast(t('home.error.name')); nameInput.focus(); throw new Error('no name'); }
    return ensurePlayer(n);
  };

  // ------------------------------------------------------------ who
  const who = h('section.whobox', { id: 'who' });
  const drawWho = () => {
    const p = player();
    clear(who).append(
      h('label.who-label', { for: 'who-name' }, p ? t('who.playing') : t('who.first')), nameInput,
      h('p.who-note', p ? (p.guest ? t('who.guest') : t('who.user', { user: p.username })) : t('who.none')));
    nameInput.placeholder = t('home.name.placeholder');
    if (document.activeElement !== nameInput && p?.name) nameInput.value = p.name;
  };

  // ------------------------------------------------------------ your tables
  const mine = h('section.card-panel.mytables', { id: 'mytables', hidden: true });
  let myTables = [];
  const loadMine = async () => {
    if (!player()) { myTables = []; drawMine(); return; }
    let list;
    try { list = (await api('GET', '/api/me/tables')).tables || []; } catch { return; }
    // Redrawn only when changed, so that a press on a link is not lost.
    if (JSON.stringify(list) === JSON.stringify(myTables)) return;
    myTables = list;
    drawMine();
    if (lob.tables) drawLobby();
  };
  // ------------------------------------------------------------ your turn (issue 29)
  // The tables where it is the player's turn (GET /api/me/turns), the
  // longest waiting first, shown above their other tables; the tab's
  // title counts them, "(2) Tapis", also while the tab is hidden.
  let myTurns = [];
  const baseTitle = document.title.replace(/^\(\d+\) /, '');
  const loadTurns = async () => {
    let list = [];
    if (player()) {
      try { list = (await api('GET', '/api/me/turns')).turns || []; } catch { return; }
    }
    document.title = list.length ? `(${list.length}) ${baseTitle}` : baseTitle;
    if (JSON.stringify(list) === JSON.stringify(myTurns)) return;
    myTurns = list;
    drawMine();
  };
  const turnsTimer = setInterval(() => { if (document.visibilityState !== 'visible') loadTurns(); }, 20000);
  stops.push(() => { clearInterval(turnsTimer); document.title = baseTitle; });
  const tableLink = (id, ...body) => h('a', {
    href: '/t/' + id, dataset: { mytable: id },
    onclick: e => { if (!e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) { e.preventDefault(); open('/t/' + id); } },
  }, ...body);
  const drawMine = () => {
    const due = new Set(myTurns.map(x => x.table));
    const rest = myTables.filter(tb => !due.has(tb.id));
    mine.hidden = myTables.length === 0 && myTurns.length === 0;
    clear(mine);
    if (myTurns.length) {
      mine.append(h('h2', { id: 'yourturn-title' }, t('turns.title')), h('ul.mylist.turnlist', { id: 'yourturn' }, myTurns.map(tu => h('li', tableLink(tu.table,
        h('strong', gameName(tu.game)), ' ', h('span', t('mine.line', { n: tu.players, seat: tu.seat + 1 })), ' ',
        tu.deadline ? h('span.tdeadline', t('turns.until', { time: new Date(tu.deadline).toLocaleTimeString(getLang(), { hour: '2-digit', minute: '2-digit' }) })) : null,
        h('span.tstatus.yourturn', t('table.turn.yours')))))));
    }
    if (rest.length) {
      mine.append(h('h2', t('mine.title')), h('ul.mylist', rest.map(tb => h('li', tableLink(tb.id,
        h('strong', gameName(tb.game)), ' ', h('span', t('mine.line', { n: tb.players, seat: tb.seat + 1 })), ' ',
        h('span.tstatus.' + tb.status, t('mine.' + (tb.status === 'playing' ? 'playing' : 'waiting'))))))));
    }
  };

  // ------------------------------------------------------------ quick match
  const q = { game: games.find(g => g.name === 'cabo')?.name || games[0].name, players: 0, bot: 'normal', wait: 30, entry: null, at: 0, timer: null };
  const quick = h('section.card-panel.quick', { id: 'quick' });
  const qSelect = (name, value, options, set) => {
    const s = h('select', { name, onchange: e => { set(e.target.value, e); drawQuick(); } },
      options.map(([v, label]) => h('option', { value: v }, label)));
    s.value = String(value);
    return s;
  };
  const drawQuick = () => {
    const g = games.find(x => x.name === q.game) || games[0];
    if (q.players && (q.players < g.min || q.players > g.max)) q.players = 0;
    if (!g.bots.includes(q.bot)) q.bot = g.bots.includes('normal') ? 'normal' : g.bots[0];
    clear(quick).append(h('h2', t('quick.title')));
    const e = q.entry;
    if (e && !e.table) {
      const secs = (Date.now() - q.at) / 1000;
      quick.append(h('div.queued', { id: 'queued', role: 'status' },
        h('p.looking', h('span.spinner', { 'aria-hidden': 'true' }), t('quick.looking'), ' ', h('span.elapsed', { id: 'elapsed' }, clock(secs))),
        h('p.qsummary', t('quick.summary', {
          game: gameName(e.game), players: e.players ? e.players : t('quick.players.any'),
          wait: e.wait_seconds < 0 ? t('quick.nobots') : t('quick.bots', { wait: waitLabel(e.wait_seconds), level: t('bot.' + e.bot) }),
        })),
        h('button', { type: 'button', 'data-action': 'quick-cancel', onclick: leave }, t('quick.cancel'))));
      return;
    }
    if (e?.table) {
      quick.append(h('p.ready', h('a', {
        href: '/t/' + e.table, 'data-action': 'quick-table',
        onclick: ev => { if (!ev.ctrlKey && !ev.metaKey && !ev.shiftKey && ev.button === 0) { ev.preventDefault(); follow(e.table); } },
      }, t('quick.ready'))));
    }
    quick.append(h('p.about', t('quick.about')), h('div.qform',
      h('label', t('home.game'), ' ', qSelect('qm_game', q.game, games.map(x => [x.name, gameName(x.name)]), (v, e) => {
        q.game = v;
        if (e.isTrusted) pickGame(v, 'quick', drawQuick); // tutorial: offered to a player new to it
      })),
      h('label', t('home.players'), ' ', qSelect('qm_players', q.players,
        [[0, t('quick.players.any')], ...Array.from({ length: g.max - g.min + 1 }, (_, i) => [g.min + i, g.min + i])], v => { q.players = Number(v); })),
      h('label', t('quick.bot'), ' ', qSelect('qm_bot', q.bot, g.bots.filter(b => b !== 'heuristic').map(b => [b, t('bot.' + b)]), v => { q.bot = v; })),
      h('label', t('quick.wait'), ' ', qSelect('qm_wait', q.wait, WAITS.map(n => [n, waitLabel(n)]), v => { q.wait = Number(v); }))),
    gameOffer('quick') || '', // tutorial
    h('button.primary', { type: 'button', 'data-action': 'quick', onclick: join }, t('quick.go')));
  };
  // join queues the player. The guest is made first (a first visit's
  // name), and until the entry is back nothing else reads the queue: the
  // player's making wakes loadQueue, whose answer, older than the entry,
  // would otherwise put the form back over a match being found.
  const join = async () => {
    if (q.joining) return;
    q.joining = true;
    try {
      await needPlayer();
      // A Cancel still on its way would otherwise take this new entry out.
      await q.leaving;
      const r = await api('POST', '/api/queue', { game: q.game, players: q.players, bot: q.bot, wait_seconds: q.wait, name: nameInput.value.trim() });
      q.joining = false;
      queued(r.entry);
    } catch (err) { if (err.message !== 'no name') toast(explain(err)); } finally { q.joining = false; }
  };
  // follow goes to the table the queue seated the player at, and takes
  // the seated entry out of the queue: the server tells it until then,
  // to every request, so that none racing this page's can lose it.
  const follow = table => {
    stopQueue();
    q.entry = null;
    api('POST', '/api/queue/leave', {}).catch(() => { /* told until the table ends */ });
    open('/t/' + table);
  };
  const leave = async () => {
    const was = q.entry;
    q.entry = null; stopQueue(); drawQuick(); // at once: the server is told below
    q.leaving = api('POST', '/api/queue/leave', {}).catch(err => { toast(explain(err)); queued(was); });
    await q.leaving;
  };
  // queued follows an entry of the queue: to its table once seated, else
  // polled every second, its time counted on the page.
  const queued = entry => {
    if (entry?.table) { follow(entry.table); return; }
    q.entry = entry || null;
    if (!q.entry) { stopQueue(); drawQuick(); return; }
    const joined = Date.parse(q.entry.joined);
    q.at = Number.isFinite(joined) ? Math.min(joined, Date.now()) : (q.at || Date.now());
    drawQuick();
    if (!q.timer) q.timer = setInterval(pollQueue, 1000);
  };
  // One request at a time: the server tells a seated entry once, and an
  // empty answer overtaking it would lose the table.
  const pollQueue = async () => {
    const el = document.getElementById('elapsed');
    if (el) el.textContent = clock((Date.now() - q.at) / 1000);
    if (q.asking) return;
    q.asking = true;
    const was = q.entry;
    try {
      const r = await api('GET', '/api/queue');
      // An entry gone while waiting (taken out from another tab, or
      // told to an older server's other request) may have been seated:
      // the player's tables say where.
      if (!r.entry && was && !was.table && q.timer) {
        const found = await seatedSince(was);
        if (found) { follow(found); return; }
      }
      if (q.timer || r.entry?.table) queued(r.entry);
    } catch { /* a lost request: the next second asks again */ } finally { q.asking = false; }
  };
  // seatedSince finds a table of the entry's game made for the player
  // since the entry joined the queue ("" for none).
  const seatedSince = async entry => {
    const joined = Date.parse(entry.joined);
    const list = (await api('GET', '/api/me/tables')).tables || [];
    const tb = list.find(x => x.game === entry.game && x.status === 'playing' && Date.parse(x.created) >= joined - 1000);
    return tb ? tb.id : '';
  };
  const stopQueue = () => { clearInterval(q.timer); q.timer = null; };
  stops.push(stopQueue);
  const loadQueue = async () => {
    // A join under way, or an entry followed already, owns the queue.
    if (!player() || q.joining || q.timer) return;
    try {
      const r = await api('GET', '/api/queue');
      if (q.joining || q.timer) return;
      // A match found while away is not followed on its own (the player
      // came back here on purpose): it is offered as a link.
      if (r.entry?.table) { q.entry = r.entry; drawQuick(); } else queued(r.entry);
    } catch { /* no queue: the form stays */ }
  };

  // ------------------------------------------------------------ lobby
  const lob = { filter: '', tables: null, timer: null };
  const lobby = h('section.card-panel.lobby', { id: 'lobby' });
  const seatName = (s, i) => (s.bot ? t('seat.bot', { n: i + 1, kind: t('bot.' + s.bot) }) : s.free ? null : s.name);
  const drawLobby = () => {
    const chips = h('div.chips', { role: 'group', 'aria-label': t('lobby.filter') },
      [['', t('lobby.all')], ...games.map(g => [g.name, gameName(g.name)])].map(([v, label]) => h('button.chip', {
        type: 'button', dataset: { lobbyGame: v }, 'aria-pressed': String(lob.filter === v),
        onclick: e => {
          lob.filter = v; lob.tables = null; drawLobby(); loadLobby();
          if (v && e.isTrusted) pickGame(v, 'lobby', drawLobby); // tutorial: offered to a player new to it
        },
      }, label)));
    clear(lobby).append(h('h2', t('lobby.title')), chips, gameOffer('lobby') || '');
    if (lob.tables === null) { lobby.append(h('p.note', t('home.loading'))); return; }
    if (lob.tables.length === 0) {
      lobby.append(h('div.empty', { id: 'lobby-empty' }, h('p', t(lob.filter ? 'lobby.empty.game' : 'lobby.empty', { game: gameName(lob.filter) })),
        h('div.row',
          h('button', { type: 'button', onclick: () => quick.scrollIntoView({ behavior: 'smooth', block: 'center' }) }, t('lobby.try.quick')),
          h('button', { type: 'button', onclick: () => document.getElementById('create')?.scrollIntoView({ behavior: 'smooth', block: 'start' }) }, t('lobby.try.create')))));
      return;
    }
    const mineIds = new Set(myTables.map(x => x.id));
    lobby.append(h('ul.lobbylist', lob.tables.map(tb => {
      const free = tb.seats.filter(s => s.free).length;
      const names = tb.seats.map(seatName).filter(Boolean);
      const opts = optionLines(tb.game, tb.options);
      return h('li.lobbyrow', { dataset: { table: tb.id, game: tb.game } },
        h('div.lmain',
          h('div.lhead', h('strong', gameName(tb.game)), ' ',
            tb.lang ? h('span.langtag', { title: has('lobby.lang.' + tb.lang) ? t('lobby.lang.' + tb.lang) : tb.lang }, tb.lang.toUpperCase()) : null,
            tb.rated ? [' ', ratedTag()] : null,
            ' ', h('span.lseats', t('lobby.seats', { taken: tb.players - free, n: tb.players }))),
          h('div.lnames', names.join(', '), free ? h('span.lfree', ' · ' + tn('lobby.free', free)) : null),
          h('div.lrules', opts.length ? opts.join(' · ') : t('lobby.standard'), ' · ',
            tb.turn_seconds ? t('table.turn', { time: turnLabel(tb.turn_seconds) }) : t('lobby.noclock'))),
        // The player's own table (created here, or elsewhere while signed
        // in) is opened, not joined a second time.
        mineIds.has(tb.id)
          ? h('button', { type: 'button', dataset: { open: tb.id }, ...tap(() => open('/t/' + tb.id)) }, t('lobby.open'))
          : h('button.primary', { type: 'button', dataset: { join: tb.id }, ...tap(() => sit(tb.id)) }, t('lobby.join')));
    })));
  };
  const loadLobby = async () => {
    const want = lob.filter;
    try {
      const r = await api('GET', '/api/lobby' + (want ? '?game=' + encodeURIComponent(want) : ''));
      if (want !== lob.filter) return;
      const list = r.tables || [];
      // Redrawn only when changed, so that a press on Join is not lost.
      if (lob.tables && JSON.stringify(list) === JSON.stringify(lob.tables)) return;
      lob.tables = list;
    } catch { if (lob.tables === null) lob.tables = []; }
    drawLobby();
  };
  const sit = async id => {
    try {
      await needPlayer();
      const r = await api('POST', `/api/tables/${id}/join`, { name: nameInput.value.trim() });
      open(r.url || '/t/' + id, r);
    } catch (err) {
      if (err.message === 'no name') return;
      toast(err.status === 409 ? t('table.full') : explain(err));
      loadLobby();
    }
  };
  // The lobby is live while the page shows: every 3 s, paused when hidden.
  const tick = () => { if (document.visibilityState === 'visible') { loadLobby(); loadMine(); loadTurns(); } };
  const onVisible = () => { if (document.visibilityState === 'visible') tick(); };
  lob.timer = setInterval(tick, 3000);
  document.addEventListener('visibilitychange', onVisible);
  stops.push(() => { clearInterval(lob.timer); document.removeEventListener('visibilitychange', onVisible); });

  const render = () => { drawWho(); drawMine(); drawQuick(); drawLobby(); };
  stops.push(onPlayer(() => { drawWho(); loadMine(); loadTurns(); loadQueue(); }));
  render();
  loadPlayer().then(() => { drawWho(); loadMine(); loadTurns(); loadQueue(); });
  loadLobby();

  return {
    who, mine, quick, lobby, render,
    // The name for the create form, and the player made before creating.
    name: () => nameInput.value.trim(),
    needPlayer,
    lang: () => getLang(),
    close: () => { for (const f of stops) f(); },
  };
}
