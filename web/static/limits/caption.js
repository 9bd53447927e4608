// A Limits move in words, for the replay viewer (history.js): the cards
// hidden (the replay shows them), the card placed, an exchange, and an
// accusation with its verdict.
import { t, tny, ty } from '../i18n.js';
import { cname, cardName } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move; c.you: the move is the
// viewer's own (c.me their seat), said to them.
export function caption(m, c) {
  const name = c.name(c.by);
  switch (m.type) {
    case 'hide': {
      const cards = m.cards || [];
      return tny('replay.limits.hide', c.you, cards.length, { name, card: cardName(cards[0]), cards: cards.map(cname).join(', ') });
    }
    case 'place': return ty('replay.limits.place', c.you, { name, card: cardName(m.card) });
    case 'exchange': return ty('replay.limits.exchange', c.you, { name, color: cname(m.color) });
    case 'accuse': {
      const a = c.next?.last_accusation;
      if (!a || a.accuser !== c.by || a.suspect !== m.seat) return ty('replay.limits.accuse.short', c.you, { name, suspect: c.name(m.seat) });
      const p = {
        accuser: name, suspect: c.name(a.suspect), color: cname(a.color),
        count: a.count, limit: a.limit === null ? 'X' : a.limit,
      };
      const whose = a.accuser === c.me ? '.by_you' : a.suspect === c.me ? '.you' : '';
      return ty('replay.limits.accuse', c.you, p) + ' ' + t((a.over ? 'limits.verdict.over' : a.limit === null ? 'limits.verdict.x' : 'limits.verdict.ok') + whose, p);
    }
  }
  return null;
}
