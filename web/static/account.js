// The header's "who you are" button and the account panel it opens: change
// the name, claim a username and password, sign in (from any device), sign
// out (here or everywhere), change the password, delete the account. Every
// request is docs/API.md's "Players and sessions"; the session cookie is
// HttpOnly, so the page only ever sees the player the server answers with.
import { h, clear } from './dom.js';
import { t, has } from './i18n.js';
import { api } from './api.js';
import { refusalText } from './refusal.js';
import { player, setPlayer, ensurePlayer, onPlayer, savedName, loadPlayer } from './player.js';

let panel = null; // the open panel's overlay element
let back = null;  // the element focused before the panel opened
const notes = {}; // by form: {ok} or {err}, the last answer in words
// What was typed in the panel's fields but passwords, by form and field,
// so that a redraw (an answer, a language switch) keeps a username.
const typed = {};

// accountChip is the header's button: the player's name and "guest" or
// their username, or "Sign in" before there is a player.
export function accountChip() {
  const btn = h('button.me', { id: 'me', type: 'button', 'data-action': 'account', 'aria-haspopup': 'dialog', onclick: openAccount });
  drawChip(btn);
  loadPlayer();
  if (panel) renderPanel(); // a language switch redraws the header
  return btn;
}

function drawChip(btn) {
  const p = player();
  clear(btn).append(...(p
    ? [h('span.nm', p.name), h('span.handle', p.guest ? t('acct.guest') : '@' + p.username)]
    : [t('acct.signin')]));
  // The name may be cut on a phone: the title keeps it whole.
  btn.title = p ? `${p.name} (${p.guest ? t('acct.guest') : '@' + p.username}): ${t('acct.title')}` : t('acct.title');
}

onPlayer(() => {
  const btn = document.getElementById('me');
  if (btn) drawChip(btn);
  if (panel) renderPanel();
});

// openAccount shows the panel over the page.
export function openAccount() {
  if (panel) return;
  back = document.activeElement;
  panel = h('div.overlay.account-overlay', {
    id: 'account',
    onclick: e => { if (e.target === panel) closeAccount(); },
  });
  document.body.append(panel);
  document.addEventListener('keydown', onKey);
  for (const k of Object.keys(notes)) delete notes[k];
  for (const k of Object.keys(typed)) delete typed[k];
  renderPanel();
  panel.querySelector('input')?.focus();
}

export function closeAccount() {
  if (!panel) return;
  panel.remove();
  panel = null;
  document.removeEventListener('keydown', onKey);
  back?.focus?.();
}

function onKey(e) { if (e.key === 'Escape') closeAccount(); }

// explain puts a refusal into words: the account's codes first, then the
// reason or code every page knows (refusal.js).
export function explain(err) {
  if (err.status === 429) return t('acct.err.slow', { n: err.retry || 10 });
  const code = err.code || '';
  if (code === 'need_name') return t('home.error.name');
  if (has('acct.err.' + code)) return t('acct.err.' + code);
  if (err instanceof TypeError) return t('err.network');
  return refusalText(err);
}

// The rules docs/API.md gives, checked here too so that a player hears
// what is wrong before sending anything.
const USERNAME = /^[A-Za-z0-9_.-]{3,20}$/;
function checkUsername(u) { if (!USERNAME.test(u)) throw Object.assign(new Error('username'), { code: 'bad_username' }); }
function checkPassword(pw) {
  if (pw.length < 8) throw Object.assign(new Error('password'), { code: 'bad_password' });
  if (new TextEncoder().encode(pw).length > 1024) throw Object.assign(new Error('password'), { code: 'password_long' });
}

// form is one of the panel's forms: its fields (name, label, type,
// autocomplete, value), its button (red when danger), and the action run
// with the fields' values; the answer, good or bad, shows under the
// button.
function form(id, title, fields, submit, action, extra, danger = false) {
  const note = notes[id];
  const kept = f => (f.type === 'password' ? undefined : typed[id + '.' + f.name]);
  const inputs = fields.map(f => h('input', {
    name: f.name, type: f.type || 'text', autocomplete: f.auto || 'off', maxlength: f.max, value: kept(f) ?? f.value ?? '',
    required: true, spellcheck: 'false', autocapitalize: 'none',
    oninput: f.type === 'password' ? null : e => { typed[id + '.' + f.name] = e.target.value; },
  }));
  const el = h('form.acct-form', {
    id: 'acct-' + id,
    onsubmit: async e => {
      e.preventDefault();
      const values = Object.fromEntries(inputs.map(i => [i.name, i.value]));
      const btn = el.querySelector('button[type=submit]');
      btn.disabled = true;
      fields.forEach(f => { if (f.type !== 'password') typed[id + '.' + f.name] = values[f.name]; });
      try {
        notes[id] = { ok: await action(values) || t('acct.done') };
        for (const f of fields) delete typed[id + '.' + f.name];
      } catch (err) {
        notes[id] = { err: explain(err) };
      }
      if (panel) renderPanel(id);
    },
  },
  title ? h('h3', title) : null,
  extra || null,
  fields.map((f, i) => h('label', f.label, ' ', inputs[i])),
  h('div.row', h('button', { type: 'submit', class: danger ? 'danger' : 'primary', 'data-action': 'acct-' + id }, submit)),
  note?.err ? h('p.acct-err', { role: 'alert' }, note.err) : null,
  note?.ok ? h('p.acct-ok', { role: 'status' }, note.ok) : null);
  return el;
}

