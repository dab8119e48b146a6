/**
 * What follows one search page: the next page of the same view, four sub-cells, or nothing.
 *
 * - A page with PAGE_SIZE places is "full": more may follow. The product serves at most VIEW_CAP
 *   (~120) places per view, so a view whose last allowed page is still full is saturated: its area
 *   holds more than one view shows, and it is split into four quadrants (zoom + 1).
 * - A page with fewer places ends the view: the area is exhausted, nothing is split.
 * - A sub-cell keeps only the places inside its quadrant (siblings never duplicate each other); if
 *   a sub-cell page keeps none, the view is ignored by the site for this query and the branch stops.
 * - Budgets: the query's view starts with `limit`. On a split, the remainder is shared out so that
 *   each quadrant may collect up to half of it: two empty quadrants (sea, park) do not starve the
 *   result, and the over-fetch is bounded by 2x. `finish` dedupes and cuts to `limit`.
 */
import type { Step } from '../_kit/adapter.ts';
import type { PlaceRecord } from '../maps-place/record.ts';
import { boundsOf, contains, extend, grow, quadrants, type Box } from './cells.ts';
import { PAGE_SIZE } from './pb.ts';
import { searchStep, type SearchState } from './state.ts';

export const VIEW_CAP = 120;
export const MAX_DEPTH = 5;
/** Quadrants narrower than this (degrees, about 55 m) are not split further. */
export const MIN_CELL_DEG = 0.0005;

function located(recs: PlaceRecord[]): Array<{ lat: number; lng: number }> {
  const out: Array<{ lat: number; lng: number }> = [];
  for (const r of recs) if (r.latitude !== null && r.longitude !== null) out.push({ lat: r.latitude, lng: r.longitude });
  return out;
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
  const seen = cell ? null : extend(state.seen, located(page));
  const full = page.length >= PAGE_SIZE;
  const done = got >= state.budget || !full || (cell !== null && records.length === 0);
  if (done) return { records, next: [] };

  if (state.offset + PAGE_SIZE < VIEW_CAP) {
    return { records, next: [searchStep({ ...state, offset: state.offset + PAGE_SIZE, got, seen })] };
  }
  return { records, next: splitSteps(state, got, seen) };
}

/** The four sub-cell steps of a saturated view (none when too deep or too small). */
export function splitSteps(state: SearchState, got: number, seen: Box | null): Step[] {
  const area = state.cell ?? (seen ? grow(seen, 0) : null);
  if (!area || state.depth >= MAX_DEPTH) return [];
  if (area.n - area.s < 2 * MIN_CELL_DEG || area.e - area.w < 2 * MIN_CELL_DEG) return [];
  const remaining = state.budget - got;
  if (remaining <= 0) return [];
  const budget = Math.min(remaining, Math.ceil(remaining / 2));
  return quadrants(area).map((q) =>
    searchStep({ ...state, view: q, cell: q, offset: 0, got: 0, budget, depth: state.depth + 1, seen: null }),
  );
}

/** Root bounds helper re-exported for tests. */
export { boundsOf };
