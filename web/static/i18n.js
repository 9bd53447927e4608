// Every string of the interface, one dictionary per language. t(key, params)
// looks a key up in the current language, then English, and fills {name}
// placeholders.

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
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}
