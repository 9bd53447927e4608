// A finished match's page (/m/{table}/{no}): who played, the result, the
// score sheet, and a viewer that steps through every move, as one seat saw
// the table or with every card shown. The server serves nothing of a match
// that is not over (server/history.go).
//
// A position is drawn by the game's own screen, given a table that never
// takes a move (no legal moves, a no-op move): the player sees the cards as
// they saw them at the table. "Every card shown" draws seat 0's screen and,
// under it, every seat's hand from the server's whole state as text chips:
// the screens draw one seat's hand only, and Cabo's own view never shows
// its face-down cards.
//
// The analysis (analysis.js) marks the costly moves along the slider and
// says each move's cost; a move of the viewer's own seat, when they played
// the match on this device, is said to them ("You play the 7♥").
import { h, clear } from './dom.js';
import { t, tn, has } from './i18n.js';
import { stylesheet } from './screen.js';
import { points } from './sheet.js';
import { gameName, roundKey, screenFor, captionFor } from './registry.js';
import { loadAnalysis, byStep, markStrip, judgement, accuracy, note } from './analysis.js';

async function get(path) {
  const r = await fetch(path);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), { code: data.code, status: r.status });
  return data;
}

// moveText puts a move's JSON in a line, for a game whose screen has no
// captions: its type, then its fields, the cards named as the hands panel
// names them.
function moveText(game, m) {
  const { type, ...rest } = m || {};
  const val = (k, v) => {
    if (Array.isArray(v) && v.every(x => typeof x !== 'object')) return v.map(x => (k === 'slots' ? x : cardText(game, x))).join(' ');
    if (typeof v === 'object') return JSON.stringify(v);
    return k === 'card' ? cardText(game, v) : v;
  };
  const parts = Object.entries(rest).map(([k, v]) => `${k.replaceAll('_', ' ')} ${val(k, v)}`);
  return [String(type ?? '').replaceAll('_', ' '), ...parts].join(' · ');
}

const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣', P: '★' };

// cardText is a card of the game's dump as a short label.
function cardText(game, c) {
  if (c === null || c === undefined || c === -1) return '·';
  if (game === 'papayoo' && typeof c === 'string') return c.slice(1) + (SUITS[c[0]] ?? c[0]);
  if (game === 'limits' && has('limits.color.' + c)) return t('limits.color.' + c);
  return String(c);
}

// handsOf lists what each seat holds in the whole state: groups of
// [label, cards].
function handsOf(game, d, s) {
  const groups = [[t('history.hand'), d.hands?.[s] || []]];
  if (game === 'limits') groups.push([t('history.hidden'), d.hidden?.[s] || []]);
  if (game === 'dacapo') groups.push([t('history.stock'), (d.stocks?.[s] || []).slice(0, 1)]);
  return groups;
}

