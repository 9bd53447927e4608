// The inbox (issue 29): the header's Friends link and bell with the
// unread count, and the /inbox page: friend requests answered in place,
// invitations joined in one click, your turn and game over as links, each
// marked read. docs/API.md's "Notifications".
import { h, clear, toast } from './dom.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { player, loadPlayer, onPlayer } from './player.js';
import { stylesheet } from './screen.js';
import { gameName } from './registry.js';

let unread = 0;
let polling = 0;

// named says whether the player may have friends and an inbox: a
// username is needed.
export function named() { const p = player(); return !!(p && !p.guest && p.username); }

// go opens a page of the client as a link would (app.js routes on popstate).
function go(url) {
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

const BELL = '<svg viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2z"/></svg>';
const PEOPLE = '<svg viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm7 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM9 13c-3.3 0-7 1.6-7 4v3h14v-3c0-2.4-3.7-4-7-4zm7 0c-.5 0-1 0-1.5.1 1.5.9 2.5 2.2 2.5 3.9v3h5v-3c0-2.3-3.3-4-6-4z"/></svg>';

// headerLinks is the header's Friends link and bell, shown to players
// with a username only; it follows the player and the unread count.
export function headerLinks() {
  stylesheet('friends.css');
  const box = h('span.social', { id: 'social' });
  draw(box);
  loadPlayer().then(() => { draw(box); refreshBell(); });
  if (!polling) {
    // The count comes again now and then, and when the tab comes back.
    polling = setInterval(() => { if (!document.hidden) refreshBell(); }, 30000);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshBell(); });
  }
  return box;
}

function draw(box) {
  clear(box);
  if (!named()) return;
  const words = unread ? tn('in.bell.unread', unread) : t('in.bell');
  box.append(
    h('a.toplink', { href: '/friends', id: 'toplink-friends', title: t('fr.link') }, h('span', { 'aria-hidden': 'true', html: PEOPLE }), h('span.tl-text', t('fr.link'))),
    h('a.toplink.bell' + (unread ? '.unread' : ''), { href: '/inbox', id: 'bell', title: words, 'aria-label': words },
      h('span', { 'aria-hidden': 'true', html: BELL }), unread ? h('span.bellcount', { 'aria-hidden': 'true' }, unread > 99 ? '99+' : unread) : null));
}

onPlayer(() => { const box = document.getElementById('social'); if (box) draw(box); refreshBell(); });

// refreshBell asks for the unread count again and redraws the bell.
export async function refreshBell() {
  if (!named()) { unread = 0; return; }
  try { setUnread((await api('GET', '/api/me/inbox')).unread); } catch { /* the bell keeps its count */ }
}

function setUnread(n) {
  unread = n || 0;
  const box = document.getElementById('social');
  if (box) draw(box);
}

// itemLink is where a notification leads: a table's page, a friends' page.
function itemLink(it) {
  const p = it.payload || {};
  if (it.kind === 'friend_request') return '/friends';
  if (p.table) return '/t/' + p.table;
  return null;
}

// itemText is a notification in words.
function itemText(it) {
  const p = it.payload || {};
  const game = p.game ? gameName(p.game) : '';
  return t('in.kind.' + it.kind, { name: p.name || '', username: p.username || '', game });
}

