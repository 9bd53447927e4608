// A Limits move in words, for the replay viewer (history.js): the cards
// hidden (the replay shows them), the card placed, an exchange, and an
// accusation with its verdict.
import { t, tn } from '../i18n.js';
import { cname, cardName } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move.
export function caption(m, c) {
  const name = c.name(c.by);
  switch (m.type) {
    case 'hide': {
      const cards = m.cards || [];
      return tn('replay.limits.hide', cards.length, { name, card: cardName(cards[0]), cards: cards.map(cname).join(', ') });
    }
    case 'place': return t('replay.limits.place', { name, card: cardName(m.card) });
    case 'exchange': return t('replay.limits.exchange', { name, color: cname(m.color) });
    case 'accuse': {
      const a = c.next?.last_accusation;
      if (!a || a.accuser !== c.by || a.suspect !== m.seat) return t('replay.limits.accuse.short', { name, suspect: c.name(m.seat) });
      const p = {
        accuser: name, suspect: c.name(a.suspect), color: cname(a.color),
        count: a.count, limit: a.limit === null ? 'X' : a.limit,
      };
      return t('replay.limits.accuse', p) + ' ' + t(a.over ? 'limits.verdict.over' : a.limit === null ? 'limits.verdict.x' : 'limits.verdict.ok', p);
    }
  }
  return null;
}
