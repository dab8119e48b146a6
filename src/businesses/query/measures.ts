/**
 * The numeric phrases of a natural-language query, read into the filter grammar of interface 4.8:
 * ratings (`rated 4.5+`, `4 stars and up`, `rated between 3 and 4`, `highly rated`), review counts
 * (`100+ reviews`, `more than 50 reviews`) and distances (`within 2 km`, `within 500 m`, `within 1 mile`).
 * A rating or count said bare (`rated 4`, `with 100 reviews`) is read as "at least": that is what
 * people mean by it; the expression in parsed_query shows the reading.
 *
 * @example ratingAt(['rated', '4.5+'], 0) // { words: 2, expr: '4.5+' }
 */

export interface Measure { words: number; expr: string }

const NUM = /^(\d+(?:\.\d+)?)(\+)?$/;
const num = (w: string | undefined) => (w === undefined ? null : w.match(NUM));

/** Comparisons before the number, in words, and their expression form. */
const BEFORE: [string[], string][] = [
  [['at', 'least'], '+'], [['no', 'less', 'than'], '+'], [['more', 'than'], '>'], [['greater', 'than'], '>'], [['higher', 'than'], '>'],
  [['better', 'than'], '>'], [['above'], '>'], [['over'], '>'], [['at', 'most'], '<='], [['no', 'more', 'than'], '<='], [['less', 'than'], '<'],
  [['fewer', 'than'], '<'], [['lower', 'than'], '<'], [['below'], '<'], [['under'], '<'],
];
/** Words after the number that make it a lower or upper bound. */
const AFTER: [string[], string][] = [
  [['or', 'more'], '+'], [['or', 'higher'], '+'], [['or', 'better'], '+'], [['or', 'above'], '+'], [['and', 'up'], '+'], [['and', 'above'], '+'],
  [['plus'], '+'], [['or', 'less'], '<='], [['or', 'lower'], '<='], [['or', 'fewer'], '<='], [['and', 'below'], '<='], [['or', 'under'], '<='],
];

const startsWith = (words: string[], i: number, phrase: string[]) => phrase.every((p, k) => words[i + k] === p);

/** `[comparison] N [unit words] [bound words]` or `between N and M` / `N to M` / `N-M`, at words[i]. */
function comparisonAt(words: string[], i: number, unit: Set<string>, unitRequired: boolean): Measure | null {
  let j = i;
  if (words[j] === 'between' && num(words[j + 1]) && ['and', 'to'].includes(words[j + 2]) && num(words[j + 3])) {
    let k = j + 4;
    if (unit.has(words[k])) k++; else if (unitRequired) return null;
    return { words: k - i, expr: `${num(words[j + 1])![1]}-${num(words[j + 3])![1]}` };
  }
  let op = '';
  for (const [phrase, o] of BEFORE) if (startsWith(words, j, phrase)) { op = o; j += phrase.length; break; }
  const range = words[j]?.match(/^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/);
  const n = num(words[j]);
  if (!n && !range) return null;
  j++;
  let expr = range ? `${range[1]}-${range[2]}` : n![2] ? `${n![1]}+` : '';
  if (!range && !n![2] && !op && words[j] === 'to' && num(words[j + 1])) {
    expr = `${n![1]}-${num(words[j + 1])![1]}`;
    j += 2;
  }
  // The bound may come before or after the unit: `500 or more reviews`, `4 stars and up`.
  let after = '';
  const bound = () => { if (!expr && !after) for (const [phrase, o] of AFTER) if (startsWith(words, j, phrase)) { after = o; j += phrase.length; break; } };
  bound();
  if (unit.has(words[j])) j++; else if (unitRequired) return null;
  bound();
  if (!expr) {
    const o = op || after || '+';
    expr = o === '+' ? `${n![1]}+` : `${o}${n![1]}`;
  }
  return { words: j - i, expr };
}

const STARS = new Set(['star', 'stars']);
const RATED = new Set(['rated', 'rating', 'ratings', 'rate']);
const PRAISE: Record<string, string> = { highly: '4+', well: '4+', top: '4.5+', best: '4.5+' };

/** `rated 4.5+`, `rating above 4`, `rated between 3 and 4`, `4 stars and up`, `highly rated`. */
export function ratingAt(words: string[], i: number): Measure | null {
  if (PRAISE[words[i]] && RATED.has(words[i + 1])) return { words: 2, expr: PRAISE[words[i]] };
  if (RATED.has(words[i])) {
    const j = i + 1 + (['of', 'is', 'at'].includes(words[i + 1]) && !startsWith(words, i + 1, ['at', 'least']) && !startsWith(words, i + 1, ['at', 'most']) ? 1 : 0);
    const m = comparisonAt(words, j, STARS, false);
    return m ? { words: j - i + m.words, expr: m.expr } : null;
  }
  return comparisonAt(words, i, STARS, true);
}

const REVIEWS = new Set(['review', 'reviews']);

/** `100+ reviews`, `at least 50 reviews`, `fewer than 10 reviews`, `between 10 and 50 reviews`. */
export function reviewsAt(words: string[], i: number): Measure | null {
  return comparisonAt(words, i, REVIEWS, true);
}

const UNITS: Record<string, number> = {
  m: 1, meter: 1, meters: 1, metre: 1, metres: 1, km: 1000, kms: 1000, kilometer: 1000, kilometers: 1000, kilometre: 1000, kilometres: 1000,
  mi: 1609.344, mile: 1609.344, miles: 1609.344, ft: 0.3048, feet: 0.3048,
};

/** `within 2 km`, `within 500m`, `within a mile`, `2 km around`/`2 km radius`; metres. */
export function distanceAt(words: string[], i: number): { words: number; metres: number } | null {
  const within = words[i] === 'within';
  let j = within ? i + 1 : i;
  if (within && ['a', 'an', 'one'].includes(words[j]) && UNITS[words[j + 1]]) return { words: 3, metres: UNITS[words[j + 1]] };
  const glued = words[j]?.match(/^(\d+(?:\.\d+)?)([a-z]+)$/);
  let value: number;
  let unit: number | undefined;
  if (glued && UNITS[glued[2]]) { value = Number(glued[1]); unit = UNITS[glued[2]]; j++; } else {
    const n = words[j]?.match(/^\d+(?:\.\d+)?$/);
    if (!n || !UNITS[words[j + 1]]) return null;
    value = Number(words[j]); unit = UNITS[words[j + 1]]; j += 2;
  }
  if (!within) {
    if (!['around', 'radius', 'away', 'from'].includes(words[j])) return null;
    j++;
  }
  if (words[j] === 'radius' || words[j] === 'of' || words[j] === 'from' || words[j] === 'around') j++;
  return { words: j - i, metres: Math.round(value * unit * 1000) / 1000 };
}
