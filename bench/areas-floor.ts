/**
 * The noise-aware floor of an area case (bench/areas-robust): the oracle's own views (it knows every
 * place, so it never splits a view that holds its cap and never searches a saturated one), paged as
 * the planner pages them (pages overlapping as noise.ts grows the overlap with how far ranks move, a
 * short page to end, an empty view asked once) and then asked again across their page boundaries in
 * repair.ts's order (a view at most until its count is found or repairDry pages in a row found
 * nothing), the views missing most first, until it holds the planner's recall. What a case's ratio
 * is above this floor is the planner's splitting and checking; what the floor is above 1 no planner
 * that pages this way can avoid on that site's noise.
 */
import type { Box } from '../src/sources/_maps/cells.ts';
import { repairDry, repairOffset } from '../src/sources/maps-search/repair.ts';
import { learnNoise, nextOffset, noiseRate, type NoiseFit } from '../src/sources/maps-search/noise.ts';
import type { MapSite } from '../test/support/map-site.ts';

/** How the floor's views are drawn and read (issue 33, session 28): `scale`, the oracle's views held
 *  to that share of the cap (the planner holds its views smaller where ranks move); `counts`, each
 *  view's count known, so a full page reaching it is its last (no page asked only to find the end:
 *  what no planner can have, since only a short page proves a count). */
export interface FloorOptions { scale?: number; counts?: boolean }

/** Requests of the floor reaching `recall` (or all it can reach) with pages of `size` places. */
export function noiseFloor(site: MapSite, roots: Box[], recall: number, size = 20, opts: FloorOptions = {}): number {
  const { views, empty } = site.oracleViews(roots, opts.scale);
  let requests = empty;
  let nz: NoiseFit | undefined;
  const found = new Set<number>();
  let foundInside = 0;
  const see = (ids: number[], got: Set<number>) => {
    for (const i of ids) {
      got.add(i);
      if (!found.has(i)) { found.add(i); if (site.inside[i]) foundInside++; }
    }
  };
  const paged: Array<{ box: Box; got: Set<number>; offs: number[]; t: number; ids: number[] }> = [];
  for (const v of views) {
    const got = new Set<number>(), offs: number[] = [];
    let offset = 0, t = 0;
    for (;;) {
      const ids = site.pageIds(v.box, offset, size);
      requests++;
      offs.push(offset);
      see(ids, got);
      if (ids.length < size) { t = offset + ids.length; break; }
      if (opts.counts && offset + size >= v.ids.length) { t = v.ids.length; break; }
      offset = nextOffset(noiseRate(nz), offset, size);
    }
    // The planner learns how far ranks move from the views it counted (views of more than a page).
    if (t > size) nz = learnNoise(nz, offs, size, t, t - got.size);
    paged.push({ box: v.box, got, offs, t, ids: v.ids });
  }
  const target = Math.ceil(recall * site.insideCount);
  const short = paged.filter((v) => v.got.size < v.t && v.offs.length > 1).sort((a, b) => (b.t - b.got.size) - (a.t - a.got.size));
  for (const v of short) {
    if (foundInside >= target) break;
    const asked: number[] = [];
    let dry = 0;
    while (v.got.size < v.t && dry < repairDry(size) && foundInside < target) {
      const o = repairOffset(v.offs, asked, v.t, size, noiseRate(nz), v.t - v.got.size);
      if (o === undefined) break;
      asked.push(o);
      const before = v.got.size;
      see(site.pageIds(v.box, o, size), v.got);
      requests++;
      dry = v.got.size > before ? 0 : dry + 1;
    }
  }
  return requests;
}
