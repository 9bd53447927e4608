// The Da Capo! screen's state, shared by its parts (input.js, follow.js,
// piles.js, draw.js, log.js), and what they read from it and from the
// legal moves.
import { t } from '../i18n.js';
import { JOKER } from './cards.js';

// newState is a Da Capo! screen's state for the table ctx (see app.js).
export function newState(ctx) {
  return {
    ctx,
    sel: null,          // the chosen source: {from, card?, index?, seat?}
    anim: new Set(),    // keys to animate on the next render
    // Where a card of the next render comes from, for motion.js: "pile:P"
    // or "helper:S:I" -> the data-keys of its places before the move (the
    // first one on screen: my hand card, or the backs of another's hand).
    from: new Map(),
    sliding: new Map(), // building pile -> {cards, at}: completed, sliding away
    notice: null,       // {text key, params, until}
    overlay: null,      // {kind: 'game'|'over', ...}
    counts: null,       // personal pile sizes as the events go, for a game's end
    drew: new Map(),    // seat -> {n, until}: cards just drawn, shown as "+n"
  };
}

export const SLIDE_MS = 900;   // a completed pile slides away
export const NOTICE_MS = 3500; // a refill or a new hand is told for a moment

export const handKeys = (S, s, c) => (s === S.ctx.seat ? `dacapo:hand:${c}:0` : `dacapo:backs:${s}`);
export const me = S => S.ctx.seat;
export const view = S => S.ctx.state.view;
export const myTurn = S => S.ctx.state.status === 'playing' && S.ctx.state.to_move.includes(me(S));
export const cardName = c => (c === JOKER ? t('dacapo.joker') : String(c));
// nth is a helper pile's place, from 0, as words say it: "first", "second"
// (in French, feminine as "pile" is: "première").
export const nth = i => t('dacapo.nth.' + (i + 1));
export const later = (S, ms) => setTimeout(() => S.ctx.render(), ms + 30);

// The legal moves, sorted by what they need: the building piles each
// source may go onto, and the helper piles each hand card may go onto.
export const srcKey = m => (m.from === 'hand' ? 'hand:' + m.card : m.from === 'helper' ? 'helper:' + m.index
  : m.from === 'opponent' ? 'opponent:' + m.seat : m.from);
// legal sorts them: builds by source key, helpers by hand card, and
// whether the move end is open.
export function legal(S) {
  const builds = new Map(); // source key -> Set of piles
  const helpers = new Map(); // hand card -> Set of helper piles
  let end = false; // the move end: stop building with an empty hand
  if (!myTurn(S)) return { builds, helpers, end };
  for (const m of S.ctx.state.legal) {
    if (m.type === 'end') {
      end = true;
    } else if (m.type === 'build') {
      const k = srcKey(m);
      if (!builds.has(k)) builds.set(k, new Set());
      builds.get(k).add(m.pile);
    } else if (m.type === 'helper') {
      const k = String(m.card);
      if (!helpers.has(k)) helpers.set(k, new Set());
      helpers.get(k).add(m.index);
    }
  }
  return { builds, helpers, end };
}

// The card a source names, as the view shows it.
export function srcCard(S, s) {
  const v = view(S);
  if (!s) return null;
  if (s.from === 'hand') return s.card;
  if (s.from === 'stock') return v.stocks[me(S)]?.top ?? null;
  if (s.from === 'opponent') return v.stocks[s.seat]?.top ?? null;
  const p = v.helpers[me(S)][s.index];
  return p.length ? p[p.length - 1] : null;
}
export const sameSrc = (a, b) => a && b && srcKey(a) === srcKey(b);
