// A Da Capo! move in words, for the replay viewer (history.js): which
// card goes where, its source named as the table names it, the helper
// piles counted first, second, third.
import { t, ty } from '../i18n.js';
import { cardName, nth } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move; c.you: the move is the
// viewer's own, said to them.
export function caption(m, c) {
  const name = c.name(c.by);
  const topOf = pile => (pile?.length ? pile[pile.length - 1] : null);
  switch (m.type) {
    case 'build': {
      const p = c.prev;
      const card = m.from === 'hand' ? m.card
        : m.from === 'stock' ? p?.stocks?.[c.by]?.top
          : m.from === 'helper' ? topOf(p?.helpers?.[c.by]?.[m.index])
            : p?.stocks?.[m.seat]?.top;
      const from = m.from === 'hand' ? ty('dacapo.from.hand', c.you)
        : m.from === 'stock' ? ty('dacapo.from.stock', c.you)
          : m.from === 'helper' ? ty('dacapo.from.helper', c.you, { nth: nth(m.index) })
            : m.seat === c.me ? t('dacapo.from.opponent.me') : t('dacapo.from.opponent', { name: c.name(m.seat) });
      return card == null ? ty('replay.dacapo.build.unseen', c.you, { name, from, n: m.pile + 1 })
        : ty('replay.dacapo.build', c.you, { name, card: cardName(card), from, n: m.pile + 1 });
    }
    case 'helper': return ty('dacapo.log.helper', c.you, { name, card: cardName(m.card), nth: nth(m.index) });
    case 'end': return ty('replay.dacapo.end', c.you, { name });
  }
  return null;
}
