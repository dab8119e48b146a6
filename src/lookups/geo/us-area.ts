/**
 * US state and county only where the polygons are sure. us-atlas draws Census boundaries at
 * 1:10,000,000: along the straight Colorado-Wyoming and Kansas-Nebraska lines its border strays by
 * up to 0.39 km (measured), and more along rivers. So a county is answered only when every point of
 * a ring 1 km around the query lies in the same county (or outside every county: water, another
 * country), and the state likewise; near a boundary the field is null rather than a coin toss.
 */
import type { UsCounty, UsCountyLookup } from './us-counties.ts';

/** Ring radius: 2.5 times the largest border error measured on straight boundaries. */
export const RING_KM = 1;
/** Points on the ring; 16 leave gaps of 0.39 km between neighbours. */
const RING_POINTS = 16;
const KM_PER_DEG = 111.195;

export interface UsArea {
  /** USPS code of the state the point's own polygon is in (used to filter places and ZIPs). */
  stateCode: string;
  /** State name, or null when the ring crosses into another state. */
  state: string | null;
  /** County name, or null when the ring crosses into another county. */
  county: string | null;
}

/**
 * The sure state and county at a point, or null outside every county polygon.
 *
 * @example sureUsArea(countyAt, -87.6298, 41.8781) // { stateCode: 'IL', state: 'Illinois', county: 'Cook County' }
 */
export function sureUsArea(countyAt: UsCountyLookup, lng: number, lat: number, km = RING_KM): UsArea | null {
  const here = countyAt(lng, lat);
  if (!here) return null;
  let sameCounty = true;
  let sameState = true;
  const dLat = km / KM_PER_DEG;
  const dLng = km / (KM_PER_DEG * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  for (let k = 0; k < RING_POINTS && sameState; k++) {
    const a = (2 * Math.PI * k) / RING_POINTS;
    const there: UsCounty | null = countyAt(lng + dLng * Math.sin(a), Math.max(-90, Math.min(90, lat + dLat * Math.cos(a))));
    if (!there) continue;
    if (there.fips !== here.fips) sameCounty = false;
    if (there.stateCode !== here.stateCode) sameState = false;
  }
  return { stateCode: here.stateCode, state: sameState ? here.state : null, county: sameState && sameCounty ? here.county : null };
}
