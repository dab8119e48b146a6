/**
 * What follows one search page: the next page of the same view, four sub-cells, or nothing.
 *
 * - A page with PAGE_SIZE places is "full": more may follow. The product serves at most VIEW_CAP
 *   (~120) places per view, so a view whose last allowed page is still full is saturated: its area
 *   holds more than one view shows, and it is split into four quadrants (zoom + 1).
 * - A page with fewer places ends the view: the area is exhausted, nothing is split.
 * - The area split is the view's own cell; for the query's own view it is the bounds of the places
 *   it returned (grown 5%), joined with the camera's view when the camera was given.
 * - A sub-cell keeps only the places inside its quadrant (siblings never duplicate each other); if
 *   a sub-cell page keeps none, the view is ignored by the site for this query and the branch stops.
 * - Budgets: the query's view starts with `limit`. A quadrant will first find again the parent's
 *   places that lie in it, so its budget is those plus a share of what the parent still lacks, in
 *   proportion to where the parent's places lie (add-one smoothed, SPLIT_SLACK x in total): empty quadrants
 *   (sea, park) get little, dense ones most, and the over-fetch stays bounded. `finish` dedupes and
 *   cuts to `limit`.
 */
import type { Step } from '../_kit/adapter.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { quadrantShares } from '../_kit/area.ts';
import { contains, grow, type Box } from '../_maps/cells.ts';
import { PAGE_SIZE } from '../_maps/pb.ts';
import { searchStep, type SearchState } from '../_maps/state.ts';

export const VIEW_CAP = 120;
export const MAX_DEPTH = 6;
/** How much more than the missing remainder the four quadrants may collect together: room for a
 *  quadrant whose share of places the parent's sample under-estimated. The simulated runs in
 *  plan.test.ts reach `limit` with 1.0 already; 1.25 leaves margin for the real ranking. */
export const SPLIT_SLACK = 1.25;
/** Quadrants narrower than this (degrees, about 55 m) are not split further. */
export const MIN_CELL_DEG = 0.0005;

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

function boundsOfPts(pts: Array<[number, number]>, area: Box | null): Box | null {
  let b: Box | null = area ? { ...area } : null;
  for (const [lat, lng] of pts) {
    if (!b) b = { s: lat, w: lng, n: lat, e: lng };
    else {
      if (lat < b.s) b.s = lat;
      if (lat > b.n) b.n = lat;
      if (lng < b.w) b.w = lng;
      if (lng > b.e) b.e = lng;
    }
  }
  return b;
}

function grown(b: Box, frac: number): Box {
  const dLat = (b.n - b.s) * frac;
  const dLng = (b.e - b.w) * frac;
  return grow({ s: b.s - dLat, w: b.w - dLng, n: b.n + dLat, e: b.e + dLng }, 0);
}

/**
 * @example
 *   const { records, next } = afterSearchPage(state, pagePlaces)
 */
export function afterSearchPage(state: SearchState, page: PlaceRecord[]): { records: PlaceRecord[]; next: Step[] } {
  const cell = state.cell;
  const records = cell
    ? page.filter((r) => r.latitude !== null && r.longitude !== null && contains(cell, r.latitude, r.longitude))
    : page;
  const got = state.got + records.length;
  const full = page.length >= PAGE_SIZE;
  if (got >= state.budget || !full || (cell !== null && records.length === 0)) return { records, next: [] };

  const pts = state.pts.slice();
  for (const r of records) if (r.latitude !== null && r.longitude !== null) pts.push([r6(r.latitude), r6(r.longitude)]);
  if (state.offset + PAGE_SIZE < VIEW_CAP) {
    return { records, next: [searchStep({ ...state, offset: state.offset + PAGE_SIZE, got, pts })] };
  }
  return { records, next: splitSteps(state, got, pts) };
}

/** The four sub-cell steps of a saturated view (none when too deep or too small). */
export function splitSteps(state: SearchState, got: number, pts: Array<[number, number]>): Step[] {
  const b = state.cell ?? boundsOfPts(pts, state.area);
  if (!b || state.depth >= MAX_DEPTH) return [];
  const area = state.cell ? b : grown(b, 0.05);
  if (area.n - area.s < 2 * MIN_CELL_DEG || area.e - area.w < 2 * MIN_CELL_DEG) return [];
  const remaining = state.budget - got;
  if (remaining <= 0) return [];
  // The parent's places predict where the missing ones are (see quadrantShares).
  return quadrantShares(area, pts, remaining, SPLIT_SLACK).map(({ box, budget }) =>
    searchStep({ ...state, view: box, cell: box, offset: 0, got: 0, budget, depth: state.depth + 1, pts: [], area: null }));
}
