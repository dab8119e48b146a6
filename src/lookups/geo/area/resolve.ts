/**
 * An area value → its shape, from data that ships with trawl (docs/areas.md says which shape each
 * kind gets):
 * - `CC` (a country of GET /locations): its borders from country-coder, at the level the reverse
 *   geocoder answers (territories with their own code, such as PR, are left out of US);
 * - `US>State`: the Census state polygon (us-atlas); `US>State>X County`: the county polygon;
 * - `CC>Region` elsewhere: the region's places (GeoNames) give its extent, and a point belongs to it
 *   when it lies in the country and its nearest place belongs to the region;
 * - `CC>Region>City`, `CC>City`: a circle around the GeoNames place, radius from its population;
 * - a US ZIP (`90210`, `US>90210`): a circle around its centroid, half the way to the nearest other;
 * - a box `west,south,east,north` or GeoJSON (./geojson.ts).
 * Anything else is an AreaError whose message names what is wrong (a 422 at submit).
 *
 * @example
 *   resolveArea('US>Nevada').contains(36.17, -115.14) // true (Las Vegas)
 */
import { readFileSync } from 'node:fs';
import { feature as topoFeature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { borders } from '@rapideditor/country-coder';
import { loadAdminNames } from '../admin-names.ts';
import { countryAt } from '../country.ts';
import { US_COUNTIES_JSON } from '../data-files.ts';
import { isKnownCountry } from '../locations.ts';
import { loadPlaces, type PlaceIndex } from '../places.ts';
import { loadUsZips, type ZipIndex } from '../us-zips.ts';
import { circle, shapeOf, type Polygons, type Ring, type Shape } from './shape.ts';
import { looksLikeBox, polygonsOfText } from './geojson.ts';
import { listedPlace, listedRegion } from './listed.ts';

export class AreaError extends Error {}

export interface Area extends Shape {
  /** What the area is, in words (`US state Nevada`, `city Paris (FR), 16 km circle`). */
  kind: string;
}

let places: PlaceIndex | undefined;
let zips: ZipIndex | undefined;
let atlas: { states: Map<string, Polygons>; counties: Map<string, Polygons> } | undefined;
const placeIndex = () => (places ??= loadPlaces(loadAdminNames()));
const zipIndex = () => (zips ??= loadUsZips());
/** Whether the place index was read in this thread (tests: a US state's shape does not read it). */
export const placeIndexLoaded = (): boolean => places !== undefined;

const key = (s: string) => s.trim().toLowerCase();

function polysOfGeometry(g: Polygon | MultiPolygon | null | undefined): Polygons {
  if (!g) return [];
  return (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as unknown as Polygons;
}

function usAtlas() {
  if (atlas) return atlas;
  const topo = JSON.parse(readFileSync(US_COUNTIES_JSON, 'utf8')) as Topology<{ states: GeometryCollection<{ name: string }>; counties: GeometryCollection<{ name: string }> }>;
  const states = new Map<string, Polygons>();
  const stateByFips = new Map<string, string>();
  for (const f of (topoFeature(topo, topo.objects.states) as FeatureCollection<Polygon | MultiPolygon, { name: string }>).features) {
    states.set(key(f.properties.name), polysOfGeometry(f.geometry));
    stateByFips.set(String(f.id), f.properties.name);
  }
  // Counties keyed `state|county name`, with and without the kind word ("Cook County", "Cook").
  const counties = new Map<string, Polygons>();
  const names = loadAdminNames();
  const codeByName = new Map<string, string>();
  for (const [code, name] of names.admin1) if (code.startsWith('US.')) codeByName.set(name, code.slice(3));
  for (const f of (topoFeature(topo, topo.objects.counties) as FeatureCollection<Polygon | MultiPolygon, { name: string }>).features) {
    const fips = String(f.id);
    const state = stateByFips.get(fips.slice(0, 2));
    if (!state) continue;
    const polys = polysOfGeometry(f.geometry);
    const official = names.admin2.get(`US.${codeByName.get(state)}.${fips.slice(2)}`);
    for (const n of [official, `${f.properties.name} County`, `${f.properties.name} Parish`]) if (n) counties.set(`${key(state)}|${key(n)}`, polys);
  }
  atlas = { states, counties };
  return atlas;
}

function countryPolygons(code: string): Polygons {
  const out: Polygons = [];
  const own = borders.features.filter((f) => {
    const p = f.properties as { id?: string; country?: string; iso1A2?: string; level?: string };
    // A territory with its own code (PR under US) is its own country here, as in the reverse geocoder.
    const apart = p.level === 'territory' && p.iso1A2 && p.iso1A2 !== code;
    return (p.id === code || p.iso1A2 === code || p.country === code) && !apart;
  });
  for (const f of own) out.push(...polysOfGeometry(f.geometry as Polygon | MultiPolygon | null));
  if (out.length) return out;
  // A territory made only of parts (GG: Guernsey, Alderney, Sark) has no geometry of its own: its members have.
  const byId = new Map(borders.features.map((f) => [String((f.properties as { id?: string }).id), f]));
  for (const f of own) for (const m of (f.properties as { members?: string[] }).members ?? []) out.push(...polysOfGeometry(byId.get(m)?.geometry as Polygon | MultiPolygon | null));
  return out;
}

/** Radius (km) a city is given: its population over 3,000 inhabitants a km², at least 2 km. */
export function cityRadiusKm(population: number): number {
  return Math.max(2, Math.sqrt(population / 3000 / Math.PI));
}

/** Convex hull (monotone chain) of [lng, lat] points, closed. */
function hull(pts: Array<[number, number]>): Ring {
  const p = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Array<[number, number]> = [];
  for (const x of p) { while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, x) <= 0) lower.pop(); lower.push(x); }
  const upper: Array<[number, number]> = [];
  for (const x of p.reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, x) <= 0) upper.pop(); upper.push(x); }
  const ring = [...lower.slice(0, -1), ...upper.slice(0, -1)];
  ring.push(ring[0]!);
  return ring;
}

