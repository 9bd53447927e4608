// Telling a player it is their turn when they are not looking at the
// table: the tab's title and icon while they must act, and, if they ask
// for them, a short sound and a browser notification once per turn. Also
// the time per move drawn as a ring and a bar, not only as seconds.
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { stylesheet } from './screen.js';

// The icon while the player must act: a gold disc on the felt, drawn here
// so that no file is needed; the page's own icon comes back after.
const TURN_ICON = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f6b45"/>' +
  '<circle cx="16" cy="16" r="10" fill="#f3c25b" stroke="#fffdf7" stroke-width="3"/></svg>');

const SOUND = 'tapis.sound', NOTIFY = 'tapis.notify';
const saved = k => { try { return localStorage.getItem(k) === '1'; } catch { return false; } };
const save = (k, on) => { try { localStorage.setItem(k, on ? '1' : '0'); } catch { /* private mode: not remembered */ } };

// turnAlert follows one table page: update(mine, what) after every state,
// stop() when the page goes. what names the game, for the notification.
export function turnAlert() {
  stylesheet('turn.css');
  const baseTitle = document.title;
  const icon = document.querySelector('link[rel=icon]');
  const baseIcon = icon?.getAttribute('href');
  let mine = false;
  let audio = null;
  let shown = null; // the notification of the current turn, closed when it ends

  const show = on => {
    document.title = on ? t('turn.title', { title: baseTitle }) : baseTitle;
    if (icon) icon.setAttribute('href', on ? TURN_ICON : baseIcon);
  };

  // beep plays two short rising notes through the Web Audio API: no file
  // to load, and quiet enough not to startle.
  const beep = () => {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    try {
      audio = audio || new AC();
      audio.resume?.();
      const now = audio.currentTime;
      [[660, 0], [880, 0.16]].forEach(([f, at]) => {
        const o = audio.createOscillator(), g = audio.createGain();
        o.type = 'sine';
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, now + at);
        g.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
        o.connect(g).connect(audio.destination);
        o.start(now + at);
        o.stop(now + at + 0.15);
      });
    } catch { /* no sound is no harm */ }
  };

  const notify = what => {
    if (!saved(NOTIFY) || !document.hidden || !('Notification' in window) || Notification.permission !== 'granted') return;
    try {
      // One tag per page: a notification replaces the page's last one
      // rather than piling up.
      shown = new Notification(t('turn.notify.head'), { body: t('turn.notify.body', { game: what }), tag: 'tapis-turn', icon: TURN_ICON });
      shown.onclick = () => { window.focus(); shown?.close(); };
    } catch { /* some browsers allow notifications only from a service worker */ }
  };

  return {
    // update is told after each state whether the player must act now. A
    // turn that goes on over several states (draw, then place) is one
    // turn: the sound and the notification come only as it begins.
    update(now, what) {
      if (now && !mine) {
        if (saved(SOUND)) beep();
        notify(what);
      }
      if (!now && mine) { shown?.close(); shown = null; }
      mine = now;
      show(now);
    },
    stop() { mine = false; show(false); shown?.close(); audio?.close?.(); audio = null; },
  };
}

// toggles are the sound and notification switches of the table's header.
// Notifications are asked for only when the player turns them on.
export function toggles(rerender) {
  const sw = (key, action, label, title, onOn) => h('button.toggle', {
    type: 'button', 'data-action': action, 'aria-pressed': saved(key) ? 'true' : 'false', title,
    onclick: async () => {
      const on = !saved(key);
      if (on && onOn && !(await onOn())) { rerender(); return; }
      save(key, on);
      rerender();
    },
  }, h('span.toggle-icon', { 'aria-hidden': 'true' }, saved(key) ? '●' : '○'), ' ', label);
  const ask = async () => {
    if (!('Notification' in window)) { toast(t('turn.notify.none')); return false; }
    let p = Notification.permission;
    if (p === 'default') { try { p = await Notification.requestPermission(); } catch { p = 'denied'; } }
    if (p !== 'granted') { toast(t('turn.notify.denied')); return false; }
    return true;
  };
  return h('div.turnopts',
    sw(SOUND, 'sound', t('turn.sound'), t('turn.sound.title')),
    sw(NOTIFY, 'notify', t('turn.notify'), t('turn.notify.title'), ask));
}

// ring draws into a seat's clock badge a ring of the time left, frac of
// the time per move (0..1), before its seconds.
export function ring(el, frac) {
  if (!(frac >= 0)) return;
  el.style.setProperty('--left', Math.min(1, frac).toFixed(3));
  el.prepend(h('span.ring', { 'aria-hidden': 'true' }));
}

// seatBars puts a bar of the time left on the seat, in the game's own
// drawing, of each seat on the clock ([data-player] elements), and takes
// it off the others. total is the time per move in milliseconds.
export function seatBars(root, deadlines, total) {
  const now = performance.now();
  for (const el of root.querySelectorAll('#game [data-player]')) {
    const d = deadlines[el.dataset.player];
    let bar = el.querySelector(':scope > .turnbar');
    if (d == null || !total) { bar?.remove(); continue; }
    const frac = Math.max(0, Math.min(1, (d - now) / total));
    if (!bar) {
      bar = h('span.turnbar', { 'aria-hidden': 'true' }, h('span'));
      el.classList.add('on-clock');
      el.append(bar);
    }
    bar.style.setProperty('--left', frac.toFixed(3));
    bar.classList.toggle('low', (d - now) <= 10000);
  }
}
