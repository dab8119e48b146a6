/**
 * Small string helpers for values as the map product serves them.
 */

const LEFTOVER_ESCAPE = /\\u([0-9a-fA-F]{4})/g;

/**
 * Some captures hold strings that were escaped twice (`placeid\u003dChIJ...` with a literal
 * backslash, seen in pages whose state was copied out of inline script). Decode what is left.
 *
 * @example
 *   unescapeLeftovers('a\\u003db') // 'a=b'
 */
export function unescapeLeftovers(s: string): string {
  return s.indexOf('\\u') < 0 ? s : s.replace(LEFTOVER_ESCAPE, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * A URL field: leftover escapes decoded, Google's `/url?q=<target>` redirect unwrapped, and
 * anything that is not an absolute http(s) URL dropped (null).
 *
 * @example
 *   cleanUrl('/url?q=https://example.com/&opi=1') // 'https://example.com/'
 */
export function cleanUrl(v: unknown): string | null {
  if (typeof v !== 'string' || v === '') return null;
  let s = unescapeLeftovers(v);
  if (s.startsWith('/url?')) {
    try {
      const q = new URLSearchParams(s.slice(5)).get('q');
      if (q) s = q;
    } catch {
      return null;
    }
  }
  if (s.startsWith('//')) s = 'https:' + s;
  return isHttpUrl(s) ? s : null;
}

/** `/^https?:\/\//i` as character tests (about ten calls per place). */
function isHttpUrl(s: string): boolean {
  if (s.length < 7 || (s.charCodeAt(0) | 0x20) !== 104 || (s.charCodeAt(1) | 0x20) !== 116 || (s.charCodeAt(2) | 0x20) !== 116 || (s.charCodeAt(3) | 0x20) !== 112) return false;
  const i = (s.charCodeAt(4) | 0x20) === 115 ? 5 : 4; // optional s
  return s.charCodeAt(i) === 58 && s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47;
}

/** A non-empty trimmed string or null. */
export function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/**
 * Form encoding the way the interface's product writes names into map links: spaces as `+`, and
 * every character outside `A-Za-z0-9_.-~` percent-encoded (so `'` is `%27` and `!`, which
 * separates the `data=` parameters, is `%21`).
 *
 * @example
 *   formEncode("Cremini's Pizza") // 'Cremini%27s+Pizza'
 */
export function formEncode(s: string): string {
  let e = encodeURIComponent(s);
  // Most names need neither replacement; testing first skips two regex passes per place.
  if (/[!'()*]/.test(e)) e = e.replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return e.includes('%20') ? e.replace(/%20/g, '+') : e;
}

let regionNames: Intl.DisplayNames | null = null;
// Intl lookups cost microseconds each; a search page asks for the same few countries 20 times.
const countryCache = new Map<string, string | null>();

/**
 * English country name of a two-letter code; null when the code is unknown.
 *
 * @example
 *   countryName('CY') // 'Cyprus'
 */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  const hit = countryCache.get(code);
  if (hit !== undefined) return hit;
  if (!/^[A-Z]{2}$/.test(code)) return null; // checked only on a miss: only valid codes are cached
  let name: string | null = null;
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    const n = regionNames.of(code);
    name = n && n !== code && n !== 'Unknown Region' ? n : null;
  } catch {
    name = null;
  }
  countryCache.set(code, name);
  return name;
}

const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky',
  LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire',
  NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota',
  OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island',
  SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont',
  VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  PR: 'Puerto Rico', GU: 'Guam', VI: 'U.S. Virgin Islands', AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
};

/**
 * Full US state name from a state field or, failing that, from the `City, ST 12345` tail of an
 * address. Null outside the US or when neither holds a state.
 *
 * @example
 *   usStateName('US', null, '127 Atlantic Ave, Brooklyn, NY 11201') // 'New York'
 */
export function usStateName(countryCode: string | null, state: string | null, address: string | null): string | null {
  if (countryCode !== 'US') return null;
  if (state) return US_STATES[state.toUpperCase()] ?? state;
  const m = address ? /,\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/.exec(address) : null;
  return m ? (US_STATES[m[1]] ?? null) : null;
}
