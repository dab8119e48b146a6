/**
 * Turns a free-text phone query into a libphonenumber `PhoneNumber` (full "max" metadata: the min
 * metadata leaves the number type null for many countries), or a clear reason why not.
 */
import { parsePhoneNumberWithError, isSupportedCountry, ParseError } from 'libphonenumber-js/max';
import type { PhoneNumber, CountryCode } from 'libphonenumber-js/max';

/** Outcome of reading a query; every failure carries a status and a human-readable reason. */
export type ParsedPhone =
  | { ok: true; phone: PhoneNumber; regionUsed: CountryCode | null }
  | { ok: false; status: 'NOT_A_NUMBER' | 'REGION_REQUIRED' | 'INVALID'; details: string };

/** Longest input we try to read; anything longer is not one phone number. */
const MAX_QUERY_LENGTH = 100;

/** Region aliases people use that are not ISO 3166-1 codes. */
const REGION_ALIASES: Record<string, string> = { UK: 'GB' };

/**
 * A request region ('us', 'GB', 'uk') as a libphonenumber country, or null when absent or unknown.
 * @example normaliseRegion('uk') // 'GB'
 */
export function normaliseRegion(region: unknown): CountryCode | null {
  if (typeof region !== 'string') return null;
  const upper = region.trim().toUpperCase();
  const code = REGION_ALIASES[upper] ?? upper;
  return isSupportedCountry(code) ? code : null;
}

const PARSE_ERRORS: Record<string, { status: 'NOT_A_NUMBER' | 'INVALID'; details: string }> = {
  NOT_A_NUMBER: { status: 'NOT_A_NUMBER', details: 'no phone number found in the query' },
  INVALID_COUNTRY: { status: 'INVALID', details: 'unknown country calling code' },
  TOO_SHORT: { status: 'INVALID', details: 'too short to be a phone number' },
  TOO_LONG: { status: 'INVALID', details: 'too long to be a phone number' },
  INVALID_LENGTH: { status: 'INVALID', details: 'length matches no numbering plan' },
};

/**
 * Parses a query. Numbers without '+' need a region (the request's `region`); without one, a
 * leading '00' (the ITU international prefix) is read as '+', otherwise the answer is REGION_REQUIRED.
 * @example parsePhone('+49 30 123456') // { ok: true, phone: <DE 30123456>, regionUsed: null }
 * @example parsePhone('030 123456', 'DE') // { ok: true, ... regionUsed: 'DE' }
 * @example parsePhone('030 123456') // { ok: false, status: 'REGION_REQUIRED', details: ... }
 */
export function parsePhone(query: unknown, region?: unknown): ParsedPhone {
  if (typeof query !== 'string' || query.trim() === '') {
    return { ok: false, status: 'NOT_A_NUMBER', details: 'empty query' };
  }
  let text = query.trim();
  if (text.length > MAX_QUERY_LENGTH) {
    return { ok: false, status: 'NOT_A_NUMBER', details: `longer than ${MAX_QUERY_LENGTH} characters` };
  }
  if (!/\d/.test(text)) return { ok: false, status: 'NOT_A_NUMBER', details: 'the query has no digits' };
  text = text.replace(/^tel:/i, '');
  const defaultCountry = normaliseRegion(region);
  // '+' (or a full-width '＋') before the first digit makes the number international.
  const firstDigit = text.search(/\d/);
  let international = /[+\uFF0B]/.test(text.slice(0, firstDigit));
  if (!international && !defaultCountry) {
    const m = /^\(?00\s*/.exec(text);
    if (!m) {
      const why =
        region === undefined || region === null || region === ''
          ? 'no region was given'
          : `region "${String(region)}" is not a known country code`;
      return {
        ok: false,
        status: 'REGION_REQUIRED',
        details: `the number has no country code (+…) and ${why}`,
      };
    }
    text = '+' + text.slice(m[0].length);
    international = true;
  }
  try {
    const phone = parsePhoneNumberWithError(text, international ? {} : { defaultCountry: defaultCountry! });
    return { ok: true, phone, regionUsed: international ? null : defaultCountry };
  } catch (e) {
    if (e instanceof ParseError) {
      const known = PARSE_ERRORS[e.message];
      if (known) return { ok: false, ...known };
      return { ok: false, status: 'INVALID', details: e.message.toLowerCase().replace(/_/g, ' ') };
    }
    throw e;
  }
}
