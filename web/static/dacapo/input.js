// The Da Capo! screen's input: "pick a source, then a target".
import { myTurn, legal, srcKey, sameSrc } from './state.js';

// pick chooses a source (or lets it go).
export function pick(S, s) {
  if (!myTurn(S) || S.ctx.pending) return;
  S.sel = sameSrc(S.sel, s) ? null : s;
  S.ctx.render();
}

// buildOn moves the chosen source onto building pile p.
export function buildOn(S, p) {
  if (!S.sel || !myTurn(S) || S.ctx.pending) return;
  const { builds } = legal(S);
  if (!builds.get(srcKey(S.sel))?.has(p)) return;
  const m = { type: 'build', from: S.sel.from, pile: p };
  if (S.sel.from === 'hand') m.card = S.sel.card;
  if (S.sel.from === 'helper') m.index = S.sel.index;
  if (S.sel.from === 'opponent') m.seat = S.sel.seat;
  S.ctx.move(m);
}

// helperOn puts the chosen hand card on my helper pile i.
export function helperOn(S, i) {
  if (!S.sel || S.sel.from !== 'hand' || !myTurn(S) || S.ctx.pending) return;
  if (!legal(S).helpers.get(String(S.sel.card))?.has(i)) return;
  S.ctx.move({ type: 'helper', card: S.sel.card, index: i });
}

// endTurn stops building, with an empty hand and nothing to draw.
export function endTurn(S) {
  if (!myTurn(S) || S.ctx.pending || !legal(S).end) return;
  S.sel = null;
  S.ctx.move({ type: 'end' });
}
