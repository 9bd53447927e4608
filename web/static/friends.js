// Friends (issue 29): the Friends page (a request by username, the
// requests both ways, the list with who is online, remove, block and the
// blocked list) and, at a table where the player sits, "Invite a friend".
// Every request is docs/API.md's "Friends and blocks"; every answer is the
// whole list, which the page draws again.
import { h, clear, toast } from './dom.js';
import { t, has } from './i18n.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { loadPlayer, onPlayer } from './player.js';
import { stylesheet } from './screen.js';
import { refreshBell, named } from './inbox.js';

// words puts a refusal of these routes into words: their own codes first.
export function words(err) {
  const k = 'fr.err.' + (err.code || '');
  if (has(k)) return t(k, { n: err.retry || 60 });
  if (err.status === 429) return t('fr.err.slow', { n: err.retry || 60 });
  return refusalText(err);
}

// person is an entry's name and username as a line shows them.
function person(f) {
  return [h('span.fname', f.name), ' ', h('span.fuser', '@' + f.username)];
}

// friendsPage draws /friends into main and returns the page's {render, close}.
export function friendsPage(main) {
  stylesheet('friends.css');
  let list = null;   // the last answer
  let note = null;   // {ok} or {err}: the last action in words
  let typed = '';    // the username field, kept across redraws
  let timer = 0;
  const set = r => { list = r; render(); };
  const act = async (method, path, body, ok) => {
    try { set(await api(method, path, body)); note = ok ? { ok } : null; } catch (err) { note = { err: words(err) }; }
    render();
    refreshBell();
  };
  const load = async () => {
    await loadPlayer();
    if (!named()) { list = null; render(); return; }
    try { set(await api('GET', '/api/me/friends')); } catch (err) { note = { err: words(err) }; render(); }
  };
  const render = () => {
    clear(main);
    const page = h('section.friends', { id: 'friends' }, h('h1', t('fr.title')));
    main.append(page);
    if (!named()) { page.append(h('p.card-panel.fneed', { id: 'friends-need' }, t('fr.need'))); return; }
    const input = h('input', { name: 'username', autocomplete: 'off', maxlength: 24, value: typed, placeholder: t('fr.username'), 'aria-label': t('fr.username'), oninput: e => { typed = e.target.value; } });
    const ask = h('form.card-panel.fask', {
      id: 'friend-ask', onsubmit: e => {
        e.preventDefault();
        const u = input.value.trim().replace(/^@/, '');
        if (!u) return;
        typed = '';
        act('POST', '/api/me/friends', { username: u }, t('fr.asked', { username: u }));
      },
    }, h('h2', t('fr.ask')), h('div.row', input,
      h('button.primary', { type: 'submit', 'data-action': 'friend-ask' }, t('fr.ask.submit')),
      h('button', { type: 'button', 'data-action': 'block-user', onclick: () => {
        const u = input.value.trim().replace(/^@/, '');
        if (u) { typed = ''; act('POST', '/api/me/blocks', { username: u }, t('fr.blocked.ok', { username: u })); }
      } }, t('fr.block'))),
    note ? h('p' + (note.err ? '.ferr' : '.fok'), { role: 'status' }, note.err || note.ok) : null);
    page.append(ask);
    if (!list) { page.append(h('p', t('home.loading'))); return; }
    const blockBtn = f => h('button.quiet', { type: 'button', 'data-block': f.id, title: t('fr.block.title'), onclick: () => act('POST', '/api/me/blocks', { player: f.id }) }, t('fr.block'));
    if (list.incoming.length) {
      page.append(h('div.card-panel.fin', { id: 'friends-in' }, h('h2', t('fr.incoming')), h('ul.flist', list.incoming.map(f => h('li', { dataset: { player: f.id } },
        h('span.who', person(f)), h('span.acts',
          h('button.primary', { type: 'button', 'data-accept': f.id, onclick: () => act('POST', `/api/me/friends/${f.id}/accept`) }, t('fr.accept')),
          h('button', { type: 'button', 'data-decline': f.id, onclick: () => act('POST', `/api/me/friends/${f.id}/decline`) }, t('fr.decline')),
          blockBtn(f)))))));
    }
    const online = [...list.friends].sort((a, b) => (b.online ? 1 : 0) - (a.online ? 1 : 0) || a.name.localeCompare(b.name));
    page.append(h('div.card-panel.fmine', { id: 'friends-list' }, h('h2', t('fr.list'), ' ', h('span.count', list.friends.length)),
      online.length ? h('ul.flist', online.map(f => h('li' + (f.online ? '.online' : ''), { dataset: { player: f.id } },
        h('span.dot', { role: 'img', 'aria-label': t(f.online ? 'fr.online' : 'fr.offline'), title: t(f.online ? 'fr.online' : 'fr.offline') }),
        h('a.who', { href: '/p/' + f.id }, person(f)),
        h('span.acts',
          h('button', { type: 'button', 'data-remove': f.id, onclick: () => act('DELETE', `/api/me/friends/${f.id}`) }, t('fr.remove')),
          blockBtn(f))))) : h('p.note', t('fr.none'))));
    if (list.outgoing.length) {
      page.append(h('div.card-panel.fout', { id: 'friends-out' }, h('h2', t('fr.outgoing')), h('ul.flist', list.outgoing.map(f => h('li', { dataset: { player: f.id } },
        h('span.who', person(f)), h('span.acts',
          h('button', { type: 'button', 'data-withdraw': f.id, onclick: () => act('DELETE', `/api/me/friends/${f.id}`) }, t('fr.withdraw'))))))));
    }
    page.append(h('details.card-panel.fblocked', { id: 'friends-blocked', open: list.blocked.length > 0 },
      h('summary', t('fr.blocked'), ' ', h('span.count', list.blocked.length)),
      h('p.note', t('fr.blocked.about')),
      list.blocked.length ? h('ul.flist', list.blocked.map(f => h('li', { dataset: { player: f.id } },
        h('span.who', person(f)), h('span.acts',
          h('button', { type: 'button', 'data-unblock': f.id, onclick: () => act('DELETE', `/api/me/blocks/${f.id}`) }, t('fr.unblock')))))) : null));
  };
  const off = onPlayer(() => load());
  render();
  load();
  // Who is online changes while the page is open: asked again now and then.
  timer = setInterval(() => { if (named() && !document.hidden) api('GET', '/api/me/friends').then(set, () => {}); }, 30000);
  return { render, close: () => { off(); clearInterval(timer); } };
}

