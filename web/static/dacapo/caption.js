// A Da Capo! move in words, for the replay viewer (history.js): which
// card goes where, its source named as the table names it, the helper
// piles counted first, second, third.
import { t } from '../i18n.js';
import { cardName, nth } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move.
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
      const from = m.from === 'hand' ? t('dacapo.from.hand')
        : m.from === 'stock' ? t('dacapo.from.stock')
          : m.from === 'helper' ? t('dacapo.from.helper', { nth: nth(m.index) })
            : t('dacapo.from.opponent', { name: c.name(m.seat) });
      return card == null ? t('replay.dacapo.build.unseen', { name, from, n: m.pile + 1 })
        : t('replay.dacapo.build', { name, card: cardName(card), from, n: m.pile + 1 });
    }
    case 'helper': return t('dacapo.log.helper', { name, card: cardName(m.card), nth: nth(m.index) });
    case 'end': return t('replay.dacapo.end', { name });
  }
  return null;
}