/** cities500 places by `CC|name` and by `CC|region name` (lower case), built once. */
let names: { byName: Map<string, number[]>; byRegion: Map<string, number[]> } | undefined;
function nameIndex(P: PlaceIndex) {
  if (names) return names;
  const byName = new Map<string, number[]>(), byRegion = new Map<string, number[]>();
  const put = (m: Map<string, number[]>, k: string, i: number) => { const l = m.get(k); if (l) l.push(i); else m.set(k, [i]); };
  for (let i = 0; i < P.count; i++) {
    put(byName, `${P.country[i]}|${key(P.name[i]!)}`, i);
    if (P.admin1Name[i] !== null) put(byRegion, `${P.country[i]}|${key(P.admin1Name[i]!)}`, i);
  }
  names = { byName, byRegion };
  return names;
}

/** A region as the hull of its places' points grown by 0.2° (about 20 km, so the edge towns keep
 *  their surroundings), and inside it the points of the country that `belongs` accepts. The
 *  country is the region's, or the one the borders give its places (GeoNames files a disputed
 *  region such as Crimea under one country, the borders another; 32 of its places tell). */
function regionShape(code: string, points: Array<[number, number]>, belongs: (lat: number, lng: number) => boolean): Shape {
  const pts: Array<[number, number]> = [];
  for (const [lat, lng] of points) for (const [dx, dy] of [[-0.2, -0.2], [0.2, -0.2], [0.2, 0.2], [-0.2, 0.2]] as const) pts.push([lng + dx, lat + dy]);
  // (No country at all where the borders leave its places out, as northern Cyprus.)
  const countries = new Set<string | null>([code]);
  const every = Math.max(1, Math.floor(points.length / 32));
  for (let i = 0; i < points.length; i += every) countries.add(countryAt(points[i]![0], points[i]![1]));
  return shapeOf([[hull(pts)]], (lat, lng) => countries.has(countryAt(lat, lng)) && belongs(lat, lng));
}

