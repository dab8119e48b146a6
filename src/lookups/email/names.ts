/**
 * Person names → candidate local parts in the order corporate address patterns are most common
 * (first.last is by far the most frequent, then first, flast, firstlast…).
 */

export interface NameParts {
  first: string;
  last: string | null;
}

/** Letters that do not decompose into a base letter plus accents under NFKD. */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
};

/** Titles and suffixes that are never part of an address. */
const NOISE = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md', 'esq']);

/**
 * One name token as address characters: accents dropped, apostrophes and hyphens removed, lower-case.
 * @example asciiToken("O'Brien-Müller") // 'obrienmuller'
 */
export function asciiToken(token: string): string {
  const lower = token.toLowerCase();
  let out = '';
  for (const ch of lower.normalize('NFKD')) {
    if (/[a-z0-9]/.test(ch)) out += ch;
    else if (SPECIAL[ch]) out += SPECIAL[ch];
  }
  return out;
}

/**
 * First and last name of a full name ('Dr. Jane Q. Doe' → jane / doe; 'Doe, Jane' → jane / doe).
 * Returns null when no usable letters remain.
 * @example splitName('José María García') // { first: 'jose', last: 'garcia' }
 */
export function splitName(fullName: string): NameParts | null {
  let text = fullName.trim();
  const comma = text.indexOf(',');
  // "Last, First" order.
  if (comma > 0) text = `${text.slice(comma + 1)} ${text.slice(0, comma)}`;
  const tokens = text
    .split(/\s+/)
    .map((t) => asciiToken(t.replace(/\.$/, '')))
    .filter((t) => t !== '' && !NOISE.has(t));
  // Middle initials carry no pattern weight.
  const words = tokens.length > 2 ? [tokens[0], ...tokens.slice(1, -1).filter((t) => t.length > 1), tokens[tokens.length - 1]] : tokens;
  if (words.length === 0) return null;
  if (words.length === 1) return { first: words[0], last: null };
  return { first: words[0], last: words[words.length - 1] };
}

export interface Candidate {
  local: string;
  pattern: string;
}

/** Patterns by prevalence; {f} / {l} are initials. */
const PATTERNS: Array<[pattern: string, make: (f: string, l: string) => string]> = [
  ['first.last', (f, l) => `${f}.${l}`],
  ['first', (f) => f],
  ['flast', (f, l) => `${f[0]}${l}`],
  ['firstlast', (f, l) => `${f}${l}`],
  ['first_last', (f, l) => `${f}_${l}`],
  ['f.last', (f, l) => `${f[0]}.${l}`],
  ['last', (_f, l) => l],
  ['lastf', (f, l) => `${l}${f[0]}`],
  ['first.l', (f, l) => `${f}.${l[0]}`],
  ['firstl', (f, l) => `${f}${l[0]}`],
  ['last.first', (f, l) => `${l}.${f}`],
  ['last_first', (f, l) => `${l}_${f}`],
  ['lastfirst', (f, l) => `${l}${f}`],
  ['first-last', (f, l) => `${f}-${l}`],
  ['fl', (f, l) => `${f[0]}${l[0]}`],
  ['l.first', (f, l) => `${l[0]}.${f}`],
];

/**
 * Candidate local parts, most likely first, without duplicates.
 * @example candidates({ first: 'jane', last: 'doe' }).slice(0, 3).map((c) => c.local) // ['jane.doe', 'jane', 'jdoe']
 */
export function candidates(name: NameParts): Candidate[] {
  if (!name.last) return [{ local: name.first, pattern: 'first' }];
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const [pattern, make] of PATTERNS) {
    const local = make(name.first, name.last);
    if (local.length > 64 || seen.has(local)) continue;
    seen.add(local);
    out.push({ local, pattern });
  }
  return out;
}
