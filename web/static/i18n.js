// Every string of the interface, one dictionary per language. t(key, params)
// looks a key up in the current language, then English, and fills {name}
// placeholders; tn(key, n, params) picks the form of a count by the
// language's plural rules (Intl.PluralRules): key.one, key.other, ….

import { en } from './i18n/en.js';
import { fr } from './i18n/fr.js';

// Exported for the dictionary test, which checks both have the same keys.
export const dicts = { en, fr };
let lang = pick();

function pick() {
  const saved = localStorage.getItem('tapis.lang');
  if (saved && dicts[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (dicts[short]) return short;
  }
  return 'en';
}

export function getLang() { return lang; }

export function setLang(l) {
  if (!dicts[l]) return;
  lang = l;
  localStorage.setItem('tapis.lang', l);
  document.documentElement.lang = l;
}

export function otherLang() { return lang === 'fr' ? 'en' : 'fr'; }

export function has(key) { return key in dicts[lang] || key in en; }

export function t(key, params = {}) {
  let s = dicts[lang][key] ?? en[key] ?? key;
  if (lang === 'fr') s = elide(s, params);
  else s = article(s, params);
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const rules = {};

// plural is the plural category of n in the page's language: "one",
// "other", and for some languages "few", "many"….
export function plural(n) {
  rules[lang] ??= new Intl.PluralRules(lang);
  return rules[lang].select(Number(n));
}

// tn is t for a count: it looks up key.<category of count> ("one",
// "other", …) in the page's language, key.other when the language has
// no word of its own for that category. {n} is the count unless params
// names another n (the count is then a number of things the sentence
// counts, as the winners of a game numbered n).
export function tn(key, count, params = {}) {
  const k = key + '.' + plural(count);
  return t(k in dicts[lang] || (lang === 'en' && k in en) ? k : key + '.other', { n: count, ...params });
}

// elide writes French's "de Alice" and "que Anne" as "d’Alice" and
// "qu’Anne": before a placeholder whose value begins with a vowel, "de"
// and "que" lose their e (not before h, which a name may keep).
function elide(s, params) {
  return s.replace(/\b(de|que) \{(\w+)\}/gi, (m, w, k) => (k in params && /^[aeiouàâäéèêëîïôöûü]/i.test(String(params[k]))
    ? `${w.slice(0, -1)}’{${k}}` : m));
}

// article writes English's "a 8" and "a 11" as "an 8", "an 11": before a
// placeholder whose value is said with a vowel first (eight, eleven,
// eighteen, an ace), "a" becomes "an".
function article(s, params) {
  return s.replace(/\b(a|A) \{(\w+)\}/g, (m, a, k) => (k in params && /^(8|11(?!\d)|18(?!\d)|[aeiou])/i.test(String(params[k]))
    ? `${a}n {${k}}` : m));
}

// Issue 26 (screenshots fixes): a line said to the page's own player.
// ty is t with key.you in place of key when mine (the seat the line is
// about is the page's) and the dictionary has that form: "You play a 7",
// not "Alice (you) plays a 7". tny is tn likewise.
export function ty(key, mine, params) { return t(mine && has(key + '.you') ? key + '.you' : key, params); }
export function tny(key, mine, count, params) { return tn(mine && has(key + '.you.other') ? key + '.you' : key, count, params); }

// tw is tn for a sentence whose subject is a list of seats (the
// winners): said to the page's own player, key.you, when they are the
// only one ("Game over: you won", not "Alice (you) won"); a list of
// several keeps their names, its verb plural.
export function tw(key, seats, mine, params) {
  return seats.length === 1 && seats[0] === mine && has(key + '.you') ? t(key + '.you', params) : tn(key, seats.length, params);
}
