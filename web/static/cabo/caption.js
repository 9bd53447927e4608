// A Cabo move in words, for the replay viewer (history.js): who did what
// to which card, the cards numbered from 1 as the table numbers them, and
// a card's value where the viewer's seat could see it.
import { t, tn } from '../i18n.js';
import { slotsText } from './state.js';

// caption is move m of seat c.by; c.name names a seat, c.prev and c.next
// are the views before and after the move.
export function caption(m, c) {
  const name = c.name(c.by);
  const top = v => (v?.discard?.length ? v.discard[v.discard.length - 1] : null);
  const slots = s => tn('cabo.slots', s.length, { slots: slotsText(s) });
  const slotOf = x => t('cabo.slot.of', { name: c.name(x.seat), slot: x.slot + 1 });
  switch (m.type) {
    case 'peek_initial': return t('replay.cabo.peek_initial', { name, slots: slots(m.slots) });
    case 'draw': return c.next?.drawn != null ? t('replay.cabo.draw.seen', { name, card: c.next.drawn }) : t('replay.cabo.draw', { name });
    case 'take_discard': return t('replay.cabo.take_discard', { name, card: top(c.prev) ?? '?', slots: slots(m.slots) });
    case 'replace': return t('replay.cabo.replace', { name, slots: slots(m.slots) });
    case 'discard': return t('replay.cabo.discard', { name, card: top(c.next) ?? '?' });
    case 'peek': return t('replay.cabo.peek', { name, card: top(c.next) ?? '?', slot: m.slot + 1 });
    case 'spy': return t('replay.cabo.spy', { name, card: top(c.next) ?? '?', target: c.name(m.seat), slot: m.slot + 1 });
    case 'swap': return t('replay.cabo.swap', { name, card: top(c.next) ?? '?', a: slotOf(m.a), b: slotOf(m.b) });
    case 'cabo': return t('replay.cabo.cabo', { name });
  }
  return null;
}
