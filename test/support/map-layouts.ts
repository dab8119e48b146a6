/**
 * Where the loopback map site's places lie (test support for map-site.ts): one drawer per layout,
 * each returning a point of the field at a time. Only `population` follows the model the planner's
 * density prior assumes; the others exist so a bench or test can show the planner a site it was
 * not built around.
 *
 * - population: around GeoNames populated places, each drawing in proportion to its population over
 *   its radius (the prior's own model), `rural` of them anywhere in the field.
 * - clustered: around CLUSTERS centres drawn uniformly over the field (unrelated to any city), with
 *   log-normal weights and radii; `rural` anywhere.
 * - roads: along ROADS random polylines (drifting random walks that bounce off the field's edges),
 *   uniform along their length, a Gaussian ROAD_WIDTH_KM off the line; `rural` anywhere.
 * - uniform: anywhere in the field.
 * - mix: each place picks population, clustered, roads or uniform (MIX_WEIGHTS, or the weights given).
 *
 * `shape` describes what was drawn (centres, roads), so a test can check a layout against it.
 */
import { loadAdminNames } from '../../src/lookups/geo/admin-names.ts';
import { loadPlaces } from '../../src/lookups/geo/places.ts';
import { cityRadiusKm } from '../../src/lookups/geo/area/resolve.ts';
import type { Box } from '../../src/sources/_maps/cells.ts';

export const LAYOUTS = ['population', 'clustered', 'roads', 'uniform', 'mix'] as const;
/** `coast` (held out, never tuned on): land west of a wavy coastline through the field's middle, sea
 *  east of it (no place), most places in a strip along the coast (distance inland exponential, a
 *  mean of 2% of the field's width), the rural share anywhere on land: the density falls from its
 *  highest to nothing across one border. */
export type Layout = (typeof LAYOUTS)[number] | 'coast';

export const CLUSTERS = 40;
export const ROADS = 10;
export const ROAD_WIDTH_KM = 0.15;
export type MixWeights = Record<Exclude<Layout, 'mix' | 'coast'>, number>;
export const MIX_WEIGHTS: MixWeights = { population: 0.4, clustered: 0.25, roads: 0.2, uniform: 0.15 };

export interface LayoutShape {
  /** Cluster centres and their radius (km, the Gaussian's sigma). */
  centres: Array<{ lat: number; lng: number; km: number }>;
  /** Road polylines as [lat, lng] vertices. */
  roads: Array<Array<[number, number]>>;
}

// The GeoNames places are read once per process (a bench builds many sites).
let geonames: ReturnType<typeof loadPlaces> | undefined;
export const geoPlaces = () => (geonames ??= loadPlaces(loadAdminNames()));

export function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

const KM = 111.32;
const kmLng = (lat: number) => KM * Math.max(0.05, Math.cos((lat * Math.PI) / 180));

