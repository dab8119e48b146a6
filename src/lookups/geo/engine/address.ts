/**
 * What a geocoding engine tells about a point, in engine-neutral form. Every field is a non-empty
 * string or null.
 */
export interface EngineAddress {
  road: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  county: string | null;
  state: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country_code: string | null;
}

/**
 * A trimmed non-empty string (numbers written out), or null for anything else.
 *
 * @example str('  10117 ') // '10117';  str('') // null;  str(7) // '7'
 */
export function str(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t ? t : null;
}

/**
 * The first of the values that `str` accepts.
 *
 * @example firstStr(undefined, '', 'Claflin') // 'Claflin'
 */
export function firstStr(...vs: unknown[]): string | null {
  for (const v of vs) {
    const s = str(v);
    if (s) return s;
  }
  return null;
}

/** @example isObject({}) // true;  isObject([]) // false */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Countries whose addresses put the house number before the street name ("350 5th Ave"). */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'LU', 'MC', 'IL', 'SG', 'MY', 'PH', 'IN', 'ZA', 'TH', 'HK']);

/**
 * The street line: street name with house number, ordered the way the country writes it.
 *
 * @example
 *   streetLine({ road: 'West 52nd Street', house_number: '51' }, 'US'); // '51 West 52nd Street'
 *   streetLine({ road: 'Unter den Linden', house_number: '77' }, 'DE'); // 'Unter den Linden 77'
 */
export function streetLine(a: Pick<EngineAddress, 'road' | 'house_number'>, countryCode: string | null): string | null {
  if (!a.road) return null;
  if (!a.house_number) return a.road;
  return countryCode && NUMBER_FIRST.has(countryCode) ? `${a.house_number} ${a.road}` : `${a.road} ${a.house_number}`;
}
