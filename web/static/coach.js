// The coach (issue 27): a table option, for unrated tables, under which a
// player may ask, at their turn, for the hard bot's choice for their seat,
// from what their seat knows only, with its estimated win chance
// (POST /api/tables/{id}/hint). Every hint is counted and shown on the
// score sheet (sheet.js), to everyone at the table.
import { h, tap } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { captionFor } from './registry.js';
import { refusalText } from './refusal.js';

// coachField is the create form's checkbox; form.coach holds its value.
export function coachField(form) {
  return h('label.opt', { id: 'coachfield' }, h('input', {
    type: 'checkbox', name: 'coach', checked: !!form.coach, onchange: e => { form.coach = e.target.checked; },
  }), ' ', t('coach.option'));
}

// hintWords is the coach's move in words, said to the player ("You play
// the 7♥"), as the replay viewer's captions say moves.
function hintWords(T, move) {
  const words = captionFor(T.info.game)?.(move, { by: T.seat, name: T.name, prev: T.state.view, next: null, you: true, me: T.seat });
  return words || JSON.stringify(move);
}

// coachPanel is the hint button and the last hint, at a coached table for
// a player whose turn it is; null otherwise. token is the seat's, if the
// page has one (a signed-in player's session does without).
export function coachPanel(T, token) {
  const st = T.state;
  if (!T.info?.coach || T.seat < 0 || st?.status !== 'playing' || !st.legal?.length) return null;
  // A hint stays while its move is still one of the player's: the
  // others' moves in a simultaneous phase (a pass) change the position's
  // number, not the player's choice.
  const same = x => JSON.stringify(x);
  const live = T.hint && T.hint.match === st.match && (T.hint.n === st.n || (T.hint.move && st.legal.some(m => same(m) === same(T.hint.move))));
  const hint = live ? T.hint : null;
  const ask = async () => {
    const at = { n: st.n, match: st.match };
    T.hint = { ...at, busy: true };
    T.render();
    try {
      const r = await api('POST', `/api/tables/${T.id}/hint` + (token ? `?token=${encodeURIComponent(token)}` : ''));
      T.hint = { ...at, move: r.move, value: r.value, used: r.hints };
    } catch (err) {
      T.hint = { ...at, error: refusalText(err) };
    }
    T.render();
  };
  return h('div.coach', { id: 'coach' },
    h('button', { type: 'button', id: 'coach-ask', 'data-action': 'hint', disabled: !!hint?.busy || !!hint?.move, ...tap(ask) }, t('coach.ask')),
    hint?.busy ? h('span.coach-note', t('coach.thinking')) : null,
    hint?.move ? h('p.coach-hint', { id: 'coach-hint' }, h('strong', t('coach.says')), ' ', hintWords(T, hint.move), ' ',
      t('coach.value', { n: Math.round(hint.value * 100) })) : null,
    hint?.error ? h('p.coach-hint.error', { id: 'coach-hint' }, hint.error) : null);
}
