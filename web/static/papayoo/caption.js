// A Papayoo move in words, for the replay viewer (history.js): the cards
// chosen for the pass and to whom, the card played, and the trick it
// completed.
import { ty } from '../i18n.js';
import { cardText, byOrder } from './cards.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move; c.you: the move is the
// viewer's own (c.me their seat), said to them.
export function caption(m, c) {
  const name = c.name(c.by);
  const players = c.next?.players || c.prev?.players;
  const to = players ? c.name((c.by + 1) % players) : '?';
  switch (m.type) {
    case 'pass': {
      const cards = (m.cards || []).slice().sort(byOrder).map(cardText);
      return cards.length === 1 ? ty('replay.papayoo.pass_card', c.you, { name, card: cards[0], to })
        : ty('replay.papayoo.pass', c.you, { name, cards: cards.join(' '), to });
    }
    case 'play': {
      let s = ty('replay.papayoo.play', c.you, { name, card: cardText(m.card) });
      // The last card of a trick: the view after it shows the trick taken.
      const last = c.next?.last_trick;
      if (!c.next?.trick?.length && last?.cards?.some(x => x.card === m.card)) {
        s += ' ' + ty('papayoo.trick.won', last.winner === c.me, { name: c.name(last.winner), n: last.points }) + '.';
      }
      return s;
    }
  }
  return null;
}