/** A drawer of points over `field`, and the shape it draws from. */
export function layoutDrawer(layout: Layout, field: Box, r: () => number, rural: number, mix: MixWeights = MIX_WEIGHTS): { draw: () => [number, number]; shape: LayoutShape } {
  const shape: LayoutShape = { centres: [], roads: [] };
  const anywhere = (): [number, number] => [field.s + r() * (field.n - field.s), field.w + r() * (field.e - field.w)];
  const mid = (field.s + field.n) / 2;
  const spanKm = Math.max((field.n - field.s) * KM, (field.e - field.w) * kmLng(mid));
  const around = (lat: number, lng: number, km: number): [number, number] => [lat + (gauss(r) * km) / KM, lng + (gauss(r) * km) / kmLng(lat)];
  const withRural = (d: () => [number, number]) => () => (r() < rural ? anywhere() : d());

  const population = (): (() => [number, number]) => {
    const P = geoPlaces();
    const cities = P.index.range(field.w, field.s, field.e, field.n);
    if (!cities.length) return anywhere;
    const cum = new Float64Array(cities.length);
    let total = 0;
    cities.forEach((id, k) => { total += P.population[id]!; cum[k] = total; });
    return withRural(() => {
      const id = cities[pick(cum, r() * total)]!;
      return around(P.lat[id]!, P.lng[id]!, cityRadiusKm(P.population[id]!) / 2);
    });
  };

  const clustered = (): (() => [number, number]) => {
    const cum = new Float64Array(CLUSTERS);
    let total = 0;
    for (let k = 0; k < CLUSTERS; k++) {
      const [lat, lng] = anywhere();
      shape.centres.push({ lat, lng, km: Math.min(spanKm / 20, Math.max(0.2, spanKm * 0.006 * Math.exp(0.7 * gauss(r)))) });
      total += Math.exp(1.2 * gauss(r));
      cum[k] = total;
    }
    return withRural(() => {
      const c = shape.centres[pick(cum, r() * total)]!;
      return around(c.lat, c.lng, c.km);
    });
  };

  const roads = (): (() => [number, number]) => {
    const segKm = spanKm / 25;
    const segs: Array<{ a: [number, number]; b: [number, number] }> = [];
    for (let k = 0; k < ROADS; k++) {
      let [lat, lng] = anywhere();
      let heading = r() * 2 * Math.PI;
      const line: Array<[number, number]> = [[lat, lng]];
      for (let s = 0; s < 30; s++) {
        heading += gauss(r) * 0.35;
        let nlat = lat + (Math.sin(heading) * segKm) / KM, nlng = lng + (Math.cos(heading) * segKm) / kmLng(lat);
        // Bounce off the field's edges so every road stays in the field.
        if (nlat < field.s || nlat > field.n) { heading = -heading; nlat = lat + (Math.sin(heading) * segKm) / KM; }
        if (nlng < field.w || nlng > field.e) { heading = Math.PI - heading; nlng = lng + (Math.cos(heading) * segKm) / kmLng(lat); }
        segs.push({ a: [lat, lng], b: [nlat, nlng] });
        [lat, lng] = [nlat, nlng];
        line.push([lat, lng]);
      }
      shape.roads.push(line);
    }
    // Segments are of equal length on the ground, so a uniform segment then a uniform point is uniform along the roads.
    return withRural(() => {
      const { a, b } = segs[Math.floor(r() * segs.length)]!;
      const t = r();
      return around(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), ROAD_WIDTH_KM);
    });
  };

  const coast = (): (() => [number, number]) => {
    const width = field.e - field.w, height = field.n - field.s;
    const shore = (lat: number) => field.w + 0.5 * width + 0.08 * width * Math.sin((6 * Math.PI * (lat - field.s)) / height);
    return () => {
      const lat = field.s + r() * height;
      const edge = shore(lat);
      const inland = r() < rural ? r() * (edge - field.w) : -Math.log(r() || 1e-12) * 0.02 * width;
      return [lat, Math.max(field.w, edge - inland)];
    };
  };

  if (layout === 'population') return { draw: population(), shape };
  if (layout === 'clustered') return { draw: clustered(), shape };
  if (layout === 'roads') return { draw: roads(), shape };
  if (layout === 'uniform') return { draw: anywhere, shape };
  if (layout === 'coast') return { draw: coast(), shape };
  const parts = [population(), clustered(), roads(), anywhere];
  const w = [mix.population, mix.clustered, mix.roads, mix.uniform];
  const cum = Float64Array.from(w.map((_, k) => w.slice(0, k + 1).reduce((a, c) => a + c, 0)));
  return { draw: () => parts[pick(cum, r() * cum[cum.length - 1]!)]!(), shape };
}

/** The first index whose cumulative weight reaches u. */
function pick(cum: Float64Array, u: number): number {
  let a = 0, z = cum.length - 1;
  while (a < z) { const m = (a + z) >> 1; if (cum[m]! < u) a = m + 1; else z = m; }
  return a;
}
