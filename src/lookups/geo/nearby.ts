/**
 * Radius searches over a kdbush index of [lng, lat] points.
 *
 * geokdbush's `around` is not used: when its predicate rejects every point near the query (a
 * border, a coast, a state with no place close by) it keeps expanding tree nodes beyond
 * `maxDistance` and visits the whole index, measured at 218,489 predicate calls for one query in
 * Crimea. Here every search is a bounding-box `range` of the radius, so its cost is bounded by the
 * number of points in that box.
 */
import type KDBush from 'kdbush';

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;
const KM_PER_DEG_LAT = EARTH_KM * RAD;

/**
 * Great-circle distance in km (haversine).
 *
 * @example distanceKm(2.2945, 48.8584, 2.3522, 48.8566) // ≈ 4.2
 */
export function distanceKm(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const s1 = Math.sin(((lat2 - lat1) * RAD) / 2);
  const s2 = Math.sin(((lng2 - lng1) * RAD) / 2);
  const h = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Points by id, as given to the index: `lng[id]`, `lat[id]`. */
export interface PointArrays {
  lng: Float64Array;
  lat: Float64Array;
}

/**
 * Calls `visit(id, km)` for every indexed point within `km` of the query point, in no order.
 * Handles the antimeridian and the poles. Distances inside the box use the equirectangular
 * approximation: for the radii used here (at most 150 km) it is within 0.5% of the great circle
 * away from the poles, and it avoids four trigonometric calls per candidate.
 *
 * @example forEachWithin(index, places, lng, lat, 30, (id, km) => { ... })
 */
export function forEachWithin(
  index: KDBush,
  pts: PointArrays,
  lng: number,
  lat: number,
  km: number,
  visit: (id: number, km: number) => void,
): void {
  const dLat = km / KM_PER_DEG_LAT;
  const minLat = lat - dLat;
  const maxLat = lat + dLat;
  const cosQ = Math.cos(lat * RAD);
  const dLng = km / (KM_PER_DEG_LAT * Math.cos(Math.min(89.9, Math.abs(lat) + dLat) * RAD));
  const wholeLng = dLng >= 180 || maxLat >= 90 || minLat <= -90;
  const x0 = lng - dLng;
  const x1 = lng + dLng;
  // Up to three longitude windows: the main one and the parts wrapped across ±180°.
  const windows = wholeLng
    ? [-180, 180]
    : [Math.max(-180, x0), Math.min(180, x1), ...(x0 < -180 ? [x0 + 360, 180] : []), ...(x1 > 180 ? [-180, x1 - 360] : [])];
  const { lng: plng, lat: plat } = pts;
  for (let w = 0; w < windows.length; w += 2) {
    const ids = index.range(windows[w], minLat, windows[w + 1], maxLat);
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      let dx = Math.abs(plng[id] - lng);
      if (dx > 180) dx = 360 - dx;
      dx *= cosQ;
      const dy = plat[id] - lat;
      const d = Math.sqrt(dx * dx + dy * dy) * KM_PER_DEG_LAT;
      if (d <= km) visit(id, d);
    }
  }
}

/** Radii tried in turn by `nearestWithin`: most points have a match in the first, cheap box. */
const RINGS_KM = [5, 20, 60, 150];

/**
 * Id of the nearest point accepted by `filter` within `maxKm`, or undefined. Searches growing
 * boxes, so a dense index costs little when the answer is close.
 *
 * @example nearestWithin(index, places, -73.97, 40.76, 100, (i) => places.country[i] === 'US')
 */
export function nearestWithin(
  index: KDBush,
  pts: PointArrays,
  lng: number,
  lat: number,
  maxKm: number,
  filter?: (id: number) => boolean,
): number | undefined {
  let best: number | undefined;
  let bestKm = Infinity;
  const visit = (id: number, d: number): void => {
    if (d < bestKm && (!filter || filter(id))) {
      bestKm = d;
      best = id;
    }
  };
  for (const ring of RINGS_KM) {
    const r = Math.min(ring, maxKm);
    forEachWithin(index, pts, lng, lat, r, visit);
    // Every point within r was seen, so a match within r is the nearest overall.
    if (best !== undefined || r >= maxKm) return best;
  }
  forEachWithin(index, pts, lng, lat, maxKm, visit);
  return best;
}