// inboxPage draws /inbox into main and returns the page's {render, close}.
export function inboxPage(main) {
  stylesheet('friends.css');
  let data = null;
  let err = '';
  const done = new Map(); // by notification id: what was done in place ('accept', 'decline')
  let friends = null;     // GET /api/me/friends: which requests are still open
  const load = async () => {
    await loadPlayer();
    if (!named()) { render(); return; }
    try {
      // A request is answered once: the friends' list says which are still open.
      [data, friends] = await Promise.all([api('GET', '/api/me/inbox'), api('GET', '/api/me/friends')]);
      setUnread(data.unread); err = '';
    } catch (e) { err = refusalText(e); }
    render();
  };
  const read = async ids => {
    try { await api('POST', '/api/me/inbox/read', { ids }); } catch { return; }
    for (const it of data?.items || []) if (!ids.length || ids.includes(it.id)) it.read = true;
    data.unread = (data.items || []).filter(it => !it.read).length;
    setUnread(data.unread);
    render();
  };
  const answer = async (it, verb) => {
    try {
      await api('POST', `/api/me/friends/${it.payload.player}/${verb}`);
      done.set(it.id, verb);
    } catch (e) { toast(refusalText(e)); }
    await read([it.id]);
  };
  const join = async it => {
    const p = it.payload;
    try {
      const r = await api('POST', `/api/tables/${p.table}/join`, { name: player()?.name || '' });
      // Kept as the table page keeps a seat (app.js's tokens).
      localStorage.setItem('tapis.seat.' + p.table, JSON.stringify({ seat: r.seat, token: r.token, invite: r.invite }));
    } catch (e) {
      toast(e.status === 409 && e.code === 'full' ? t('table.full') : refusalText(e));
      await read([it.id]);
      return;
    }
    await read([it.id]);
    go('/t/' + p.table);
  };
  const line = it => {
    const link = itemLink(it);
    const when = new Date(it.created).toLocaleString();
    const acts = [];
    if (it.kind === 'friend_request') {
      // Answered here, answered before (now friends), or still open.
      const from = it.payload?.player;
      if (done.has(it.id)) acts.push(h('span.note', t('in.done.' + done.get(it.id))));
      else if (friends?.incoming.some(f => f.id === from)) {
        acts.push(h('button.primary', { type: 'button', 'data-accept': from, onclick: () => answer(it, 'accept') }, t('fr.accept')),
          h('button', { type: 'button', 'data-decline': from, onclick: () => answer(it, 'decline') }, t('fr.decline')));
      } else if (friends?.friends.some(f => f.id === from)) acts.push(h('span.note', t('in.done.friends')));
    } else if (it.kind === 'invitation') {
      acts.push(h('button.primary', { type: 'button', 'data-join': it.payload.table, onclick: () => join(it) }, t('in.join')));
    } else if (link) {
      acts.push(h('a.button', { href: link, 'data-open': it.id, onclick: e => { e.preventDefault(); read([it.id]).then(() => go(link)); } }, t('in.open')));
    }
    if (!it.read) acts.push(h('button.quiet', { type: 'button', 'data-read': it.id, onclick: () => read([it.id]) }, t('in.markread')));
    return h('li' + (it.read ? '' : '.unread'), { dataset: { id: it.id, kind: it.kind } },
      h('div.itext', h('span.ikind', itemText(it)), h('time.iwhen', { datetime: it.created }, when)),
      h('div.acts', acts));
  };
  const render = () => {
    clear(main);
    const page = h('section.inbox', { id: 'inbox' },
      h('div.inboxtop', h('h1', t('in.title')), h('span.inboxlinks',
        h('a.inboxset', { href: '/friends', id: 'to-friends' }, t('fr.link')),
        h('a.inboxset', { href: '/notifications', id: 'to-notify-settings' }, t('ns.link')))));
    main.append(page);
    if (!named()) { page.append(h('p.card-panel', { id: 'inbox-need' }, t('fr.need'))); return; }
    if (err) page.append(h('p.ferr', err));
    if (!data) { page.append(h('p', t('home.loading'))); return; }
    const panel = h('div.card-panel',
      h('div.row.inboxbar', h('span', { id: 'inbox-unread' }, tn('in.unread', data.unread)),
        data.unread ? h('button', { type: 'button', 'data-action': 'read-all', onclick: () => read([]) }, t('in.readall')) : null),
      data.items.length ? h('ul.ilist', { id: 'inbox-list' }, data.items.map(line)) : h('p.note', t('in.empty')));
    page.append(panel);
  };
  const off = onPlayer(() => load());
  render();
  load();
  return { render, close: off };
}
