// The piles of the Da Capo! table: the building piles, each player's
// personal pile and helper piles, a hand seen from the other side.
import { h, tap } from '../dom.js';
import { t, tn } from '../i18n.js';
import { backSVG } from '../cards.js';
import { cardSVG, JOKER } from './cards.js';
import { me, view, srcKey, srcCard, sameSrc, SLIDE_MS } from './state.js';
import { pick, buildOn, helperOn } from './input.js';

// cardEl is a card, a button when it has onclick. Its presses, as the
// piles', are taps (dom.js): the table redraws under the finger (a bot's
// card, a slide's end), and a plain click would be lost.
export function cardEl(v, opts = {}) {
  const { cls = '', attrs = {}, onclick, label } = opts;
  const tag = onclick ? 'button' : 'div';
  return h(tag + '.dc-card' + (cls ? '.' + cls.split(' ').filter(Boolean).join('.') : ''), {
    type: onclick ? 'button' : undefined, html: v === null ? '' : v === 'back' ? backSVG() : cardSVG(v),
    'aria-label': label, ...(onclick ? tap(onclick) : {}), ...attrs,
  });
}

// pileEl is building pile p: its top cards, a target when the chosen
// source may go onto it.
export function pileEl(S, p, L) {
  const v = view(S);
  const pile = v.piles[p] || [];
  const value = pile.length;
  const top = value ? pile[value - 1] : null;
  const targets = S.sel ? L.builds.get(srcKey(S.sel)) : null;
  const can = !!targets?.has(p) && !S.ctx.pending;
  const c = srcCard(S, S.sel);
  const becomes = value + 1;
  const slide = S.sliding.get(p);
  const slideEl = slide && Date.now() - slide.at < SLIDE_MS ? (() => {
    const el = h('div.dc-card.dc-slide', { html: cardSVG(slide.card === JOKER ? JOKER : 10) });
    el.style.animationDelay = `-${Date.now() - slide.at}ms`; // CSSOM: allowed by the CSP
    return el;
  })() : null;
  const under = value > 1 ? pile.slice(Math.max(0, value - 3), value - 1) : [];
  return h('div.dc-bpile', { 'data-bpile': p },
    h('button.dc-bslot' + (can ? '.target' : '') + (value ? '' : '.empty') + (S.anim.has('pile:' + p) && !S.from.has('pile:' + p) ? '.anim' : ''), {
      type: 'button', 'data-pile': p, disabled: !can,
      'aria-label': t('dacapo.pile.label', { n: p + 1, value }),
      ...tap(() => buildOn(S, p)),
    },
    under.map((x, i) => h('span.dc-under', { html: cardSVG(x), dataset: { depth: under.length - i } })),
    top !== null ? h('span.dc-top', { html: cardSVG(top), 'data-key': 'dacapo:pile:' + p, 'data-from': S.from.get('pile:' + p) }) : h('span.dc-start', t('dacapo.pile.start')),
    can ? h('span.dc-becomes', c === JOKER ? t('dacapo.joker.becomes', { n: becomes }) : '→ ' + becomes) : null,
    slideEl),
    // A Joker on top counts as the pile's value: said under it, where a
    // badge would cover the card.
    h('div.dc-label' + (top === JOKER ? '.dc-jlabel' : ''), value ? t(top === JOKER ? 'dacapo.pile.joker' : 'dacapo.pile.value', { n: value }) : t('dacapo.pile.empty')));
}

