// The Limits screen's input: cards chosen to hide or place, a seat to
// accuse, and the buttons that make the moves from them.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { view, legal, cname, cardName, hideN, myMove, accusable, exchanges, placeable, selColours, hideLegal } from './state.js';

// clickCard selects a card of my hand (or several, to hide).
export function clickCard(S, i) {
  if (!myMove(S) || S.ctx.pending) return;
  const v = view(S);
  if (v.phase === 'hide') {
    if (S.sel.includes(i)) S.sel = S.sel.filter(x => x !== i);
    else { S.sel.push(i); while (S.sel.length > hideN(S)) S.sel.shift(); }
  } else {
    S.sel = S.sel.includes(i) ? [] : [i];
    if (S.sel.length) S.target = -1;
  }
  S.ctx.render();
}

// clickSeat chooses a seat to accuse, or lets it go.
export function clickSeat(S, s) {
  if (!myMove(S) || S.ctx.pending || !accusable(S, s)) return;
  S.target = S.target === s ? -1 : s;
  if (S.target >= 0) S.sel = [];
  S.ctx.render();
}

// act is the moves the buttons make from the selections.
export function act(S) {
  return {
    hide: () => S.ctx.move({ type: 'hide', cards: selColours(S) }),
    place: () => {
      const c = selColours(S)[0];
      if (c && placeable(S, c)) S.ctx.move({ type: 'place', card: c });
    },
    exchange: c => S.ctx.move({ type: 'exchange', color: c }),
    accuse: () => { if (S.target >= 0) S.ctx.move({ type: 'accuse', seat: S.target }); },
  };
}

// actions are the buttons of the moves open to me now.
export function actions(S) {
  const v = view(S);
  if (!myMove(S)) return null;
  const off = S.ctx.pending;
  const b = (name, label, enabled, cls = '', onclick = act(S)[name], extra = {}) => h('button' + (cls ? '.' + cls : ''), {
    type: 'button', 'data-action': name, disabled: off || !enabled, onclick, ...extra,
  }, label);
  if (v.phase === 'hide') {
    return [b('hide', t('limits.do.hide', { n: S.sel.length, want: hideN(S) }), S.sel.length === hideN(S) && hideLegal(S), 'primary')];
  }
  const c = selColours(S)[0];
  const out = [];
  if (legal(S).some(m => m.type === 'place')) {
    out.push(b('place', c ? t('limits.do.place', { card: cardName(c) }) : t('limits.do.place.none'), !!c && placeable(S, c), 'primary'));
  }
  for (const x of exchanges(S)) {
    out.push(b('exchange', t('limits.do.exchange', { color: cname(x) }), true, 'exchange', () => act(S).exchange(x), { 'data-color': x }));
  }
  if (legal(S).some(m => m.type === 'accuse')) {
    out.push(b('accuse', S.target >= 0
      ? t('limits.do.accuse', { name: S.ctx.name(S.target), color: cname(S.last[S.target] || '?') })
      : t('limits.do.accuse.none'), S.target >= 0, 'danger'));
  }
  return out;
}
