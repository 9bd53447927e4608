// The Papayoo screen's input: cards chosen for the pass and sent at once,
// a card played.
import { h, toast, tap } from '../dom.js';
import { t } from '../i18n.js';
import { byOrder } from './cards.js';
import { me, view, myTurn, left, legalCards, need } from './state.js';

// tapCard chooses a card for the pass (or puts it back), or plays it.
export function tapCard(S, c) {
  if (S.ctx.pending || !myTurn(S)) return;
  const v = view(S);
  if (v.phase === 'pass') {
    if (!legalCards(S, 'pass').has(c)) return;
    if (S.sel.has(c)) S.sel.delete(c);
    else if (S.sel.size >= need(S)) toast(t('papayoo.pass.full', { n: need(S) }), 'info');
    else S.sel.add(c);
    S.ctx.render();
  } else if (v.phase === 'play') {
    if (legalCards(S, 'play').has(c)) S.ctx.move({ type: 'play', card: c });
  }
}

// sendPass sends the whole pass at once.
export function sendPass(S) {
  if (S.sel.size !== need(S) || S.ctx.pending) return;
  S.ctx.move({ type: 'pass', cards: [...S.sel].sort(byOrder) });
}

// actionsEl is the pass bar: how many chosen, and the button.
export function actionsEl(S) {
  const v = view(S);
  if (v.phase !== 'pass' || me(S) < 0) return null;
  if (myTurn(S)) {
    const n = need(S);
    return h('div.passbar',
      h('span.count', { id: 'passcount' }, t('papayoo.pass.count', { k: S.sel.size, n })),
      h('button.primary', {
        type: 'button', 'data-action': 'move', 'data-pass': '1', id: 'pass', disabled: S.ctx.pending || S.sel.size !== n, ...tap(() => sendPass(S)),
      }, t('papayoo.pass.button', { n, name: S.ctx.name(left(S, me(S))) })));
  }
  return null;
}