// historyPage draws the page into main; it returns {render, close} for
// app.js (a language switch redraws it, leaving closes it).
export function historyPage(main, id, no) {
  stylesheet('turn.css');
  stylesheet('history.css');
  // me is the viewer's seat when they played this match: the seat app.js
  // keeps for the table on this device, else the seat the server says is
  // the signed-in player's (the page's "you"), else null.
  let me = null;
  try { me = JSON.parse(localStorage.getItem('tapis.seat.' + id))?.seat ?? null; } catch { /* private mode */ }
  const H = { page: null, error: null, choice: me === null ? '0' : String(me), steps: {}, pos: 0, ui: null, uiFor: null, analysis: null, judged: new Map() };

  const name = s => {
    const seat = H.page?.seats[s];
    if (!seat) return '?';
    return seat.bot ? t('seat.bot', { n: s + 1, kind: t('bot.' + seat.bot) }) : seat.name || '?';
  };
  const seatOf = () => (H.choice === 'all' ? 0 : Number(H.choice));
  const steps = () => H.steps[H.choice];
  const step = () => steps()?.[H.pos];
  const ctx = {
    get seat() { return seatOf(); },
    get state() {
      const st = step();
      if (!st) return null;
      return {
        type: 'state', match: no, n: st.n, by: st.by, status: st.status, to_move: st.to_move, result: st.result,
        view: H.choice === 'all' ? st.views[0] : st.view, legal: [], events: [], rounds: [],
      };
    },
    get pending() { return false; },
    get info() { return { id, game: H.page.game, players: H.page.players, seats: H.page.seats, status: 'over', memory_aid: false }; },
    name,
    move() {},
    again() {},
    render: () => drawBoard(),
  };

  // load fetches the steps of the seat choice once.
  const load = async () => {
    const c = H.choice;
    if (H.steps[c]) return;
    const r = await get(`/api/tables/${id}/matches/${no}/steps?seat=${c}`);
    H.steps[c] = r.steps;
  };

  const go = pos => {
    const n = steps()?.length || 0;
    H.pos = Math.max(0, Math.min(n - 1, pos));
    update();
  };

  let board, slider, posLabel, moveLine, judgeLine, marks, hands, players, analysisNote;

  function drawBoard() {
    if (!board || !step()) return;
    const key = H.page.game + '/' + H.choice;
    if (H.uiFor !== key) {
      H.ui = screenFor(H.page.game, new URLSearchParams(location.search).get('screen') === 'generic')(ctx);
      H.uiFor = key;
    }
    clear(board);
    H.ui.render(board);
    clear(hands);
    if (H.choice === 'all') {
      const d = step().state || {};
      hands.append(h('h3', t('history.hands')), h('ul.hist-hands', Array.from({ length: H.page.players }, (_, s) =>
        h('li', { dataset: { seat: s } }, h('span.hist-name', name(s)), handsOf(H.page.game, d, s).map(([label, cards]) =>
          h('span.hist-group', h('span.hist-label', label), cards.length
            ? cards.map(c => h('span.hist-card', { dataset: { game: H.page.game, card: String(c) } }, cardText(H.page.game, c)))
            : h('span.hist-none', t('history.empty'))))))));
    }
  }

  // caption is the move that reached step st, in words: the game's own
  // (its screen's caption, given the views before and after, the mover's
  // own when every card is shown), else the move's fields listed.
  function caption(st, move = st.move, next = st) {
    const at = x => (H.choice === 'all' ? x?.views?.[st.by] : x?.view);
    const words = captionFor(H.page.game)?.(move || {}, { by: st.by, name, prev: at(steps()[H.pos - 1]), next: at(next), you: st.by === me, me });
    return words || t('history.moved', { name: name(st.by), move: moveText(H.page.game, move) });
  }

  // judge shows how the analysis judged the move on show; the best move
  // found is said as the move played is, from the position before it.
  function judge(st) {
    const d = H.pos > 0 ? H.judged.get(st.n) : null;
    const line = judgement(d, d?.best_move ? caption(st, d.best_move, null) : null) || h('p.hist-judge', { id: 'hist-judge' });
    judgeLine.replaceWith(line);
    judgeLine = line;
  }

  function update() {
    const st = step();
    if (!st) return;
    const n = steps().length - 1;
    slider.max = String(n);
    slider.value = String(H.pos);
    posLabel.textContent = t('history.pos', { n: H.pos, of: n });
    moveLine.textContent = H.pos === 0 ? t('history.deal') : caption(st);
    judge(st);
    for (const b of document.querySelectorAll('.hist-nav button')) {
      const back = b.dataset.step === 'first' || b.dataset.step === 'prev';
      b.disabled = back ? H.pos === 0 : H.pos === n;
    }
    drawBoard();
  }

  const choose = async c => {
    H.choice = c;
    try { await load(); } catch (err) { H.error = err; render(); return; }
    H.pos = Math.min(H.pos, steps().length - 1);
    update();
  };

  const sheet = () => {
    const p = H.page;
    const seats = Array.from({ length: p.players }, (_, s) => s);
    const win = new Set(p.result.winners);
    const col = s => (win.has(s) ? '.sheet-win' : '');
    const roundName = i => t(roundKey(p.game), { n: i + 1 });
    return h('div.sheet-scroll', h('table.sheet-table', { id: 'hist-sheet' },
      h('thead', h('tr', h('th', { scope: 'col' }, h('span.sr', t('sheet.col.round'))),
        seats.map(s => h('th' + col(s), { scope: 'col' }, name(s))))),
      h('tbody', p.rounds.map((r, i) => h('tr', h('th', { scope: 'row' }, roundName(i)), seats.map(s => h('td' + col(s), String(r[s] ?? '')))))),
      h('tfoot', h('tr.sheet-total', h('th', { scope: 'row' }, t('sheet.total')),
        seats.map(s => h('td' + col(s), String(p.result.scores[s])))))));
  };

  const playerList = () => {
    const p = H.page;
    return h('ul.hist-players', p.seats.map((_, s) => h('li' + (p.result.winners.includes(s) ? '.win' : ''), name(s), ' — ',
      points(p.game, p.result.scores[s]), accuracy(H.analysis, s))));
  };

  // showAnalysis puts the analysis, come after the page was drawn, in its
  // places without drawing the page again (the slider keeps its focus).
  function showAnalysis() {
    if (!marks?.isConnected) return;
    const m = markStrip(H.analysis, H.page.moves, n => go(n), name);
    marks.replaceWith(m);
    marks = m;
    const pl = playerList();
    players.replaceWith(pl);
    players = pl;
    const n = note(H.analysis) || h('p.hist-analysis', { id: 'hist-analysis', hidden: true });
    analysisNote.replaceWith(n);
    analysisNote = n;
    update();
  }

  function render() {
    clear(main);
    if (H.error) {
      const text = H.error.code === 'not_over' ? t('history.notover') : H.error.status === 404 ? t('history.notfound') : t('err.network');
      main.append(h('section.card-panel.hist-error', { id: 'history-error', dataset: { code: H.error.code || '' } }, h('p', text),
        h('div.row', h('a.button', { href: '/t/' + id }, t('history.table')), h('a', { href: '/' }, t('table.home')))));
      return;
    }
    if (!H.page) { main.append(h('p', t('home.loading'))); return; }
    const p = H.page;
    document.title = `${gameName(p.game)} · Tapis`;
    const picker = h('select', { id: 'hist-seat', 'aria-label': t('history.show'), onchange: e => choose(e.target.value) },
      p.seats.map((_, s) => h('option', { value: String(s) }, t('history.as', { name: name(s) }))),
      h('option', { value: 'all' }, t('history.all')));
    picker.value = H.choice;
    const nav = (what, label, sym, to) => h('button', { type: 'button', dataset: { step: what }, 'aria-label': t(label), title: t(label), onclick: () => go(to()) }, sym);
    slider = h('input', { type: 'range', id: 'hist-slider', min: 0, max: 0, value: 0, 'aria-label': t('history.slider'), oninput: e => go(Number(e.target.value)) });
    posLabel = h('span.hist-pos', { id: 'hist-pos', 'aria-live': 'polite' });
    moveLine = h('p.hist-move', { id: 'hist-move' });
    judgeLine = h('p.hist-judge', { id: 'hist-judge' });
    marks = markStrip(H.analysis, p.moves, n => go(n), name);
    board = h('div.game', { id: 'game', dataset: { game: p.game } });
    hands = h('section.hist-all', { id: 'hist-all' });
    main.append(h('section.history', { id: 'history', dataset: { game: p.game, match: no } },
      h('div.hist-head',
        h('h1', t('history.title', { game: gameName(p.game), no })),
        h('p.hist-result', { id: 'hist-result' }, tn('table.winners', p.result.winners.length, { names: p.result.winners.map(name).join(', ') }),
          ' · ', t('history.moves', { n: p.moves }))),
      h('div.card-panel.hist-viewer',
        h('div.row.hist-controls', picker,
          h('div.row.hist-nav',
            nav('first', 'history.first', '|◀', () => 0),
            nav('prev', 'history.prev', '◀', () => H.pos - 1),
            nav('next', 'history.next', '▶', () => H.pos + 1),
            nav('last', 'history.last', '▶|', () => Infinity)),
          posLabel),
        slider, marks, moveLine, judgeLine),
      hands, board,
      h('details.card-panel.hist-info', { open: true },
        h('summary', t('sheet.title')),
        players = playerList(),
        analysisNote = note(H.analysis) || h('p.hist-analysis', { id: 'hist-analysis', hidden: true }),
        sheet(),
        h('p.row', h('a.button', { href: `/api/tables/${id}/replay?match=${no}`, download: `tapis-${id}-${no}.json` }, t('history.export')),
          h('a', { href: '/t/' + id }, t('history.table')))),
      h('p.note.hist-keys', t('history.keys'))));
    update();
  }

  // The keyboard steps through the match, unless a field has the focus
  // (the slider and the seat picker use the arrows themselves).
  const onKey = e => {
    if (!steps() || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, select, textarea')) return;
    const to = { ArrowLeft: H.pos - 1, ArrowRight: H.pos + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);

  let stopAnalysis = () => {};
  render();
  (async () => {
    try {
      H.page = await get(`/api/tables/${id}/matches/${no}`);
      if (me === null && Number.isInteger(H.page.you)) { me = H.page.you; H.choice = String(me); }
      await load();
    } catch (err) { H.error = err; }
    render();
    if (H.error) return;
    stopAnalysis = loadAnalysis(id, no, rep => {
      if (rep?.status === H.analysis?.status) return; // still pending
      H.analysis = rep;
      H.judged = byStep(rep);
      showAnalysis();
    });
  })();
  return {
    render,
    close: () => { document.removeEventListener('keydown', onKey); stopAnalysis(); },
  };
}
