// How the Da Capo! screen follows the table: what the events animate or
// tell for a moment, and the choice a new position clears.
import { me, myTurn, cardName, later, handKeys, legal, srcKey, SLIDE_MS, NOTICE_MS } from './state.js';

// tell shows a notice for a moment.
const tell = (S, key, params) => { S.notice = { key, params, until: Date.now() + NOTICE_MS }; later(S, NOTICE_MS); };

// onEvent notes what an event changes on the screen: cards that travel,
// a pile completed, cards drawn, a game's end.
export function onEvent(S, e) {
  switch (e.type) {
    case 'deal':
      S.sliding.clear(); S.sel = null; S.overlay = S.overlay?.kind === 'game' ? S.overlay : null;
      S.counts = null;
      S.anim.add('deal');
      break;
    case 'build': {
      if (e.from === 'stock' || e.from === 'opponent') {
        const o = e.from === 'stock' ? e.seat : e.owner;
        S.anim.add('stock:' + o);
        S.from.set('pile:' + e.pile, 'dacapo:stock:' + o);
        if (S.counts && e.left !== undefined) S.counts[o] = e.left;
      }
      if (e.from === 'helper') S.from.set('pile:' + e.pile, `dacapo:helper:${e.seat}:${e.index}`);
      if (e.from === 'hand') S.from.set('pile:' + e.pile, handKeys(S, e.seat, e.card));
      if (e.completed) {
        S.sliding.set(e.pile, { card: e.card, at: Date.now() });
        later(S, SLIDE_MS);
      }
      break;
    }
    case 'helper':
      S.from.set(`helper:${e.seat}:${e.index}`, handKeys(S, e.seat, e.card));
      break;
    case 'draw':
      S.anim.add('hand:' + e.seat);
      S.drew.set(e.seat, { n: e.count, until: Date.now() + NOTICE_MS });
      later(S, NOTICE_MS);
      if (e.seat === me(S)) {
        // A draw at a turn's start is the refill; during my own turn it
        // is the 4 new cards of an emptied hand.
        const during = S.ctx.state.view.turn === me(S) && S.ctx.state.by === me(S);
        tell(S, during ? 'dacapo.notice.fresh' : 'dacapo.notice.refill', { n: e.count, cards: (e.cards || []).map(cardName).join(' ') });
        for (const c of e.cards || []) S.anim.add('card:' + c);
      }
      break;
    case 'reshuffle':
      S.anim.add('draw');
      tell(S, 'dacapo.notice.reshuffle', { n: e.count });
      break;
    case 'turn':
      if (e.seat === me(S)) S.anim.add('myturn');
      break;
    case 'game_end':
      S.overlay = {
        kind: 'game', game: e.game, winners: e.winners, stalemate: e.stalemate,
        round: e.round_scores, scores: e.scores, left: S.counts ? [...S.counts] : null,
      };
      break;
    case 'game_over':
      S.overlay = { ...(S.overlay || {}), kind: 'over', match: e.winners, scores: e.scores };
      break;
  }
}

// onState keeps the pile sizes a game's end needs, and the choice only
// while it is still playable.
export function onState(S, m, prev) {
  // Personal pile sizes before this message's events, so that a game's
  // end can say how many cards each player kept.
  S.counts = m.view.stocks.map(s => s.count);
  if (m.view.game !== prev?.view.game && S.overlay?.kind === 'game' && !S.overlay.left && prev) {
    S.overlay.left = prev.view.stocks.map(s => s.count);
  }
  // Only a new move clears the choice: the same position sent again (a
  // clock, a seat's presence, the tutorial's next step) left the player's
  // chosen card unchosen between their two clicks.
  if (!myTurn(S) || (m.by === me(S) && m.n !== prev?.n)) S.sel = null;
  if (S.sel) {
    // Keep the choice only while it still names a playable card.
    const { builds, helpers } = legal(S);
    if (!builds.has(srcKey(S.sel)) && !(S.sel.from === 'hand' && helpers.has(String(S.sel.card)))) S.sel = null;
  }
}
