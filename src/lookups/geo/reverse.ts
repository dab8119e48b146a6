/**
 * The offline reverse geocoder: every field of the 2.6 record that shipped data can answer.
 *
 * - country_code: country-coder polygons (exact);
 * - US state/county: Census polygons (exact); US postal_code: nearest ZIP centroid (approximate);
 * - elsewhere state/county: GeoNames admin1/admin2 of the nearest place in the same country;
 * - city: the best-scored GeoNames place (population against distance) in the same country/state;
 * - time_zone: tz-lookup; plus_code: full 10-digit code by the OLC integer method (plus-code.ts).
 */
import tzlookup from '@photostructure/tz-lookup';
import { loadAdminNames } from './admin-names.ts';
import { countryAt, countryName } from './country.ts';
import { bestCity, loadPlaces, nearestPlace, type PlaceIndex } from './places.ts';
import { distanceKm } from './nearby.ts';
import { plusCode } from './plus-code.ts';
import { composeAddress, type ReverseGeocodingRecord } from './record.ts';
import { loadUsCounties, type UsCountyLookup } from './us-counties.ts';
import { loadUsZips, nearestZip, type ZipIndex } from './us-zips.ts';

/** A city farther than this is not "the" city of the point. */
const CITY_MAX_KM = 30;
/** State comes from the nearest place up to this far (large rural regions have sparse places). */
const STATE_MAX_KM = 100;
/** County (admin2) only from a place this close; admin2 areas are small. */
const COUNTY_MAX_KM = 30;

export interface ReverseGeocoder {
  /**
   * Record for a valid point (lat -90..90, lng -180..180); `query` defaults to `lat,lng`.
   * Never throws for a valid point.
   */
  reverse(lat: number, lng: number, query?: string): ReverseGeocodingRecord;
  /** Numbers measured while loading. */
  stats: { loadMs: number; places: number; zips: number };
}

interface Data {
  places: PlaceIndex;
  countyAt: UsCountyLookup;
  zips: ZipIndex;
}

function reverseWith(d: Data, lat: number, lng: number, query: string): ReverseGeocodingRecord {
  const { places, countyAt, zips } = d;
  const code = countryAt(lat, lng);
  let state: string | null = null;
  let county: string | null = null;
  let city: string | null = null;
  let postal: string | null = null;

  if (code) {
    const us = code === 'US' ? countyAt(lng, lat) : null;
    const inCountry = (i: number): boolean => places.country[i] === code;
    let stateCode: string | null = null;
    if (us) {
      state = us.state;
      county = us.county;
      stateCode = us.stateCode;
    } else {
      const near = nearestPlace(places, lng, lat, STATE_MAX_KM, inCountry);
      if (near !== undefined) {
        state = places.admin1Name[near];
        stateCode = places.admin1Code[near] || null;
        if (distanceKm(lng, lat, places.lng[near], places.lat[near]) <= COUNTY_MAX_KM) county = places.admin2Name[near];
      }
    }
    // In the US the state is exact, so the city must lie in it. Elsewhere the state is itself the
    // nearest place's guess, and GeoNames splits some capitals from their region (Lima city is in
    // "Lima Province", its districts in "Lima region"), so only the country is required.
    const area = us ? (i: number): boolean => inCountry(i) && places.admin1Code[i] === us.stateCode : inCountry;
    const best = bestCity(places, lng, lat, CITY_MAX_KM, area);
    if (best !== undefined) city = places.name[best];
    if (code === 'US') {
      const z = nearestZip(zips, lng, lat, stateCode);
      if (z !== undefined) {
        postal = zips.zip[z];
        // No populated place within 30 km, but a ZIP within 25 km: its postal place name.
        city ??= zips.place[z];
      }
    }
  }

  return {
    query,
    address: composeAddress({ city, state, postal_code: postal, country: code && countryName(code) }),
    city,
    country_code: code,
    county,
    photo: null,
    plus_code: plusCode(lat, lng),
    postal_code: postal,
    state,
    street: null,
    time_zone: tzlookup(lat, lng),
  };
}

/**
 * Loads all data synchronously; use `loadReverseGeocoder` to share one instance.
 *
 * @example const geo = createReverseGeocoder(); geo.reverse(48.8584, 2.2945).city // 'Paris'
 */
export function createReverseGeocoder(): ReverseGeocoder {
  const t0 = performance.now();
  const names = loadAdminNames();
  const d: Data = { places: loadPlaces(names), countyAt: loadUsCounties(names), zips: loadUsZips() };
  const loadMs = performance.now() - t0;
  return {
    reverse: (lat, lng, query) => reverseWith(d, lat, lng, query ?? `${lat},${lng}`),
    stats: { loadMs, places: d.places.count, zips: d.zips.count },
  };
}

let shared: Promise<ReverseGeocoder> | undefined;

/**
 * The process-wide reverse geocoder, loaded on first call (about 1.5 s) and shared afterwards.
 * A failed load is not cached, so a later call tries again.
 *
 * @example
 *   const geo = await loadReverseGeocoder();
 *   geo.reverse(41.8781, -87.6298).county; // 'Cook County'
 */
export function loadReverseGeocoder(): Promise<ReverseGeocoder> {
  if (!shared) {
    shared = new Promise<ReverseGeocoder>((resolve) => setImmediate(() => resolve(createReverseGeocoder())));
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}
