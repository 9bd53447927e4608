// The Papayoo log's words, and a refusal's.
import { t, tn, ty, tw } from '../i18n.js';
import { refusalText } from '../refusal.js';
import { cardText, byOrder, suitName } from './cards.js';

// logLine is an event as a line of the log, in the page's language.
export function logLine(S, e) {
  const nm = s => S.ctx.name(s);
  const mine = e.seat !== undefined && e.seat === S.ctx.seat;
  const cards = cs => (cs || []).slice().sort(byOrder).map(cardText).join(' ');
  switch (e.type) {
    case 'deal': return ty('papayoo.log.deal', mine, { round: e.round, name: nm(e.seat) });
    case 'hand': return t('papayoo.log.hand', { n: e.cards.length });
    case 'pass_card': return t('papayoo.log.pass_card', { cards: cards(e.cards) });
    case 'pass': return t('papayoo.log.pass', { cards: cards(e.cards), name: nm(e.to) });
    case 'passed': return ty('papayoo.log.passed', mine, { name: nm(e.seat) });
    case 'received': return t('papayoo.log.received', { cards: cards(e.cards), name: nm(e.from) });
    case 'die': return t('papayoo.log.die', { suit: suitName(e.suit), card: cardText(e.card) });
    case 'play': return ty('papayoo.log.play', mine, { name: nm(e.seat), card: cardText(e.card) });
    case 'trick': return ty('papayoo.log.trick', mine, { name: nm(e.seat), n: e.points || 0, cards: (e.cards || []).map(cardText).join(' ') });
    case 'round_end': return t('papayoo.log.round_end', { round: e.round, scores: e.round_scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
    case 'game_over': return tw('papayoo.log.game_over', e.winners, S.ctx.seat, { names: e.winners.map(nm).join(', '), scores: e.scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
  }
  return null;
}

// explain puts a refusal ({code, reason, args, error}) into the
// player's language: a card (args.card, "P20") and a suit (args.suit,
// "H") by their names; a name that is no card (bad_card) as it was given.
export function explain(S, m) {
  return refusalText(m, 'papayoo', S.ctx.name, (a, reason) => ({
    ...(a.card !== undefined && reason !== 'bad_card' ? { card: cardText(a.card) } : {}),
    ...(a.suit !== undefined ? { suit: suitName(a.suit) } : {}),
  }));
}
