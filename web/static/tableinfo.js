// What a table is, in words: its options as the home page's form labels
// them, and the summary a guest sees on an invite link's page before
// sitting down (which game, who sits where, the rules chosen, the time per
// move, and what to do).
import { h } from './dom.js';
import { t, has } from './i18n.js';
import { gameInfo } from './registry.js';

// optionLabel is how the home page's form and the join page name an
// option of game: its dictionary entry, else its JSON name in words.
export function optionLabel(game, name) {
  const key = `opt.${game}.${name}`;
  return has(key) ? t(key) : name.replaceAll('_', ' ');
}

// optionValue puts an option's value into words: yes or no, a number, or
// for null (unset) the option's own word for it (papayoo's "one per
// player") or "unlimited".
export function optionValue(game, name, v) {
  if (v === true) return t('fix.yes');
  if (v === false) return t('fix.no');
  if (v === null || v === undefined) {
    const none = `opt.${game}.${name}.none`;
    return has(none) ? t(none) : t('home.option.unlimited');
  }
  return String(v);
}

// optionName is an option's short name, for a line that gives its value
// (the lobby, the join page): "Rounds", not the form's "Rounds (empty: one
// per player)".
export function optionName(game, name) {
  const key = `opt.${game}.${name}.short`;
  return has(key) ? t(key) : optionLabel(game, name);
}

// optionLines lists the options a table was created with, one line each.
// Only those the creator set: the others are the rules' own, some of
// which depend on others (Cabo looks at 3 cards when 6 are dealt), so the
// engine, not this page, knows them.
export function optionLines(game, options) {
  return Object.entries(options || {}).map(([k, v]) => t('fix.join.option', { label: optionName(game, k), value: optionValue(game, k, v) }));
}

// joinSummary is the part of the join form that says which table this is.
// info is the table (GET /api/tables/{id}); seatName(i) names seat i as the
// table page does (a bot with its level, a free seat); game is the game's
// name in words and turn the time per move in words.
export function joinSummary(info, seatName, game, turn) {
  const opts = optionLines(info.game, info.options);
  return h('div.joininfo', { id: 'joininfo' },
    h('p.jgame', t('fix.join.game', { game, n: info.players })),
    h('ul.jseats', info.seats.map((s, i) => h('li' + (s.free ? '.free' : ''), { dataset: { seat: i } },
      h('strong', t('home.seat', { n: i + 1 })), ' ', seatName(i)))),
    h('p.jrules', { id: 'joinrules' }, opts.length ? t('fix.join.rules', { list: opts.join(' · ') }) : t('fix.join.rules.standard')),
    // As the lobby says it: a table without a clock has no time limit.
    h('p.jturn', info.turn_seconds ? t('table.turn', { time: turn }) : t('join.noclock')),
    info.memory_aid ? h('p.jmemory', { id: 'joinmemory' }, t('memory.join.on'))
      : gameInfo(info.game).memory_aid ? h('p.jmemory', { id: 'joinmemory' }, t('memory.join.off')) : null,
    h('p.jhow', t('fix.join.how')));
}
