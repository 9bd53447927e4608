// The chat at a table: a panel of the table's lines and a line to write,
// for the players and the spectators. It lives outside the table's
// drawing (which is redone at every message), so that what is being typed,
// the focus and the scroll stay; its button, with the number of lines
// unread, sits in the page's header, which stays in view. On a wide screen the open panel sits
// beside the table, which makes room for it; on a narrow one it covers
// the table below the header until it is closed.
//
// Lines are text, never markup: every one is put in with textContent. A
// player may mute anyone for themselves (remembered in this browser, per
// table): their lines are folded into a note that can be undone. The host
// may also mute a spectator for everyone (the server's "mute").
import { h, clear } from './dom.js';
import { t, getLang } from './i18n.js';
import { stylesheet } from './screen.js';

const MAX = 500; // the server's limit, in characters
const KEEP = 200; // lines kept on the page
const WIDE = '(min-width: 1100px)'; // docked beside the table from here
const OPEN = 'tapis.chat.open';
const BUBBLE = '<svg viewBox="0 0 20 20" width="1.1em" height="1.1em"><path d="M3 4.5A2.5 2.5 0 0 1 5.5 2h9A2.5 2.5 0 0 1 17 4.5v6a2.5 2.5 0 0 1-2.5 2.5H9l-4 4v-4h.5A2.5 2.5 0 0 1 3 10.5z" fill="currentColor"/></svg>';

// The chat's error codes (wire/code.go): shown in the panel, not
// as the table's refusals.
const CODES = new Set(['chat_empty', 'chat_long', 'chat_slow', 'chat_name', 'chat_failed', 'muted', 'bad_name', 'name_taken', 'named']);

