// The Cabo screen's input: choosing cards (mine and the others') and the
// buttons that make the moves of RULES.md §1 from them.
import { h, tap } from '../dom.js';
import { t } from '../i18n.js';
import { me, view, sorted, myTurn, power } from './state.js';
import { confirmCabo, askCabo } from '../settings.js';

// clickSlot selects or unselects a card: one of mine, or a target
// among the others'.
export function clickSlot(S, seat, slot) {
  if (!myTurn(S) || S.ctx.pending) return;
  const v = view(S);
  if (seat === me(S)) {
    if (S.sel.has(slot)) S.sel.delete(slot); else S.sel.add(slot);
    if (v.phase === 'peek' && S.sel.size > v.options.initial_peek) S.sel.delete(sorted(S.sel)[0] === slot ? sorted(S.sel)[1] : sorted(S.sel)[0]);
  } else {
    const i = S.targets.findIndex(x => x.seat === seat && x.slot === slot);
    if (i >= 0) S.targets.splice(i, 1);
    else {
      const max = v.phase === 'drawn' && power(v.drawn) === 'swap' && v.options.swap_opponents ? 2 : 1;
      S.targets.push({ seat, slot });
      while (S.targets.length > max) S.targets.shift();
    }
  }
  S.ctx.render();
}

// act is the moves the buttons make from the selections.
export function act(S) {
  return {
    look: () => S.ctx.move({ type: 'peek_initial', slots: sorted(S.sel) }),
    draw: () => S.ctx.move({ type: 'draw' }),
    take: () => S.ctx.move({ type: 'take_discard', slots: sorted(S.sel) }),
    cabo: () => callCabo(S),
    replace: () => S.ctx.move({ type: 'replace', slots: sorted(S.sel) }),
    discard: () => S.ctx.move({ type: 'discard' }),
    peek: () => S.ctx.move({ type: 'peek', slot: sorted(S.sel)[0] }),
    spy: () => S.ctx.move({ type: 'spy', seat: S.targets[0].seat, slot: S.targets[0].slot }),
    swap: () => {
      const a = S.targets.length === 2 ? S.targets[0] : { seat: me(S), slot: sorted(S.sel)[0] };
      const b = S.targets.length === 2 ? S.targets[1] : S.targets[0];
      S.ctx.move({ type: 'swap', a, b });
    },
  };
}

// callCabo calls Cabo, after asking while the player's settings say so
// (issue 26); a call confirmed once the table has moved on (a stand-in
// played the turn meanwhile) is not sent.
function callCabo(S) {
  const call = () => S.ctx.move({ type: 'cabo' });
  if (!confirmCabo()) { call(); return; }
  const n = S.ctx.state.n;
  askCabo(() => { if (S.ctx.state.n === n && myTurn(S)) call(); });
}

// actions are the buttons of the moves open to me now.
export function actions(S) {
  const v = view(S);
  if (!myTurn(S)) return null;
  const off = S.ctx.pending;
  const b = (name, label, enabled, cls = '') => h('button' + (cls ? '.' + cls : ''), {
    type: 'button', 'data-action': name, disabled: off || !enabled, ...tap(act(S)[name]),
  }, label);
  // Look is offered as soon as a card is chosen: a wrong count is
  // refused by the server, and the refusal explained.
  if (v.phase === 'peek') return [b('look', t('cabo.look'), S.sel.size > 0 || v.options.initial_peek === 0, 'primary')];
  if (v.phase === 'turn') {
    return [b('draw', t('cabo.draw'), v.draw_count > 0 || v.discard.length > 1, 'primary'),
      b('take', t('cabo.take'), S.sel.size >= 1),
      v.caller < 0 ? b('cabo', t('cabo.call'), true, 'danger') : null];
  }
  if (v.phase === 'drawn') {
    const p = power(v.drawn);
    return [b('replace', t('cabo.replace'), S.sel.size >= 1, 'primary'),
      b('discard', t('cabo.discard'), true),
      p === 'peek' ? b('peek', t('cabo.peek'), S.sel.size === 1) : null,
      p === 'spy' ? b('spy', t('cabo.spy'), S.targets.length === 1) : null,
      p === 'swap' ? b('swap', t('cabo.swap'), (S.sel.size === 1 && S.targets.length === 1) || S.targets.length === 2) : null];
  }
  return null;
}
