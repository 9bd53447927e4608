// The Limits screen's state, shared by its parts (follow.js, input.js,
// draw.js, accusation.js, log.js), and what they read from it and from
// the legal moves.
import { t } from '../i18n.js';
import { COLOURS } from './cards.js';

// newState is a Limits screen's state for the table ctx (see app.js).
export function newState(ctx) {
  return {
    ctx,
    sel: [],         // selected hand indexes
    target: -1,      // the seat chosen to accuse
    overlay: null,   // {kind: 'accuse'|'over', acc, winners, scores}
    anim: new Set(), // 'pile', 'hidden', 'hand:i', 'limit', 'seat:s'
    // Where the active pile's new top comes from, for motion.js: the
    // data-key of my hand card, or the backs of another's hand; null: none.
    pileFrom: null,
    drawn: [],       // colours I just drew, animated on the next render
    // What the events told, which the view does not keep: each seat's last
    // placed colour this round (the suspect colour), who placed the top card,
    // and each limit card's base limits.
    seen: new WeakSet(),
    last: {},        // seat -> colour
    topBy: -1,
    bases: {},       // limit card number -> base limits
    catchUp: false,
  };
}

export const me = S => S.ctx.seat;
export const view = S => S.ctx.state.view;
export const legal = S => S.ctx.state.legal || [];
export const cname = c => t('limits.color.' + c);
export const cardName = c => t('limits.card.' + c);
export const hideN = S => (view(S).players === 2 ? 2 : 1);
export const playing = S => S.ctx.state.status === 'playing' && view(S).phase !== 'over';
export const myMove = S => playing(S) && S.ctx.state.to_move.includes(me(S));

// unlimited: the colour has no limit (X) this round, so nobody can be
// over it.
export const unlimited = (S, c) => {
  const i = COLOURS.indexOf(c);
  return i >= 0 && view(S).base && view(S).base[i] === null;
};
export const accusable = (S, s) => legal(S).some(m => m.type === 'accuse' && m.seat === s);
export const exchanges = S => legal(S).filter(m => m.type === 'exchange').map(m => m.color);
export const placeable = (S, c) => legal(S).some(m => m.type === 'place' && m.card === c);
export const selColours = S => S.sel.map(i => view(S).hand[i]).filter(Boolean)
  .sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b));
export const hideLegal = S => {
  const want = selColours(S).join(',');
  return legal(S).some(m => m.type === 'hide' && [...m.cards].sort((a, b) => COLOURS.indexOf(a) - COLOURS.indexOf(b)).join(',') === want);
};
