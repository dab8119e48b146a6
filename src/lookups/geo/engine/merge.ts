/**
 * Merging an engine's answer into the offline record. The engine wins for what only it can know
 * (street) and for what it knows better (postal_code: a real postal area instead of the nearest
 * ZIP centroid). City, county and state from the engine only fill fields the offline data left
 * null: offline US state and county are exact polygons, and keeping them makes records comparable
 * with and without an engine. country_code stays from country-coder (the engine's only fills a null).
 */
import { countryName } from '../country.ts';
import { composeAddress, type ReverseGeocodingRecord } from '../record.ts';
import { streetLine, type EngineAddress } from './address.ts';

/**
 * A new record with the engine's fields merged in (the input is not changed).
 *
 * @example
 *   mergeEngine(offline, { road: 'West 52nd Street', house_number: '51', postal_code: '10019', ... })
 *   // { ...offline, street: '51 West 52nd Street', postal_code: '10019', address: '51 West 52nd Street, Manhattan, New York 10019, United States' }
 */
export function mergeEngine(rec: ReverseGeocodingRecord, a: EngineAddress): ReverseGeocodingRecord {
  const cc = rec.country_code ?? a.country_code;
  const street = streetLine(a, cc) ?? rec.street;
  const postal = a.postal_code ?? rec.postal_code;
  const city = rec.city ?? a.city;
  const county = rec.county ?? a.county;
  const state = rec.state ?? a.state;
  return {
    ...rec,
    address: composeAddress({ street, city, state, postal_code: postal, country: cc && countryName(cc) }),
    city,
    country_code: cc,
    county,
    postal_code: postal,
    state,
    street,
  };
}