/**
 * A region: the listing's own places draw it when it lists the region (listed.ts: the population
 * data is another GeoNames vintage, where a region may be renumbered, as Vietnam's provinces are),
 * else the population data's places filed under that name.
 */
function regionArea(code: string, region: string, P: PlaceIndex): Area | null {
  const listedOne = listedRegion(code, region);
  if (listedOne) return { ...regionShape(code, listedOne.points, listedOne.nearestIn), kind: `region ${region.trim()} (${code}), by its places` };
  const ids = nameIndex(P).byRegion.get(`${code}|${key(region)}`);
  if (!ids?.length) return null;
  const name = P.admin1Name[ids[0]!]!;
  const a1 = P.admin1Code[ids[0]!]!;
  const near = (lat: number, lng: number) => {
    let best = -1, bestD = Infinity;
    const r = 0.5;
    for (const id of P.index.range(lng - r, lat - r, lng + r, lat + r)) {
      if (P.country[id] !== code) continue;
      const d = (P.lat[id]! - lat) ** 2 + ((P.lng[id]! - lng) * Math.cos((lat * Math.PI) / 180)) ** 2;
      if (d < bestD) { bestD = d; best = id; }
    }
    return best;
  };
  const shape = regionShape(code, ids.map((i) => [P.lat[i]!, P.lng[i]!]), (lat, lng) => {
    const id = near(lat, lng);
    return id >= 0 && P.admin1Code[id] === a1;
  });
  return { ...shape, kind: `region ${name} (${code}), by its places` };
}

/** Kilometres within which a population-data place of the same name is the listed city. */
const SAME_CITY_KM = 20;

/**
 * A city: a circle around its point, radius from its population (cityRadiusKm). A city the listing
 * names is placed at its listed point, with the population of the same-named place of the
 * population data nearest to it (within 20 km), else of the most populous one within a kilometre
 * (the same place under another name: `Ajman` / `Ajman City`), else 2 km. Other names are looked up
 * in the population data (the most populous of that name, in that region when one is given).
 */
function cityArea(code: string, region: string | null, city: string, P: PlaceIndex): Area | null {
  const same = nameIndex(P).byName.get(`${code}|${key(city)}`) ?? [];
  const at = listedPlace(code, region, city);
  if (at) {
    const cosLat = Math.max(0.05, Math.cos((at.lat * Math.PI) / 180));
    const km = (i: number) => Math.hypot(P.lat[i]! - at.lat, (P.lng[i]! - at.lng) * cosLat) * 111.32;
    let pop = -1, bestKm = SAME_CITY_KM;
    for (const i of same) if (km(i) <= bestKm) { bestKm = km(i); pop = P.population[i]!; }
    if (pop < 0) {
      const dLat = 1 / 111.32, dLng = dLat / cosLat;
      for (const id of P.index.range(at.lng - dLng, at.lat - dLat, at.lng + dLng, at.lat + dLat)) if (P.country[id] === code) pop = Math.max(pop, P.population[id]!);
    }
    const r = cityRadiusKm(Math.max(0, pop));
    return { ...shapeOf([[circle(at.lat, at.lng, r)]]), kind: `city ${city.trim()} (${code}), ${r.toFixed(1)} km circle` };
  }
  let best = -1;
  for (const i of same) {
    if (region !== null && (P.admin1Name[i] === null || key(P.admin1Name[i]!) !== key(region))) continue;
    if (best < 0 || P.population[i]! > P.population[best]!) best = i;
  }
  if (best < 0) return null;
  const km = cityRadiusKm(P.population[best]!);
  return { ...shapeOf([[circle(P.lat[best]!, P.lng[best]!, km)]]), kind: `city ${P.name[best]} (${code}), ${km.toFixed(1)} km circle` };
}

