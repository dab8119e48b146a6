/**
 * The words of a natural-language business query: folded (lower case, no accents) so `Café` and
 * `cafe` are one word, split where a reader would split them, with the two things that contain
 * punctuation kept whole: a coordinate pair (`40.74,-73.98`) and a quoted name (`"joe's"`).
 *
 * @example wordsOf('Cafés near 40.74, -73.98') // ['cafes', 'near', '@40.74|-73.98']
 */

/** Lower case without diacritics, plain apostrophes, and a hyphen between letters read as a space
 *  (`Saint-Étienne` is `saint etienne`). */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').replace(/[’‘`]/g, "'").toLowerCase().replace(/(\p{L})-(?=\p{L})/gu, '$1 ');
}

/** A coordinate token: `@lat|lng`. */
export const COORD = /^@(-?\d+(?:\.\d+)?)\|(-?\d+(?:\.\d+)?)$/;
/** A quoted phrase token: `"text` (the closing quote dropped). */
export const QUOTED = '"';

// A pair with at least one decimal point, so `4, 5 stars` is not read as a place on Earth.
const PAIR = /\(?\s*(-?\d{1,2}\.\d+|-?\d{1,2})\s*,\s*(-?\d{1,3}\.\d+|-?\d{1,3})\s*\)?/g;

export function wordsOf(query: string): string[] {
  const out: string[] = [];
  const quoted = fold(query).split(/["“”]/);
  quoted.forEach((part, i) => {
    if (i % 2 === 1) { if (part.trim()) out.push(QUOTED + part.trim()); return; }
    const marked = part.replace(PAIR, (m, a: string, b: string) => (a.includes('.') || b.includes('.') ? ` @${a}|${b} ` : m));
    for (let w of marked.split(/[\s,;!?()]+/)) {
      w = w.replace(/^[.'-]+|[.'-]+$/g, '');
      if (w) out.push(w);
    }
  });
  return out;
}

/**
 * A word's singular, by the English rules that cover the category vocabulary (`pharmacies`,
 * `churches`, `dentists`); words that only look plural (`glass`, `bus`) stay as they are.
 *
 * @example singular('bakeries') // 'bakery'
 */
export function singular(w: string): string {
  if (w.length < 4 || /(ss|us|is)$/.test(w)) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (/(ches|shes|sses|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

/**
 * The longest phrase of `table` (keys: folded words joined by spaces) said at `words[i]`, its last word
 * also tried as singular: only the last word of an English phrase is a plural (`coffee shops`).
 *
 * @example phraseAt(new Map([['coffee shop', 1]]), 2, ['coffee', 'shops', 'in'], 0) // { words: 2, value: 1 }
 */
export function phraseAt<T>(table: Map<string, T>, longest: number, words: string[], i: number): { words: number; value: T } | null {
  for (let n = Math.min(longest, words.length - i); n >= 1; n--) {
    const ws = words.slice(i, i + n);
    const value = table.get(ws.join(' ')) ?? table.get([...ws.slice(0, -1), singular(ws[n - 1])].join(' '));
    if (value !== undefined) return { words: n, value };
  }
  return null;
}
