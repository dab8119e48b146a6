/**
 * The covering's density prior: how many places a map view of a cell is expected to hold, before it
 * is searched, from the population data trawl ships (GeoNames places with their population) and the
 * counts of the views searched so far.
 *
 * - Each populated place spreads its people over a Gaussian around its point, half its city radius
 *   (`cityRadiusKm`, the radius an area of a city gets) a standard deviation, so most of a city lies
 *   within its radius. `populationIn(box)` sums the share of every place that falls in the box.
 * - A phrase's places follow people and ground: expected places = a x people + b x km². The two
 *   rates are fitted (weighted least squares, both at least 0) to the views counted in full, so the
 *   prior learns the phrase (dentists are rarer than restaurants) and the country as the covering
 *   goes; until enough views are counted there is no prior.
 * - The fit is six numbers that travel in the covering's state (a resume keeps what it learned).
 * - The population is read from cities500 without blocking the event loop (the covering's parse
 *   runs on the runner's thread, which also renews leases): `populationReady()` starts the read and
 *   the first call of `expected` does too; until it is done there is no prior, as before a fit.
 *
 * @example
 *   await populationReady(); const f = emptyFit(); addCount(f, box, 87); expected(f, box)
 */
import { readFile } from 'node:fs/promises';
import KDBush from 'kdbush';
import type { Box } from '../_kit/area.ts';
import { cityRadiusKm } from '../../lookups/geo/area/resolve.ts';
import { CITIES500_TXT } from '../../lookups/geo/data-files.ts';
import { DROPPED_FEATURES } from '../../lookups/geo/places.ts';
import { fieldIs, forEachRow, num } from '../../lookups/geo/tsv.ts';

const KM_PER_DEG = 111.32;
/** Views counted in full before the fit is trusted. */
const MIN_VIEWS = 6;
/** Cities are looked up this far (degrees) around a box: 4 standard deviations of a 30 M city. */
const REACH_DEG = 0.6;

const cosd = (lat: number) => Math.max(0.05, Math.cos((lat * Math.PI) / 180));

/** Standard normal cumulative distribution (Abramowitz-Stegun 7.1.26, error < 1.5e-7). */
export function phi(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** The populated places: coordinates, population, and an index over them. */
interface People { lat: Float64Array; lng: Float64Array; pop: Float64Array; index: KDBush }
let people: People | undefined;
let reading: Promise<void> | undefined;
/** Bytes of the file read between two yields to the event loop (a few ms of work). */
const SLICE = 1 << 20;

async function readPeople(file: string): Promise<void> {
  const buf = await readFile(file);
  const lat: number[] = [], lng: number[] = [], pop: number[] = [];
  for (let at = 0; at < buf.length;) {
    const nl = buf.indexOf(10, Math.min(buf.length - 1, at + SLICE));
    const end = nl < 0 ? buf.length : nl + 1;
    forEachRow(buf.subarray(at, end), 15, (r) => {
      if (r.count < 15) return;
      for (const f of DROPPED_FEATURES) if (fieldIs(r, 7, f)) return;
      const p = num(r, 14), y = num(r, 4), x = num(r, 5);
      if (!(p > 0) || !Number.isFinite(y) || !Number.isFinite(x)) return;
      lat.push(y); lng.push(x); pop.push(p);
    });
    at = end;
    await new Promise((ok) => setImmediate(ok));
  }
  const index = new KDBush(Math.max(1, lat.length));
  for (let i = 0; i < lat.length; i++) index.add(lng[i]!, lat[i]!);
  if (!lat.length) index.add(0, 0);
  index.finish();
  people = { lat: Float64Array.from(lat), lng: Float64Array.from(lng), pop: Float64Array.from(pop), index };
}

/** Starts reading the population (once); resolves when it is read. */
export function populationReady(file = CITIES500_TXT): Promise<void> {
  return (reading ??= readPeople(file));
}

/** People expected in the box: each place's population times its Gaussian share inside the box;
 *  undefined while the population is being read. */
export function populationIn(b: Box): number | undefined {
  if (!people) { populationReady().catch(() => undefined); return undefined; }
  const P = people;
  const m = REACH_DEG;
  let sum = 0;
  for (const id of P.index.range(b.w - m / cosd(b.s), b.s - m, b.e + m / cosd(b.n), b.n + m)) {
    if (id >= P.pop.length) continue;
    const pop = P.pop[id]!;
    const lat = P.lat[id]!, lng = P.lng[id]!;
    const sdLat = cityRadiusKm(pop) / 2 / KM_PER_DEG;
    const sdLng = sdLat / cosd(lat);
    const fy = phi((b.n - lat) / sdLat) - phi((b.s - lat) / sdLat);
    if (fy < 1e-6) continue;
    const fx = phi((b.e - lng) / sdLng) - phi((b.w - lng) / sdLng);
    sum += pop * fy * fx;
  }
  return sum;
}

/** Ground of the box in km². */
export function areaKm2(b: Box): number {
  return (b.n - b.s) * KM_PER_DEG * (b.e - b.w) * KM_PER_DEG * cosd((b.s + b.n) / 2);
}

/** Weighted sums of the fit: [views, pp, pa, aa, np, na] (p people in thousands, a km²). */
export type Fit = number[];

export const emptyFit = (): Fit => [0, 0, 0, 0, 0, 0];

/** A view counted in full: `n` places in box `b` (not counted while the population is read: false).
 *  `sign` -1 takes a count back out (a view accepted as complete proved capped after all). */
export function addCount(f: Fit, b: Box, n: number, sign = 1): boolean {
  const people = populationIn(b);
  if (people === undefined) return false;
  const p = people / 1000, a = areaKm2(b);
  // Counts are Poisson-like: a view's weight falls with its count.
  const w = sign / (n + 4);
  f[0]! += sign;
  f[1]! += w * p * p; f[2]! += w * p * a; f[3]! += w * a * a;
  f[4]! += w * n * p; f[5]! += w * n * a;
  return true;
}

/** The fitted rates [per thousand people, per km²], or undefined until enough views. */
export function rates(f: Fit): [number, number] | undefined {
  if (f[0]! < MIN_VIEWS) return undefined;
  const [, pp, pa, aa, np, na] = f as [number, number, number, number, number, number];
  const det = pp * aa - pa * pa;
  if (det > 1e-12 * pp * aa) {
    const x = (np * aa - na * pa) / det, y = (na * pp - np * pa) / det;
    if (x >= 0 && y >= 0) return [x, y];
  }
  // One rate at 0: the better of the two one-rate fits.
  const x = pp > 0 ? Math.max(0, np / pp) : 0, y = aa > 0 ? Math.max(0, na / aa) : 0;
  const errX = -2 * x * np + x * x * pp, errY = -2 * y * na + y * y * aa;
  return errX <= errY ? [x, 0] : [0, y];
}

/** Places expected in a view of box `b`, or undefined while the fit is not trusted. */
export function expected(f: Fit, b: Box): number | undefined {
  const r = rates(f);
  const people = r && populationIn(b);
  if (!r || people === undefined) return undefined;
  return r[0] * (people / 1000) + r[1] * areaKm2(b);
}
