// Leaving a table and closing one (issue 26): the table bar's button, the
// dialog that says what it costs before anything is sent, and the page
// once the table is left or closed.
import { h, tap } from './dom.js';
import { t } from './i18n.js';
import { gameName } from './registry.js';
import { isTutorial } from './tutorial.js'; // tutorial

let dialog = null; // the open confirm dialog's overlay

// leaveControl is the button at a seated player's own seat (the seats' line
// scrolls sideways: it takes no room of its own): the host of
// a waiting table closes it; anyone else at a waiting or running table
// leaves it. Nothing once the match is over or for a spectator.
export function leaveControl(T, info) {
  if (T.seat < 0 || info.status === 'over' || T.state?.status === 'over') return null;
  // tutorial: a tutorial's panel has "Leave the tutorial" (tutorial.js).
  if (isTutorial(info)) return null;
  const closing = info.status === 'waiting' && T.seat === info.host;
  const text = closing ? t('leave.close.confirm')
    : info.status === 'waiting' ? t('leave.confirm.waiting')
      : info.rated ? t('leave.confirm.rated') : t('leave.confirm.playing');
  const type = closing ? 'close_table' : 'leave';
  return h('button.leave', {
    type: 'button', 'data-action': closing ? 'close-table' : 'leave',
    ...tap(() => confirmLeave(text, closing ? t('leave.close.yes') : t('leave.yes'), () => T.ws?.send(JSON.stringify({ type })))),
  }, closing ? t('leave.close') : t('leave.button'));
}

// confirmLeave asks before act runs: text says what happens.
function confirmLeave(text, yes, act) {
  closeLeave();
  const close = () => closeLeave();
  // Above the first-turn guide (style.css): a question asked before
  // anything is sent is answered first.
  dialog = h('div.overlay', { id: 'leave', onclick: e => { if (e.target === dialog) close(); } },
    h('div.card-panel', { role: 'alertdialog', 'aria-modal': 'true', 'aria-describedby': 'leave-text' },
      h('p', { id: 'leave-text' }, text),
      h('div.row',
        h('button.primary', { type: 'button', 'data-action': 'confirm-leave', onclick: () => { close(); act(); } }, yes),
        h('button', { type: 'button', 'data-action': 'cancel-leave', onclick: close }, t('leave.cancel')))));
  document.body.append(dialog);
  dialog.querySelector('[data-action=cancel-leave]').focus();
}

// closeLeave takes the dialog away (the page left, or answered).
export function closeLeave() { dialog?.remove(); dialog = null; }

// gonePanel is the page of a table this page is no longer at: left
// ("left") or closed by its host ("closed"), who may be this page (host).
export function gonePanel(why, host) {
  const words = why === 'left' ? 'leave.left' : host ? 'leave.closed.you' : 'leave.closed';
  return h('section.card-panel', { id: 'gone', dataset: { why } },
    h('p', t(words)), h('a', { href: '/' }, t('table.home')));
}

// closedPanel is the page of a closed table (GET /api/tables/{id} says
// why, issue 26): the reason, and a link to each of its finished matches.
export function closedPanel(info) {
  const n = info.finished || 0;
  return h('section.card-panel', { id: 'closed', dataset: { why: info.closed } },
    h('h1', gameName(info.game)),
    h('p', t('table.closed.' + info.closed)),
    n ? [h('p', t('table.closed.matches')), h('ul.closedmatches', Array.from({ length: n }, (_, i) => n - i).map(no =>
      h('li', h('a.button', { href: `/m/${info.id}/${no}`, 'data-action': 'replay', dataset: { match: no } }, t('table.closed.match', { n: no })))))] : null,
    h('p', h('a', { href: '/' }, t('table.home'))));
}
