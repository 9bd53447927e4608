// How the Cabo screen follows the table: the events it animates or shows
// for a moment, and the selections a new position clears.
import { me, key, slotKeys, DRAWN } from './state.js';

// A card seen once (a peek) is shown for a few seconds, then hidden again:
// remembering it is part of the game.
const PEEK_MS = 4000;

// reveal shows seat's cards at slots, face up, for PEEK_MS.
function reveal(S, seat, slots, cards) {
  const until = Date.now() + PEEK_MS;
  slots.forEach((sl, j) => { S.revealed.set(key(seat, sl), { card: cards[j], until }); S.flips.add(key(seat, sl)); });
  setTimeout(() => S.ctx.render(), PEEK_MS + 50);
}

// forget hides what a look showed of the slots whose card leaves them (a
// swap, a replace, a set, a taken discard): a slot shows a card only
// while it holds that card, however fast the next move comes.
function forget(S, places) {
  for (const p of places) { S.revealed.delete(key(p.seat, p.slot)); S.flips.delete(key(p.seat, p.slot)); }
}

// onEvent notes what an event changes on the screen: a card shown, one
// that travels, the end of a round or of the game.
export function onEvent(S, e) {
  switch (e.type) {
    case 'peek_initial':
      if (e.seen) reveal(S, e.seat, e.slots, e.seen);
      break;
    case 'peek': case 'spy':
      S.anim.add(key(e.target.seat, e.target.slot)); S.from.set('discard', DRAWN);
      if (e.seen) reveal(S, e.target.seat, [e.target.slot], e.seen);
      break;
    case 'swap':
      forget(S, [e.a, e.b]);
      S.from.set(key(e.a.seat, e.a.slot), slotKeys(e.b.seat, [e.b.slot]));
      S.from.set(key(e.b.seat, e.b.slot), slotKeys(e.a.seat, [e.a.slot]));
      S.from.set('discard', DRAWN);
      break;
    case 'take_discard': case 'replace':
      if (e.failed) { reveal(S, e.seat, e.slots, e.seen); S.anim.add('discard'); break; }
      forget(S, e.slots.map(slot => ({ seat: e.seat, slot })));
      S.from.set(key(e.seat, e.slots[0]), e.type === 'replace' ? DRAWN : 'cabo:discard');
      S.from.set('discard', slotKeys(e.seat, e.slots));
      break;
    case 'draw':
      S.from.set('drawn', 'cabo:drawpile');
      break;
    case 'discard':
      S.from.set('discard', DRAWN);
      break;
    case 'reshuffle':
      S.anim.add('discard');
      break;
    case 'deal':
      S.revealed.clear();
      for (let s = 0; s < 8; s++) for (let i = 0; i < 6; i++) S.anim.add(key(s, i));
      S.anim.add('discard');
      break;
    case 'round_end':
      S.overlay = { kind: 'round', end: e.end, round: S.ctx.state?.result?.round };
      break;
    case 'game_over':
      S.overlay = { kind: 'over', winners: e.winners, scores: e.scores, end: S.overlay?.end };
      break;
  }
}

export function onState(S, m, prev) {
  if (!prev || m.n !== prev.n) {
    // A new move: selections made for the old position no longer apply,
    // except the cards a player is choosing to peek at while the others
    // peek too: their peeks move no card, and clearing the choice made the
    // Look button go dead under the player's finger.
    const peeking = m.view.phase === 'peek' && prev?.view.phase === 'peek' && m.by !== me(S);
    if (!peeking) { S.sel = new Set(); S.targets = []; }
  }
}
