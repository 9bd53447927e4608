// How the Limits screen follows the table: what the events tell that the
// view does not keep, what they animate, and the selections a new
// position clears.
import { me, accusable } from './state.js';

// learn follows the events once each, in order, whether they arrive
// live (onEvent) or as the history of a reconnection (logLine).
export function learn(S, e) {
  if (!e || typeof e !== 'object' || S.seen.has(e)) return false;
  S.seen.add(e);
  switch (e.type) {
    case 'round':
      S.last = {}; S.topBy = -1;
      if (e.limit && e.base) S.bases[e.limit] = e.base;
      break;
    case 'place':
      S.last[e.seat] = e.card; S.topBy = e.seat;
      break;
    case 'exchange':
      S.last[e.seat] = e.color; S.topBy = e.seat;
      break;
  }
  return true;
}

// onEvent notes what an event changes on the screen: a card that
// travels, one drawn, an accusation's panel.
export function onEvent(S, e) {
  learn(S, e);
  switch (e.type) {
    case 'place':
      S.pileFrom = e.seat === me(S) ? `lim:hand:${e.card}:0` : 'lim:seat:' + e.seat;
      S.anim.add('seat:' + e.seat);
      break;
    case 'exchange':
      S.anim.add('pile'); S.anim.add('seat:' + e.seat);
      break;
    case 'draw':
      if (e.seat === me(S) && e.cards) S.drawn = S.drawn.concat(e.cards);
      break;
    case 'hide':
      if (e.seat === me(S)) S.anim.add('hidden'); else S.anim.add('seat:' + e.seat);
      break;
    case 'round':
      S.anim.add('limit');
      break;
    case 'accuse':
      if (e.accusation) S.overlay = { kind: 'accuse', acc: e.accusation };
      break;
    case 'game_over':
      S.overlay = { kind: 'over', acc: S.overlay?.acc, winners: e.winners, scores: e.scores };
      break;
  }
}

// onState keeps what a new position leaves valid of the selections.
export function onState(S, m, prev) {
  if (m.view?.limit && m.view.base) S.bases[m.view.limit] = m.view.base;
  if (prev && m.match !== prev.match) { S.last = {}; S.topBy = -1; S.overlay = null; S.sel = []; S.target = -1; }
  if (!prev || m.n !== prev.n) {
    if (m.by === me(S) || m.view.phase !== prev?.view.phase) { S.sel = []; S.target = -1; }
    if (S.target >= 0 && !accusable(S, S.target)) S.target = -1;
    S.sel = S.sel.filter(i => i < m.view.hand.length);
  }
}