function zipArea(zip: string): Area | null {
  const Z = zipIndex();
  const i = Z.zip.indexOf(zip);
  if (i < 0) return null;
  let nearest = Infinity;
  const r = 0.3;
  for (const j of Z.index.range(Z.lng[i]! - r, Z.lat[i]! - r, Z.lng[i]! + r, Z.lat[i]! + r)) {
    if (j === i) continue;
    const km = Math.hypot(Z.lat[j]! - Z.lat[i]!, (Z.lng[j]! - Z.lng[i]!) * Math.cos((Z.lat[i]! * Math.PI) / 180)) * 111.32;
    if (km > 0.05) nearest = Math.min(nearest, km);
  }
  const km = Math.max(1, Math.min(10, Number.isFinite(nearest) ? nearest / 2 : 10));
  return { ...shapeOf([[circle(Z.lat[i]!, Z.lng[i]!, km)]]), kind: `US ZIP ${zip} (${Z.place[i]}), ${km.toFixed(1)} km circle around its centroid` };
}

function locationArea(value: string): Area {
  const parts = value.split('>').map((s) => s.trim());
  const code = parts[0]!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !isKnownCountry(code)) throw new AreaError(`area "${value.slice(0, 80)}" is not a location: it must start with a country code from GET /locations (e.g. US>Nevada), or be a ZIP, a box west,south,east,north or GeoJSON`);
  if (parts.length === 1) {
    const polys = countryPolygons(code);
    if (!polys.length) throw new AreaError(`area "${code}": no borders ship for this country`);
    return { ...shapeOf(polys, (lat, lng) => countryAt(lat, lng) === code), kind: `country ${code}` };
  }
  if (code === 'US' && parts.length === 2 && /^\d{5}$/.test(parts[1]!)) {
    const z = zipArea(parts[1]!);
    if (!z) throw new AreaError(`area "${value}": no US ZIP ${parts[1]} in the shipped postal data`);
    return z;
  }
  // A US state or county is the atlas's polygon: the place index (over a second to read, on the
  // API thread when a worker plans the covering) is read only for regions and cities.
  if (code === 'US') {
    const A = usAtlas();
    const state = A.states.get(key(parts[1]!));
    if (parts.length === 2 && state) return { ...shapeOf(state), kind: `US state ${parts[1]}` };
    if (parts.length === 3 && state) {
      const county = A.counties.get(`${key(parts[1]!)}|${key(parts[2]!)}`);
      if (county) return { ...shapeOf(county), kind: `US county ${parts[2]}, ${parts[1]}` };
    }
  }
  const P = placeIndex();
  if (parts.length === 2) {
    const region = regionArea(code, parts[1]!, P);
    if (region) return region;
    const city = cityArea(code, null, parts[1]!, P);
    if (city) return city;
    throw new AreaError(`area "${value}": ${code} has no region or city named "${parts[1]}" (see GET /locations?country=${code})`);
  }
  if (parts.length === 3) {
    const city = cityArea(code, parts[1]!, parts[2]!, P);
    if (city) return city;
    throw new AreaError(`area "${value}": no city "${parts[2]}" in ${parts[1]}, ${code} (see GET /locations?country=${code})`);
  }
  throw new AreaError(`area "${value.slice(0, 80)}" has ${parts.length} parts; a location is country>region>city at most`);
}

const cache = new Map<string, Area>();
let resolves = 0;
/** resolveArea calls in this thread (tests: an area query plans and parses on a parse thread, never
 *  on the API thread). */
export const areaResolvesHere = (): number => resolves;

/**
 * The shape of an area value; throws AreaError with the reason it cannot be one. Resolved areas
 * are kept (a covering asks for the same area on every view).
 */