// chatPanel serves one table page: id is the table's, ctx the page's table
// (app.js: seat, info), send(message) writes to the socket and says
// whether it could.
export function chatPanel(id, ctx, send) {
  stylesheet('chat.css');
  const mutedKey = 'tapis.chat.muted.' + id;
  let lines = [];
  let unread = 0;
  let open = localStorage.getItem(OPEN) === '1' && matchMedia(WIDE).matches;
  let named = false; // this connection's hello was answered
  let badName = false; // the server refused the name: ask for another
  let myFrom = ''; // the "from" of this spectator's lines
  let menu = 0; // the line whose actions are shown
  let nextID = 1;
  const pending = new Map(); // id → text, to put back a refused line
  const shown = new Set(); // muted lines shown anyway, by number
  const hostMuted = new Set(); // spectators the host muted, by from
  let lang = getLang();
  const btn = h('button.chat-open', { type: 'button', 'data-action': 'chat', 'aria-controls': 'chat', onclick: () => setOpen(!open) });

  const muted = new Set(JSON.parse(localStorage.getItem(mutedKey) || '[]'));
  const saveMuted = () => localStorage.setItem(mutedKey, JSON.stringify([...muted]));
  const key = l => (l.spectator ? 's:' : 'p:') + l.name;
  const mine = l => (l.spectator ? l.from && l.from === myFrom : l.seat === ctx.seat);

  const list = h('ol.chat-lines', { id: 'chat-lines', 'aria-live': 'polite' });
  const status = h('p.chat-status', { id: 'chat-status', role: 'status' });
  const input = h('input.chat-input', {
    id: 'chat-input', type: 'text', maxlength: MAX, autocomplete: 'off', enterkeyhint: 'send',
    onkeydown: e => { if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); say(); } },
  });
  const nameIn = h('input.chat-name', { id: 'chat-name', type: 'text', maxlength: 24, autocomplete: 'nickname' });
  const sendB = h('button.primary.chat-send', { type: 'button', id: 'chat-send', onclick: () => say() });
  const closeB = h('button.chat-close', { type: 'button', 'data-action': 'chat-close', onclick: () => setOpen(false) }, '×');
  const title = h('h2.chat-title', { id: 'chat-title' });
  const nameRow = h('label.chat-namerow');
  const panel = h('aside.chat', { id: 'chat', 'aria-labelledby': 'chat-title', hidden: true,
    onkeydown: e => { if (e.key === 'Escape') setOpen(false); } },
  h('div.chat-head', title, closeB), list, status, nameRow, h('div.chat-write', input, sendB));
  document.body.append(panel);
  note('');

  // The name a spectator writes under: the one this browser knows.
  const spectatorName = () => (nameIn.value.trim() || (badName ? '' : localStorage.getItem('tapis.name')) || '').trim();

  function say() {
    const text = input.value.trim();
    if (!text) return;
    if (ctx.seat < 0 && !named) {
      const n = spectatorName();
      if (!n) { note(t('chat.name.need')); nameIn.focus(); return; }
      if (!send({ type: 'hello', name: n })) { note(t('table.reconnecting')); return; }
    }
    const mid = nextID++;
    if (!send({ type: 'chat', text, id: mid })) { note(t('table.reconnecting')); return; }
    pending.set(mid, text);
    input.value = '';
    note('');
  }

  function note(text) { status.textContent = text; status.hidden = !text; }

  function setOpen(on) {
    open = on;
    localStorage.setItem(OPEN, on ? '1' : '0');
    if (on) { unread = 0; menu = 0; }
    layout();
    if (on) { draw(); input.focus({ preventScroll: true }); }
    else btn?.focus({ preventScroll: true });
  }

  // layout places the panel: beside the table below the header on a wide
  // screen, a sheet over the table's lower part on a narrow one (chat.css).
  function layout() {
    const wide = matchMedia(WIDE).matches;
    const top = document.getElementById('top')?.getBoundingClientRect().bottom || 0;
    panel.hidden = !open;
    panel.classList.toggle('docked', wide);
    panel.style.top = wide ? Math.max(0, Math.round(top)) + 'px' : '';
    document.body.classList.toggle('chat-docked', open && wide);
    drawButton();
  }
  const onResize = () => layout();
  window.addEventListener('resize', onResize);

  function drawButton() {
    btn.setAttribute('aria-expanded', open ? 'true' : 'false');
    btn.classList.toggle('on', open);
    // A bubble, and the word where there is room for it (chat.css).
    clear(btn).append(h('span.chat-icon', { 'aria-hidden': 'true', html: BUBBLE }), h('span.chat-label', t('chat.button')));
    btn.setAttribute('aria-label', t('chat.button'));
    btn.title = t('chat.button');
    if (unread > 0) btn.append(h('span.chat-unread', { 'aria-label': t('chat.unread', { n: unread }) }, String(Math.min(unread, 99))));
  }

  // lineEl is one line: the writer's name (a button: the actions on the
  // line), a spectator's mark, the text.
  function lineEl(l) {
    const k = key(l);
    if (muted.has(k) && !shown.has(l.no)) {
      return h('li.chat-line.chat-hidden', { dataset: { no: l.no } },
        h('span.chat-note', t('chat.hidden', { name: l.name })), ' ',
        h('button.chat-link', { type: 'button', dataset: { chatShow: l.no }, onclick: () => { shown.add(l.no); draw(); } }, t('chat.show')), ' ',
        h('button.chat-link', { type: 'button', dataset: { chatUnmute: k }, onclick: () => { muted.delete(k); saveMuted(); draw(); } }, t('chat.unmute', { name: l.name })));
    }
    const me = mine(l);
    const who = me
      ? h('span.chat-who', l.name)
      : h('button.chat-who', { type: 'button', 'aria-expanded': menu === l.no ? 'true' : 'false', title: t('chat.actions', { name: l.name }),
        onclick: () => { menu = menu === l.no ? 0 : l.no; draw(); } }, l.name);
    const li = h('li.chat-line' + (l.spectator ? '.spectator' : '') + (me ? '.mine' : ''), { dataset: { no: l.no } },
      who, l.spectator ? h('span.chat-tag', t('chat.spectator')) : null, h('span.chat-text'));
    li.querySelector('.chat-text').textContent = l.text;
    if (menu === l.no && !me) {
      const host = ctx.seat >= 0 && ctx.seat === ctx.info?.host;
      li.append(h('div.chat-menu',
        muted.has(k)
          ? h('button', { type: 'button', dataset: { chatUnmute: k }, onclick: () => { muted.delete(k); saveMuted(); menu = 0; draw(); } }, t('chat.unmute', { name: l.name }))
          : h('button', { type: 'button', dataset: { chatMute: k }, onclick: () => { muted.add(k); saveMuted(); menu = 0; draw(); } }, t('chat.mute')),
        host && l.spectator && l.from && !hostMuted.has(l.from)
          ? h('button.danger', { type: 'button', dataset: { chatHostmute: l.from }, onclick: () => { send({ type: 'mute', spectator: l.from }); menu = 0; draw(); } }, t('chat.mute.all'))
          : null));
    }
    return li;
  }

  function draw() {
    lang = getLang();
    title.textContent = t('chat.title');
    closeB.setAttribute('aria-label', t('chat.close'));
    sendB.textContent = t('chat.send');
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.placeholder'));
    // A spectator whom this browser cannot name is asked for a name.
    const ask = ctx.seat < 0 && !named && (badName || !localStorage.getItem('tapis.name'));
    clear(nameRow).append(t('home.name'), ' ', nameIn);
    nameRow.hidden = !ask;
    nameIn.placeholder = t('home.name.placeholder');
    if (!open) { drawButton(); return; }
    const end = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    clear(list).append(...(lines.length ? lines.map(lineEl) : [h('li.chat-empty', t('chat.empty'))]));
    if (end) list.scrollTop = list.scrollHeight;
    drawButton();
  }

  function add(l, old) {
    lines.push(l);
    if (lines.length > KEEP) lines.shift();
    if (!old && !open && !mine(l) && !muted.has(key(l))) unread++;
  }

  return {
    // onMessage takes the chat's messages (and its errors) and says
    // whether it did; 'welcome' starts a new connection (no hello yet).
    onMessage(m) {
      switch (m.type) {
        case 'welcome':
          // A new connection: a spectator says its name again, with its
          // first line.
          named = false; myFrom = '';
          return false;
        case 'chat_history':
          lines = [];
          for (const l of m.lines) add(l, true);
          draw();
          return true;
        case 'chat':
          add(m.line, false);
          if (mine(m.line)) for (const [k, v] of pending) if (v === m.line.text) { pending.delete(k); break; }
          draw();
          return true;
        case 'hello':
          named = true; myFrom = m.from; badName = false;
          if (nameIn.value.trim()) localStorage.setItem('tapis.name', m.name);
          draw();
          return true;
        case 'muted':
          hostMuted.add(m.spectator);
          if (m.spectator === myFrom) note(t('err.muted'));
          draw();
          return true;
        case 'error': {
          if (!CODES.has(m.code)) return false;
          const text = pending.get(m.id);
          pending.delete(m.id);
          if (text && !input.value) input.value = text; // to send again
          if (m.code === 'name_taken' || m.code === 'bad_name') { badName = true; nameIn.value = ''; }
          // The line sent after a refused hello is refused for want of a
          // name: the hello's reason is the one to read.
          if (!(m.code === 'chat_name' && badName)) note(t('err.' + m.code, { n: m.retry_after || 1 }));
          if (!open) setOpen(true);
          else draw();
          return true;
        }
      }
      return false;
    },
    // show puts the chat's button in the page's header (drawn anew on
    // a language switch) and lays the panel out, once the table is
    // drawn.
    show() {
      const row = document.querySelector('#top .row');
      if (row && btn.parentNode !== row) row.prepend(btn);
      if (lang !== getLang()) draw();
      layout();
      if (open && !list.childElementCount) draw();
    },
    close() {
      window.removeEventListener('resize', onResize);
      document.body.classList.remove('chat-docked');
      panel.remove();
      btn.remove();
    },
  };
}