// The invite controls, one per table, kept across the table's redraws
// (which put the same element back), so that an open list stays open.
const invites = new Map();

// inviteFriend is, at a table where the player sits and which is not
// over, "Invite a friend": a list of friends, the online ones first, each
// with an Invite button. null for a guest.
export function inviteFriend(tableID) {
  if (!named()) return null;
  if (invites.has(tableID)) return invites.get(tableID).render();
  stylesheet('friends.css');
  const sent = new Set();
  let list = null;
  let err = '';
  const box = h('details.invitefriend', { id: 'invite-friend' });
  const ui = {
    render() {
      clear(box);
      box.append(h('summary', { 'data-action': 'invite-friend' }, t('fr.invite.open')));
      if (err) box.append(h('p.ferr', { role: 'status' }, err));
      if (!list) { box.append(h('p.note', t('home.loading'))); return box; }
      const fs = [...list.friends].sort((a, b) => (b.online ? 1 : 0) - (a.online ? 1 : 0) || a.name.localeCompare(b.name));
      if (!fs.length) { box.append(h('p.note', t('fr.invite.none'), ' ', h('a', { href: '/friends' }, t('fr.link')))); return box; }
      box.append(h('ul.flist', fs.map(f => h('li' + (f.online ? '.online' : ''), { dataset: { player: f.id } },
        h('span.dot', { role: 'img', 'aria-label': t(f.online ? 'fr.online' : 'fr.offline') }),
        h('span.who', person(f)),
        h('button', { type: 'button', 'data-invite': f.id, disabled: sent.has(f.id), onclick: async () => {
          try {
            await api('POST', '/api/me/invitations', { table: tableID, player: f.id });
            sent.add(f.id); err = '';
            toast(t('fr.invite.sent', { name: f.name }), 'info');
          } catch (e) { err = words(e); }
          ui.render();
        } }, sent.has(f.id) ? t('fr.invite.done') : t('fr.invite'))))));
      return box;
    },
  };
  box.addEventListener('toggle', async () => {
    if (!box.open) return;
    try { list = await api('GET', '/api/me/friends'); err = ''; } catch (e) { err = words(e); }
    ui.render();
  });
  invites.set(tableID, ui);
  return ui.render();
}
