// Notification settings (issue 29): each kind × channel (in the inbox
// always; by e-mail and by push when the server sends on them), the
// e-mail address and whether it is verified, and "Enable notifications on
// this device": the service worker (/sw.js) and the Push API's
// subscription, given to the server. docs/API.md's "Notifications".
import { h, clear } from './dom.js';
import { t, getLang } from './i18n.js';
import { api } from './api.js';
import { loadPlayer, onPlayer } from './player.js';
import { named } from './inbox.js';
import { words } from './friends.js';
import { stylesheet } from './screen.js';

// pushSupport says whether this browser can take pushes at all.
export function pushSupport() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

// b64 is a base64url string as the bytes applicationServerKey takes.
function b64(s) {
  const pad = '='.repeat((4 - s.length % 4) % 4);
  const raw = atob((s + pad).replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, c => c.charCodeAt(0));
}

// PUSH_WAIT is how long the browser's push service is given to answer a
// subscription (a first one may take a few seconds).
const PUSH_WAIT = 20000;

// worker registers the service worker, served at the site's root so that
// its scope is the whole site.
function worker() { return navigator.serviceWorker.register('/sw.js', { scope: '/' }); }

// notifySettingsPage draws /notifications into main and returns {render, close}.
export function notifySettingsPage(main) {
  stylesheet('friends.css');
  const S = {
    prefs: null, channels: [], email: null, mailOn: false, typed: null,
    push: 'checking', // checking, unsupported, off (the server sends none), denied, ready, on, failed
    pushErr: '', key: '', notes: {},
  };
  const note = (k, v) => { S.notes[k] = v; render(); };
  const load = async () => {
    await loadPlayer();
    if (!named()) { render(); return; }
    try {
      const r = await api('GET', '/api/me/notifications');
      S.prefs = r.prefs; S.channels = r.channels || []; S.digest = !!r.digest;
    } catch (e) { S.notes.prefs = { err: words(e) }; }
    if (S.channels.includes('email')) {
      try { S.email = await api('GET', '/api/me/email'); S.mailOn = true; } catch { S.mailOn = false; }
    }
    await pushState();
    render();
  };
  const pushState = async () => {
    if (!pushSupport()) { S.push = 'unsupported'; return; }
    try { S.key = (await api('GET', '/api/push/key')).key; } catch { S.push = 'off'; return; }
    try {
      const reg = await worker();
      const sub = await reg.pushManager.getSubscription();
      S.push = sub ? 'on' : Notification.permission === 'denied' ? 'denied' : 'ready';
    } catch (e) { S.push = 'failed'; S.pushErr = String(e.message || e); }
  };
  const enable = async () => {
    S.push = 'asking'; render();
    try {
      if (await Notification.requestPermission() !== 'granted') { S.push = 'denied'; render(); return; }
      const reg = await worker();
      await navigator.serviceWorker.ready;
      // A browser without a push service (headless chromium, some
      // de-Googled builds) never answers: told after a while.
      let late;
      const sub = await Promise.race([
        reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64(S.key) }),
        new Promise((_, no) => { late = setTimeout(() => no(new Error(t('ns.push.noanswer'))), PUSH_WAIT); }),
      ]).finally(() => clearTimeout(late));
      await api('POST', '/api/me/push', { ...sub.toJSON(), lang: getLang() });
      S.push = 'on'; S.pushErr = '';
    } catch (e) { S.push = 'failed'; S.pushErr = e.code ? words(e) : String(e.message || e); }
    render();
  };
  const disable = async () => {
    try {
      const reg = await worker();
      const sub = await reg.pushManager.getSubscription();
      if (sub) {
        await api('POST', '/api/me/push/remove', { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      S.push = 'ready';
    } catch (e) { S.push = 'failed'; S.pushErr = String(e.message || e); }
    render();
  };
  const setPref = async (kind, channel, on) => {
    try { S.prefs = (await api('POST', '/api/me/notifications', { kind, channel, on })).prefs; S.notes.prefs = null; } catch (e) { S.notes.prefs = { err: words(e) }; }
    render();
  };
  // Daily digest (issue 29, social): "your turn", invitations and games
  // over gathered into one mail a day; the choice {kind: 'digest',
  // channel: 'email'}.
  const setDigest = async on => {
    try { S.digest = !!(await api('POST', '/api/me/notifications', { kind: 'digest', channel: 'email', on })).digest; S.notes.digest = null; } catch (e) { S.notes.digest = { err: words(e) }; }
    render();
  };
  const digestLine = () => h('div.nsdigest', h('label', h('input', {
    type: 'checkbox', id: 'notify-digest', checked: S.digest, onchange: e => setDigest(e.target.checked),
  }), ' ', t('ns.digest')), h('p.note', t('ns.digest.note')), noteLine('digest'));
  // End of the daily digest's block.
  const saveEmail = async address => {
    try {
      S.email = await api('POST', '/api/me/email', { address, lang: getLang() });
      S.typed = null;
      note('email', { ok: address ? t('ns.email.sent', { address }) : t('ns.email.removed') });
    } catch (e) { note('email', { err: words(e) }); }
  };
  const noteLine = k => S.notes[k] ? h('p' + (S.notes[k].err ? '.ferr' : '.fok'), { role: 'status' }, S.notes[k].err || S.notes[k].ok) : null;

  const prefsPanel = () => {
    const kinds = [...new Set(S.prefs.map(p => p.kind))];
    const on = (k, c) => !!S.prefs.find(p => p.kind === k && p.channel === c)?.on;
    return h('div.card-panel.nsprefs', { id: 'notify-prefs' }, h('h2', t('ns.prefs')),
      h('table.nstable', h('thead', h('tr', h('th', { scope: 'col' }, t('ns.kind')), h('th', { scope: 'col' }, t('ns.ch.inbox')),
        S.channels.map(c => h('th', { scope: 'col' }, t('ns.ch.' + c))))),
      h('tbody', kinds.map(k => h('tr', h('th', { scope: 'row' }, t('ns.kind.' + k)),
        h('td', h('input', { type: 'checkbox', checked: true, disabled: true, 'aria-label': `${t('ns.kind.' + k)}: ${t('ns.ch.inbox')}` })),
        S.channels.map(c => h('td', h('input', {
          type: 'checkbox', checked: on(k, c), dataset: { kind: k, channel: c }, 'aria-label': `${t('ns.kind.' + k)}: ${t('ns.ch.' + c)}`,
          onchange: e => setPref(k, c, e.target.checked),
        }))))))),
      S.channels.length ? null : h('p.note', t('ns.nochannels')),
      noteLine('prefs'));
  };
  const emailPanel = () => {
    const e = S.email || { address: '', verified: false };
    const input = h('input', { type: 'email', name: 'address', autocomplete: 'email', value: S.typed ?? e.address, placeholder: 'ada@example.org', 'aria-label': t('ns.email'), oninput: ev => { S.typed = ev.target.value; } });
    return h('form.card-panel.nsemail', { id: 'notify-email', onsubmit: ev => { ev.preventDefault(); saveEmail(input.value.trim()); } },
      h('h2', t('ns.email')),
      e.address ? h('p.nsstate', { id: 'email-state', dataset: { verified: e.verified ? '1' : '0' } },
        h('span' + (e.verified ? '.ok' : '.wait'), e.verified ? t('ns.email.verified', { address: e.address }) : t('ns.email.unverified', { address: e.address }))) : h('p.note', t('ns.email.none')),
      h('div.row', input, h('button.primary', { type: 'submit', 'data-action': 'email-save' }, t('ns.email.save')),
        e.address ? h('button', { type: 'button', 'data-action': 'email-remove', onclick: () => saveEmail('') }, t('ns.email.remove')) : null),
      digestLine(), noteLine('email'));
  };
  const pushPanel = () => {
    const st = S.push;
    return h('div.card-panel.nspush', { id: 'notify-push', dataset: { push: st } }, h('h2', t('ns.push')),
      h('p.nsstate', { id: 'push-state' }, t('ns.push.' + st)),
      st === 'failed' && S.pushErr ? h('p.ferr', S.pushErr) : null,
      st === 'ready' || st === 'failed' ? h('button.primary', { type: 'button', 'data-action': 'push-enable', onclick: enable }, t('ns.push.enable')) : null,
      st === 'on' ? h('button', { type: 'button', 'data-action': 'push-disable', onclick: disable }, t('ns.push.disable')) : null);
  };
  const render = () => {
    clear(main);
    const page = h('section.nsettings', { id: 'notify-settings' },
      h('div.inboxtop', h('h1', t('ns.title')), h('a.inboxset', { href: '/inbox' }, t('in.title'))));
    main.append(page);
    if (!named()) { page.append(h('p.card-panel', t('fr.need'))); return; }
    if (!S.prefs) { page.append(noteLine('prefs') || h('p', t('home.loading'))); return; }
    page.append(prefsPanel(), S.mailOn ? emailPanel() : null, pushPanel());
  };
  const off = onPlayer(() => load());
  render();
  load();
  return { render, close: off };
}
