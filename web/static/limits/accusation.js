// An accusation resolved, in the Limits screen: the panel that shows
// every hidden card, the limit and the count; the scores.
import { h } from '../dom.js';
import { t, tn, ty } from '../i18n.js';
import { endPanel, winnersLine } from '../screen.js';
import { COLOURS, colourSVG, limitSVG } from './cards.js';
import { view, cname, cardName } from './state.js';
import { chip } from './draw.js';

// lastAccEl is the last accusation's verdict, with a way to its panel.
export function lastAccEl(S) {
  const v = view(S);
  const a = v.last_accusation;
  if (!a || S.overlay) return null;
  // Told in a line (the panel behind Details has it all), so that on a
  // laptop's short window it shares the status line's row (limits.css)
  // and the hand and the actions stay in the window.
  const test = a.limit === null ? 'X' : `${a.count} ${a.over ? '>' : '≤'} ${a.limit}`;
  // The page's own player is "you" there (issue 26, words).
  const who = s => (s === S.ctx.seat ? t('table.you') : S.ctx.name(s));
  return h('div.lim-lastacc', { title: verdict(S, a) }, h('span', ty('limits.lastacc.short', a.taker === S.ctx.seat, {
    accuser: who(a.accuser), suspect: who(a.suspect), color: cname(a.color), test, taker: S.ctx.name(a.taker),
  })), ' ',
    h('button.link', { type: 'button', 'data-action': 'show-accusation', onclick: () => { S.overlay = { kind: v.phase === 'over' ? 'over' : 'accuse', acc: a, winners: v.winners, scores: v.scores }; S.ctx.render(); } }, t('limits.details')));
}

// verdict is an accusation's outcome in words.
// Said to the page's player when they are the accuser or the suspect.
export const verdict = (S, a) => t((a.over ? 'limits.verdict.over' : a.limit === null ? 'limits.verdict.x' : 'limits.verdict.ok') +
  (a.accuser === S.ctx.seat ? '.by_you' : a.suspect === S.ctx.seat ? '.you' : ''), {
  accuser: S.ctx.name(a.accuser), suspect: S.ctx.name(a.suspect), color: cname(a.color),
  count: a.count, limit: a.limit === null ? 'X' : a.limit, taker: S.ctx.name(a.taker),
});

// accEl is an accusation shown: every hidden card, the limit, the count.
function accEl(S, a) {
  const n = a.hidden.length;
  const hiddenOf = a.hidden.reduce((k, cs) => k + cs.filter(c => c === a.color).length, 0);
  const ci = COLOURS.indexOf(a.color);
  const base = S.bases[a.limit_card] ? S.bases[a.limit_card][ci] : (a.limit === null ? null : a.limit - hiddenOf);
  const hiddenRows = Array.from({ length: n }, (_, s) => h('tr',
    h('td', s === S.ctx.seat ? t('limits.acc.you') : S.ctx.name(s)),
    h('td.lim-cards', a.hidden[s].map(c => h('span.lim-mini.lim-flip' + (c === a.color ? '.hit' : ''), { html: colourSVG(c), title: cardName(c) })))));
  const limitLine = a.limit === null
    ? t('limits.acc.limit.x', { color: cname(a.color) })
    : tn('limits.acc.limit', hiddenOf, { color: cname(a.color), base, hidden: hiddenOf, limit: a.limit });
  return h('div.lim-acc',
    h('p.lim-acc-head', t(a.accuser === S.ctx.seat ? 'limits.acc.head.you' : a.suspect === S.ctx.seat ? 'limits.acc.head.at_you' : 'limits.acc.head', { accuser: S.ctx.name(a.accuser), suspect: S.ctx.name(a.suspect) }), ' ', chip(a.color)),
    h('div.lim-acc-body',
      S.bases[a.limit_card] ? h('div.lim-card.lim-limit.lim-small', { html: limitSVG(S.bases[a.limit_card], a.limit_card) }) : null,
      h('div', h('div.label', t('limits.acc.hidden')), h('table.lim-hiddentable', hiddenRows))),
    h('ul.lim-calc',
      h('li', limitLine),
      h('li', tn(a.suspect === S.ctx.seat ? 'limits.acc.count.me' : 'limits.acc.count', a.count, { color: cname(a.color), suspect: S.ctx.name(a.suspect) })),
      h('li.lim-verdict' + (a.over ? '.over' : '.ok'), verdict(S, a))));
}

// scoreTable is the scores (with the round's, when highlight).
export function scoreTable(S, highlight) {
  const v = view(S);
  const n = v.players;
  const rs = v.last_accusation?.round_scores;
  return h('table.results',
    h('tr', ['limits.col.player', 'limits.col.points', 'limits.col.cards', 'limits.col.score'].map(k => h('th', t(k))),
      rs && highlight ? h('th', t('limits.col.round')) : null),
    Array.from({ length: n }, (_, s) => h('tr' + ((v.winners || []).includes(s) ? '.win' : ''),
      h('td', S.ctx.name(s)), h('td', String(v.points[s])), h('td', String(v.limits_taken[s])), h('td', h('strong', String(v.scores[s]))),
      rs && highlight ? h('td', rs[s] > 0 ? '+' + rs[s] : String(rs[s] ?? 0)) : null)));
}

// overlayEl is the panel of an accusation or of the game's end.
export function overlayEl(S) {
  if (!S.overlay) return null;
  const v = view(S);
  const over = S.overlay.kind === 'over';
  // At the game's end the results come first, the accusation that
  // ended it after them.
  const acc = S.overlay.acc ? accEl(S, S.overlay.acc) : null;
  return endPanel(S.ctx, S.overlay.kind, '.lim-panel', () => { S.overlay = null; },
    h('h2', over ? t('table.over') : t('limits.acc.title')),
    over && S.overlay.winners ? winnersLine(S.ctx, S.overlay.winners) : null,
    over ? null : acc,
    h('h3', over ? t('limits.final') : t('table.scores')),
    scoreTable(S, true),
    h('p.lim-note', t('limits.scorenote'), ' ', over ? '' : t('limits.left', { n: v.limits_left })),
    over && acc ? [h('h3', t('limits.acc.last')), acc] : null);
}
