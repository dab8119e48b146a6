/**
 * The reverse-geocoding record (interface 2.6). Every field is a string or null; nothing is
 * guessed: a field stays null when no data source answers it.
 */
import type { Static } from '@sinclair/typebox';
import type { reverseGeocodingRecord } from '../../contract/records.ts';

/** The declared record (photo: none offline, only an external engine could give it; street: with house
 *  number, only an external engine gives it). */
export type ReverseGeocodingRecord = Static<typeof reverseGeocodingRecord>;

export interface AddressParts {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

/**
 * Composes `street, city, state postal_code, country` from the parts that are known. A part equal
 * to the one before it (city-states such as Singapore, "Berlin, Berlin") is written once.
 *
 * @example
 *   composeAddress({ city: 'Manhattan', state: 'New York', postal_code: '10151', country: 'United States' });
 *   // 'Manhattan, New York 10151, United States'
 */
export function composeAddress(p: AddressParts): string | null {
  const out: string[] = [];
  const push = (s: string | null | undefined): void => {
    if (s && out[out.length - 1] !== s) out.push(s);
  };
  push(p.street);
  push(p.city);
  const state = p.state && p.state !== p.city ? p.state : null;
  const region = [state, p.postal_code].filter(Boolean).join(' ');
  push(region);
  push(p.country);
  return out.length ? out.join(', ') : null;
}