// stockEl is seat s's personal pile, its top face up.
export function stockEl(S, s, L, big) {
  const v = view(S);
  const st = v.stocks[s];
  const mine = s === me(S);
  const src = mine ? { from: 'stock' } : { from: 'opponent', seat: s };
  const can = L.builds.has(srcKey(src)) && !S.ctx.pending;
  const chosen = sameSrc(S.sel, src);
  const depth = Math.min(4, Math.max(0, st.count - 1));
  return h('div.dc-stock' + (big ? '.big' : ''),
    h('div.dc-stackwrap', { dataset: { depth } },
      st.top != null
        ? cardEl(st.top, {
          cls: ['dc-stocktop', can ? 'can' : '', chosen ? 'selected' : '', S.anim.has('stock:' + s) ? 'flip' : ''].join(' '),
          attrs: { 'data-src': mine ? 'stock' : 'opponent', 'data-seat': s, disabled: !can, 'data-build': can ? '1' : '0', 'data-key': 'dacapo:stock:' + s },
          label: t('dacapo.stock.of', { name: S.ctx.name(s) }),
          onclick: () => pick(S, src),
        })
        : h('div.dc-card.dc-emptyslot')),
    h('div.dc-count', { 'data-count': st.count }, t('dacapo.stock.count', { n: st.count })));
}

// helpersEl is seat s's three helper piles.
export function helpersEl(S, s, L) {
  const v = view(S);
  const mine = s === me(S);
  const hand = S.sel?.from === 'hand' ? L.helpers.get(String(S.sel.card)) : null;
  return h('div.dc-helpers', [0, 1, 2].map(i => {
    const pile = v.helpers[s][i] || [];
    const top = pile.length ? pile[pile.length - 1] : null;
    const src = { from: 'helper', index: i };
    const canSrc = mine && top !== null && L.builds.has(srcKey(src)) && !S.ctx.pending;
    const target = mine && !!hand?.has(i) && !S.ctx.pending;
    const chosen = mine && sameSrc(S.sel, src);
    const shown = pile.slice(Math.max(0, pile.length - 5));
    const hidden = pile.length - shown.length;
    const onclick = () => (target ? helperOn(S, i) : canSrc ? pick(S, src) : null);
    const cls = ['dc-hpile', pile.length ? '' : 'empty', target ? 'target' : '', canSrc ? 'can' : '', chosen ? 'selected' : '',
      S.anim.has(`helper:${s}:${i}`) && !S.from.has(`helper:${s}:${i}`) ? 'anim' : ''].filter(Boolean).join('.');
    return h((mine ? 'button.' : 'div.') + cls, {
      type: mine ? 'button' : undefined, disabled: mine ? !(target || canSrc) : undefined,
      'data-src': mine ? 'helper' : undefined, 'data-index': i, 'data-helper': mine ? i : undefined,
      'data-build': canSrc ? '1' : '0', dataset: { n: shown.length },
      'aria-label': t('dacapo.helper.label', { n: i + 1, name: S.ctx.name(s) }),
      ...(mine ? tap(onclick) : {}),
    },
    hidden ? h('span.dc-more', '+' + hidden) : null,
    shown.map((c, j) => h('span.dc-hcard' + (j === shown.length - 1 ? '.top' : ''), j === shown.length - 1
      ? { html: cardSVG(c), 'data-key': `dacapo:helper:${s}:${i}`, 'data-from': S.from.get(`helper:${s}:${i}`) } : { html: cardSVG(c) })),
    !pile.length ? h('span.dc-hempty', target ? t('dacapo.helper.new') : '') : null);
  }));
}

// handBacks is another seat's hand, face down, and the cards it drew.
export function handBacks(S, s) {
  const n = view(S).hand_sizes[s];
  return h('div.dc-handbacks' + (S.anim.has('hand:' + s) ? '.anim' : ''), { 'aria-label': t('dacapo.hand.count', { n }), 'data-key': 'dacapo:backs:' + s },
    Array.from({ length: n }, () => h('span.dc-back', { html: backSVG() })),
    h('span.dc-hn', t('dacapo.hand.count', { n })),
    S.drew.get(s)?.until > Date.now() ? h('span.dc-drew' + (S.drew.get(s).shown ? '' : '.fresh'), tn('dacapo.drew', S.drew.get(s).n)) : null);
}
