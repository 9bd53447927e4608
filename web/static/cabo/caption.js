// A Cabo move in words, for the replay viewer (history.js): who did what
// to which card, the cards numbered from 1 as the table numbers them, and
// a card's value where the viewer's seat could see it.
import { t, tny, ty } from '../i18n.js';
import { slotsText } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move; c.you: the move is the
// viewer's own, said to them ("You draw a card").
export function caption(m, c) {
  const name = c.name(c.by);
  const top = v => (v?.discard?.length ? v.discard[v.discard.length - 1] : null);
  const slots = s => tny('cabo.slots', c.you, s.length, { slots: slotsText(s) });
  const slotOf = x => t('cabo.slot.of', { name: c.name(x.seat), slot: x.slot + 1 });
  switch (m.type) {
    case 'peek_initial': return ty('replay.cabo.peek_initial', c.you, { name, slots: slots(m.slots) });
    case 'draw': return c.next?.drawn != null ? ty('replay.cabo.draw.seen', c.you, { name, card: c.next.drawn }) : ty('replay.cabo.draw', c.you, { name });
    case 'take_discard': return ty('replay.cabo.take_discard', c.you, { name, card: top(c.prev) ?? '?', slots: slots(m.slots) });
    case 'replace': return ty('replay.cabo.replace', c.you, { name, slots: slots(m.slots) });
    case 'discard': return ty('replay.cabo.discard', c.you, { name, card: top(c.next) ?? '?' });
    case 'peek': return ty('replay.cabo.peek', c.you, { name, card: top(c.next) ?? '?', slot: m.slot + 1 });
    case 'spy': return ty('replay.cabo.spy', c.you, { name, card: top(c.next) ?? '?', target: c.name(m.seat), slot: m.slot + 1 });
    case 'swap': return ty('replay.cabo.swap', c.you, { name, card: top(c.next) ?? '?', a: slotOf(m.a), b: slotOf(m.b) });
    case 'cabo': return ty('replay.cabo.cabo', c.you, { name });
  }
  return null;
}
