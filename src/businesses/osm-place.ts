/**
 * Places an imported OSM business (issue 26): most objects carry no `addr:country`, `addr:city` or
 * postcode, and a search by country or city found none of them. What the tags lack is filled from the
 * coordinates: the country from country-coder's borders, state, county, city and (US) postal code from
 * the project's own reverse geocoder; the address is composed by the country's postal convention, and
 * the phone becomes E.164 once the country is known, the text as tagged kept in `phone_raw`.
 * Tags win where they have a value: the mapper saw the place, the geocoder guesses from the nearest town.
 *
 * @example const placer = await loadPlacer(); placer.place(record, tags, 'MC')
 */
import addressFormatter from '@fragaria/address-formatter';
import { parsePhoneNumberFromString, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { countryAt, countryName } from '../lookups/geo/country.ts';
import { loadReverseGeocoder, type ReverseGeocoder } from '../lookups/geo/reverse.ts';

export interface AddressParts {
  houseNumber?: string | null;
  road?: string | null;
  postcode?: string | null;
  city?: string | null;
  state?: string | null;
  countryCode?: string | null;
}

/**
 * One line, the lines of the country's postal format joined by ", ", the country's English name last
 * (as scraped places end theirs) unless the last line already is it (`98000 Monaco`).
 *
 * @example composeBusinessAddress({ houseNumber: '2', road: 'Rue des Orangers', postcode: '98000', city: 'Monaco', countryCode: 'MC' })
 *   // '2 Rue des Orangers, 98000 Monaco'
 */
export function composeBusinessAddress(p: AddressParts): string | null {
  const parts: Record<string, string> = {};
  // A number without its street reads as a street of its own (`4, Monaco`).
  if (p.houseNumber && p.road) parts.houseNumber = p.houseNumber;
  if (p.road) parts.road = p.road;
  if (p.postcode) parts.postcode = p.postcode;
  if (p.city) parts.city = p.city;
  const code = p.countryCode?.toUpperCase() ?? null;
  if (p.state && code && writesState(code)) parts.state = p.state;
  if (!Object.keys(parts).length) return null;
  // Without a country the formatter falls back to a generic order; with one, the country's own.
  if (code) parts.countryCode = code;
  const lines = addressFormatter.format(parts, { output: 'array', appendCountry: false }) as string[];
  const country = code ? countryName(code) : null;
  const last = lines[lines.length - 1] ?? '';
  if (country && !last.endsWith(country)) lines.push(country);
  return lines.length ? lines.join(', ') : null;
}

const stateWritten = new Map<string, boolean>();
/** Whether the country's full addresses carry the state (US, CA, AU do; MC, FR do not): the formatter's
 *  fallback for a short address would otherwise add a region nobody writes there. */
function writesState(code: string): boolean {
  let v = stateWritten.get(code);
  if (v === undefined) {
    const probe = addressFormatter.format({ road: 'R', postcode: '1', city: 'C', state: 'STATEPROBE', countryCode: code }, { output: 'array', appendCountry: false }) as string[];
    v = probe.some((l) => l.includes('STATEPROBE'));
    stateWritten.set(code, v);
  }
  return v;
}

/** The first phone of an OSM list (`a;b`) as E.164 when the country makes it valid, else null. */
export function e164Of(raw: string, country: string | null): string | null {
  const first = raw.split(';')[0].trim();
  if (!first) return null;
  const cc = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const n = parsePhoneNumberFromString(first, cc);
  return n?.isValid() ? n.number : null;
}

export interface Placer {
  /** Fills in place what `b` lacks; `tags` give the address parts, `fallbackCountry` (the import's
   *  `--country`) the country of a record the coordinates cannot place. */
  place(b: BusinessRecord, tags: Record<string, string>, fallbackCountry?: string): BusinessRecord;
}

export function placerWith(geo: ReverseGeocoder): Placer {
  return {
    place(b, tags, fallbackCountry) {
      const at = b.latitude != null && b.longitude != null ? { lat: b.latitude, lng: b.longitude } : null;
      b.country_code ??= (at && countryAt(at.lat, at.lng)) ?? fallbackCountry?.toUpperCase() ?? null;
      if (at && b.country_code) {
        const r = geo.reverse(at.lat, at.lng);
        // Another country's towns say nothing about this one (a border, or a tag that disagrees).
        if (r.country_code === b.country_code) {
          b.state ??= r.state;
          b.county ??= r.county;
          b.city ??= r.city;
          b.postal_code ??= r.postal_code;
        }
      }
      b.full_address = composeBusinessAddress({
        houseNumber: tags['addr:housenumber'], road: tags['addr:street'] ?? tags['addr:place'], postcode: b.postal_code,
        city: b.city, state: b.state, countryCode: b.country_code,
      });
      if (b.phone) {
        const e164 = e164Of(b.phone, b.country_code);
        if (e164 && e164 !== b.phone) { b.phone_raw = b.phone; b.phone = e164; }
      }
      return b;
    },
  };
}

/** The process's reverse geocoder behind a placer (loaded once, about 1.5 s). */
export async function loadPlacer(): Promise<Placer> {
  return placerWith(await loadReverseGeocoder());
}