// menu is the signed-in player's own pages (issue 26): their profile, and
// their finished games, rated or not (mygames.js), each a link to its replay.
function menu(p) {
  const prof = '/p/' + encodeURIComponent(p.id);
  return h('nav.acct-menu', { id: 'acct-menu', 'aria-label': t('acct.menu') },
    h('a', { href: prof, 'data-action': 'my-profile' }, t('acct.menu.profile')),
    h('a', { href: '/games', 'data-action': 'my-games' }, t('acct.menu.games')));
}

// renderPanel draws the panel for the player as now known; focus goes
// back to the form that was just answered.
function renderPanel(focusForm) {
  const p = player();
  const name = savedName();
  const who = p
    ? (p.guest ? t('acct.is.guest', { name: p.name }) : t('acct.is.user', { name: p.name, user: p.username }))
    : t('acct.is.none');
  // A player who is not signed in is asked to sign in first (issue 26):
  // someone with a username comes back more often than a newcomer
  // chooses one; creating an account comes second, the guest's name last.
  const nameForm = form('name', p ? null : t('acct.guest.title'), [{ name: 'acct_name', label: t('home.name'), value: name, max: 24, auto: 'nickname' }], t('acct.name.save'),
    async v => { await ensurePlayer(v.acct_name); return t('acct.name.saved'); });
  const parts = [];
  if (p && !p.guest) parts.push(menu(p), nameForm);
  if (!p || p.guest) {
    parts.push(form('signin', t('acct.signin.title'), [
      { name: 'username', label: t('acct.username'), max: 20, auto: 'username' },
      { name: 'password', label: t('acct.password'), type: 'password', auto: 'current-password' },
    ], t('acct.signin'), async v => {
      const r = await api('POST', '/api/account/signin', { username: v.username.trim(), password: v.password });
      setPlayer(r.player || (await api('GET', '/api/me')).player);
      return t('acct.signin.done');
    }, h('p.acct-note', t('acct.signin.why'))));
    parts.push(form('claim', t('acct.claim'), [
      { name: 'username', label: t('acct.username'), max: 20, auto: 'username' },
      { name: 'password', label: t('acct.password'), type: 'password', auto: 'new-password' },
    ], t('acct.claim.submit'), async v => {
      checkUsername(v.username); checkPassword(v.password);
      // A visitor with no player yet becomes the guest that claims, under
      // the name they gave, else under the username: never "give your
      // name" to someone who typed one already.
      await ensurePlayer(name || document.querySelector('#acct-name input')?.value.trim() || v.username);
      const r = await api('POST', '/api/account/claim', { username: v.username, password: v.password });
      setPlayer(r.player || { ...player(), username: v.username, guest: false });
      return t('acct.claim.done', { user: v.username });
    }, h('p.acct-note', t('acct.claim.why'))));
    parts.push(nameForm);
  } else {
    parts.push(form('password', t('acct.pw.title'), [
      { name: 'old', label: t('acct.pw.old'), type: 'password', auto: 'current-password' },
      { name: 'new', label: t('acct.pw.new'), type: 'password', auto: 'new-password' },
    ], t('acct.pw.submit'), async v => {
      checkPassword(v.new);
      await api('POST', '/api/account/password', { old: v.old, new: v.new });
      return t('acct.pw.done');
    }));
    parts.push(h('div.acct-form', { id: 'acct-signout' }, h('h3', t('acct.signout.title')), h('div.row',
      h('button', { type: 'button', 'data-action': 'signout', onclick: () => signOut(false) }, t('acct.signout')),
      h('button', { type: 'button', 'data-action': 'signout-all', onclick: () => signOut(true) }, t('acct.signout.all'))),
    notes.signout?.err ? h('p.acct-err', { role: 'alert' }, notes.signout.err) : null));
  }
  if (p) {
    const fields = p.guest ? [] : [{ name: 'password', label: t('acct.password'), type: 'password', auto: 'current-password' }];
    const del = form('delete', null, fields, t('acct.delete.submit'), async v => {
      await api('POST', '/api/account/delete', { password: v.password || '' });
      setPlayer(null);
      localStorage.removeItem('tapis.name');
      return t('acct.delete.done');
    }, h('p.acct-warn', t(p.guest ? 'acct.delete.guest' : 'acct.delete.warn')), true);
    parts.push(h('details.acct-delete', { open: !!notes.delete?.err }, h('summary', t('acct.delete')), del));
  } else if (notes.delete?.ok) {
    parts.push(h('p.acct-ok', { role: 'status' }, notes.delete.ok));
  }
  const box = h('div.card-panel.account', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'acct-title' },
    h('div.acct-head', h('h2', { id: 'acct-title' }, t('acct.title')),
      h('button.close', { type: 'button', 'data-action': 'account-close', 'aria-label': t('acct.close'), onclick: closeAccount }, '×')),
    h('p.acct-who', { id: 'acct-who' }, who),
    parts);
  clear(panel).append(box);
  if (focusForm) panel.querySelector(`#acct-${focusForm} input, #acct-${focusForm} button`)?.focus();
}

async function signOut(everywhere) {
  try {
    await api('POST', '/api/account/signout', { everywhere });
    setPlayer(null);
    notes.signout = null;
    notes.name = { ok: t(everywhere ? 'acct.signout.all.done' : 'acct.signout.done') };
  } catch (err) {
    notes.signout = { err: explain(err) };
  }
  if (panel) renderPanel();
}
