// The words of a refusal. The server sends a stable code ("stale",
// "refused", "full") and, when a game's rules refused, the engine's reason
// with its args ({"reason": "no_card_of_colour", "args": {"colour": "red"}},
// docs/API.md): both are looked up in the dictionaries, so that the page
// never reads the English "error" text, which may be reworded.
import { t, has } from './i18n.js';

// refusalText puts a refusal into the page's language. m is an error
// message or a thrown API error: {code, reason, args, error}. game names
// the table's game, whose own reasons are "<game>.why.<reason>" (reasons
// every game shares are "why.<reason>"); name gives a seat's player (for
// args.turn, the seat to act); params(args, reason) turns a screen's args
// into its words (a card's name, a colour's). Only a reason that no
// dictionary knows falls back to the English words.
export function refusalText(m, game, name = s => String(s), params = () => ({})) {
  const english = m.error ?? m.message ?? '';
  if (m.reason) {
    const key = [game ? `${game}.why.${m.reason}` : '', 'why.' + m.reason].find(k => k && has(k));
    if (!key) return english || m.reason;
    const args = m.args || {};
    const seat = typeof args.turn === 'number' ? { name: name(args.turn) } : {};
    return t(key, { ...args, ...seat, ...params(args, m.reason) });
  }
  // A refusal without its reason (a server older than this page) is
  // shown in the server's words, marked as a refusal.
  if (m.code && has('err.' + m.code)) return t('err.' + m.code, { text: english });
  return english || m.code || '';
}
