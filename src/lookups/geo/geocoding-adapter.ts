/**
 * `/geocoding` (forward: address or place text → point) as a local adapter. With the operator's
 * geocoder (GEOCODER_URL, engine/settings.ts) its best hit is the answer (`match: geocoder`); without
 * one, or when it fails or finds nothing, the city the text names from the shipped gazetteer
 * (`match: city`, ./forward.ts). The other fields are those `/reverse-geocoding` gives at the point
 * found (county, time zone, plus code, and the engine's street and postal code), so both
 * endpoints describe a place alike. A text that names no known city finds nothing: no record, no charge.
 * A geocoder the SSRF guard refuses fails the query saying so (a down one is fallen back from).
 */
import type { LocalAdapter, LookupContext, QueryContext } from '../../sources/_kit/adapter.ts';
import type { Static } from '@sinclair/typebox';
import type { geocodingRecord } from '../../contract/records.ts';
import { countryName } from './country.ts';
import { engineSearch, unlessRefused } from './engine/client.ts';
import { mergeEngine } from './engine/merge.ts';
import { geocoderSettings } from './engine/settings.ts';
import { checkGeocodingQuery, findCity } from './forward.ts';
import { composeAddress } from './record.ts';
import { loadReverseGeocoder } from './reverse.ts';

export type GeocodingRecord = Static<typeof geocodingRecord>;

/**
 * The records for one text: one, or none when nothing was found.
 *
 * @example await geocode('Palo Alto, CA') // [{ query: 'Palo Alto, CA', latitude: 37.44188, longitude: -122.14302, city: 'Palo Alto', match: 'city', ... }]
 */
export async function geocode(query: string, lookup: LookupContext = { settings: {} }): Promise<GeocodingRecord[]> {
  const engine = geocoderSettings(lookup.settings);
  const hit = engine ? await engineSearch(engine, query, lookup.signal).catch(unlessRefused(engine)) : null;
  const geo = await loadReverseGeocoder();
  if (hit) {
    const at = geo.reverse(hit.lat, hit.lng, query);
    const rec = hit.address ? mergeEngine(at, hit.address) : at;
    return [{ ...pointRecord(query, hit.lat, hit.lng, rec), match: 'geocoder' }];
  }
  const found = findCity(query);
  if (!found) return [];
  const { city, name } = found;
  const at = geo.reverse(city.lat, city.lng, query);
  // City level: the named city and its state; what reverse geocoding knows of the point besides (county,
  // zone); no street, and no postal code (a city centroid's nearest ZIP is not the text's).
  const state = city.state ?? at.state;
  const rec = { ...at, city: name, state, street: null, postal_code: null,
    address: composeAddress({ city: name, state, country: countryName(city.country) }) };
  return [{ ...pointRecord(query, city.lat, city.lng, { ...rec, country_code: city.country }), match: 'city' }];
}

function pointRecord(query: string, latitude: number, longitude: number, r: Omit<GeocodingRecord, 'query' | 'latitude' | 'longitude' | 'country' | 'match'>) {
  return {
    query, latitude, longitude, address: r.address, street: r.street, city: r.city, county: r.county, state: r.state, postal_code: r.postal_code,
    country: r.country_code ? countryName(r.country_code) : null, country_code: r.country_code, plus_code: r.plus_code, time_zone: r.time_zone,
  };
}

export const geocodingAdapter: LocalAdapter<Record<string, unknown>, GeocodingRecord> = {
  kind: 'local',
  endpoint: '/geocoding',
  checkQuery: checkGeocodingQuery,
  async lookup(ctx: QueryContext<Record<string, unknown>>, lookup: LookupContext): Promise<GeocodingRecord[]> {
    return geocode(ctx.query, lookup);
  },
  async warmUp(): Promise<void> {
    await loadReverseGeocoder();
  },
};
