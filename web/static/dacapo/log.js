// The Da Capo! log's words, and a refusal's.
import { t, tn, ty } from '../i18n.js';
import { refusalText } from '../refusal.js';
import { cardName, nth } from './state.js';

// logLine is an event as a line of the log, in the page's language.
export function logLine(S, e) {
  const nm = s => S.ctx.name(s);
  const mine = e.seat !== undefined && e.seat === S.ctx.seat;
  switch (e.type) {
    case 'deal': return ty('dacapo.log.deal', mine, { n: e.game, name: nm(e.seat), tops: (e.tops || []).map((c, s) => `${nm(s)} ${cardName(c)}`).join(', ') });
    case 'hand': return e.cards ? t('dacapo.log.hand', { cards: e.cards.map(cardName).join(' ') }) : null;
    case 'turn': return t(e.seat === S.ctx.seat ? 'dacapo.log.turn.me' : 'dacapo.log.turn', { name: nm(e.seat) });
    case 'build': {
      const from = e.from === 'hand' ? ty('dacapo.from.hand', mine)
        : e.from === 'stock' ? ty('dacapo.from.stock', mine)
          : e.from === 'helper' ? ty('dacapo.from.helper', mine, { nth: nth(e.index) })
            : t(e.owner === S.ctx.seat ? 'dacapo.from.opponent.me' : 'dacapo.from.opponent', { name: nm(e.owner) });
      let s = ty('dacapo.log.build', mine, { name: nm(e.seat), card: cardName(e.card), from, n: e.pile + 1, value: e.value });
      if (e.completed) s += ' ' + t('dacapo.log.completed');
      if (e.left !== undefined) s += ' ' + (e.top != null ? t('dacapo.log.next', { card: cardName(e.top), n: e.left }) : t('dacapo.log.emptied'));
      return s;
    }
    case 'helper': return ty('dacapo.log.helper', mine, { name: nm(e.seat), card: cardName(e.card), nth: nth(e.index) });
    case 'end': return ty('dacapo.log.end', mine, { name: nm(e.seat) });
    case 'draw':
      return e.cards ? tn('dacapo.log.draw.me', e.count, { cards: e.cards.map(cardName).join(' ') }) : tn('dacapo.log.draw', e.count, { name: nm(e.seat) });
    case 'reshuffle': return t('dacapo.log.reshuffle', { n: e.count });
    // A single game is no game 1 of anything.
    case 'game_end': return ty((e.stalemate ? 'dacapo.log.game_end.stalemate' : 'dacapo.log.game_end') + ((S.ctx.state?.view?.options ?? S.ctx.info?.options)?.match_target ? '' : '.single'),
      e.winners.length === 1 && e.winners[0] === S.ctx.seat, {
      n: e.game, names: e.winners.map(nm).join(', '),
      scores: e.round_scores.map((x, s) => `${nm(s)} +${x}`).join(', '),
    });
    case 'game_over': return tn('dacapo.log.game_over', e.winners.length, { names: e.winners.map(nm).join(', '), scores: e.scores.map((x, s) => `${nm(s)} ${x}`).join(', ') });
  }
  return null;
}

// explain puts a refusal ({code, reason, args, error}) into the
// player's language: a card ("7", "J") by its name, a pile (args.pile,
// args.index, from 0) by its number on the screen (from 1).
export function explain(S, m) {
  return refusalText(m, 'dacapo', S.ctx.name, a => ({
    ...(a.card !== undefined ? { card: a.card === 'J' ? t('dacapo.joker') : a.card } : {}),
    ...(a.pile !== undefined ? { n: a.pile + 1 } : a.index !== undefined ? { n: a.index + 1 } : {}),
  }));
}