export function resolveArea(value: string): Area {
  resolves++;
  const text = value.trim();
  const hit = cache.get(text);
  if (hit) return hit;
  let area: Area;
  if (text === '') throw new AreaError('area is empty');
  if (text.startsWith('{') || looksLikeBox(text)) {
    const polys = polygonsOfText(text);
    if (typeof polys === 'string') throw new AreaError(polys);
    area = { ...shapeOf(polys), kind: looksLikeBox(text) ? 'box' : 'GeoJSON shape' };
  } else if (/^\d{5}$/.test(text)) {
    const z = zipArea(text);
    if (!z) throw new AreaError(`area "${text}": no US ZIP ${text} in the shipped postal data`);
    area = z;
  } else {
    area = locationArea(text);
  }
  if (cache.size >= 64) cache.delete(cache.keys().next().value!);
  cache.set(text, area);
  return area;
}

/** Names the places give, for the submit-time check: `CC|region`, `CC|city` and `CC|region|city`. */
let placeNames: Set<string> | undefined;
function placeNameSet(): Set<string> {
  if (placeNames) return placeNames;
  const P = placeIndex();
  const out = new Set<string>();
  for (let i = 0; i < P.count; i++) {
    const c = P.country[i]!, city = key(P.name[i]!), region = P.admin1Name[i];
    out.add(`${c}|${city}`);
    if (region !== null) { out.add(`${c}|${key(region)}`); out.add(`${c}|${key(region)}|${city}`); }
  }
  return (placeNames = out);
}

/**
 * Why a location value is refused, with locationArea's own messages, from indexes built once
 * instead of the shape: a task of 10,000 locations over 905 regions built 905 region shapes
 * (0.4 s each) before it answered (issue 39). `area.test.ts` checks both agree.
 */
function locationProblem(value: string): string | undefined {
  const parts = value.split('>').map((s) => s.trim());
  const code = parts[0]!.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !isKnownCountry(code)) return `area "${value.slice(0, 80)}" is not a location: it must start with a country code from GET /locations (e.g. US>Nevada), or be a ZIP, a box west,south,east,north or GeoJSON`;
  if (parts.length === 1) return countryPolygons(code).length ? undefined : `area "${code}": no borders ship for this country`;
  if (code === 'US' && parts.length === 2 && /^\d{5}$/.test(parts[1]!)) return zipIndex().zip.includes(parts[1]!) ? undefined : `area "${value}": no US ZIP ${parts[1]} in the shipped postal data`;
  if (code === 'US') {
    const A = usAtlas();
    if (A.states.has(key(parts[1]!)) && (parts.length === 2 || (parts.length === 3 && A.counties.has(`${key(parts[1]!)}|${key(parts[2]!)}`)))) return undefined;
  }
  const names = placeNameSet();
  if (parts.length === 2) {
    return names.has(`${code}|${key(parts[1]!)}`) ? undefined : `area "${value}": ${code} has no region or city named "${parts[1]}" (see GET /locations?country=${code})`;
  }
  if (parts.length === 3) {
    return names.has(`${code}|${key(parts[1]!)}|${key(parts[2]!)}`) ? undefined : `area "${value}": no city "${parts[2]}" in ${parts[1]}, ${code} (see GET /locations?country=${code})`;
  }
  return `area "${value.slice(0, 80)}" has ${parts.length} parts; a location is country>region>city at most`;
}

/**
 * The reason an area value is refused, or undefined (the submit-time check): the same refusals as
 * resolveArea, without building the shape (a drawn shape is read and checked for crossings, a
 * location looked up by name). It still reads data files on first use: call it off the API thread
 * (src/app/checks.ts).
 */
export function checkArea(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return 'area is empty';
  if (cache.has(text)) return undefined;
  if (text.startsWith('{') || looksLikeBox(text)) {
    const polys = polygonsOfText(text);
    return typeof polys === 'string' ? polys : undefined;
  }
  if (/^\d{5}$/.test(text)) return zipIndex().zip.includes(text) ? undefined : `area "${text}": no US ZIP ${text} in the shipped postal data`;
  return locationProblem(text);
}
