/**
 * What follows one search page: the next page of the same view, a probe, four sub-cells, or nothing.
 *
 * - A page with PAGE_SIZE places is "full" (a plain search still assumes the page size; an area's
 *   covering reads it from the answers, cover.ts): more may follow (up to MAX_VIEW_PLACES a view; past it
 *   the view is split).
 * - A page with fewer places ends the view's pages at a count t: all of its places, or the number
 *   of places the site shows a view (the view cap, ~120 on the product, never assumed). A view of
 *   one short page is complete. Otherwise, unless the branch already proved the cap, one probe
 *   page of the sub-cell holding the most of the view's places below a page (viewcap.ts) tells
 *   them apart: places there the view never showed (more than its own ranking noise explains) mean
 *   it was capped, and it is split with the cap proved (t), which its quadrants carry: theirs split
 *   at t without a probe, end below it, or are probed again if they show more. A full probe page
 *   with none tells nothing: a sub-cell of the probe's is probed, once.
 * - A monitor's run carries what its previous runs proved (./prior.ts): a count they proved a cap
 *   splits without a probe; a count at or below the highest they saw complete is complete without
 *   one, the query's own view only while it shows at least as many places as it did then (a cap
 *   that fell stops it short: probed, and the probe proves the new cap). Each step reports what it
 *   proved (`learned`) for the next run.
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
import type { Learned } from '../_kit/learned.ts';
import { quadrantShares } from '../_kit/area.ts';
import { contains, grow, MIN_CELL_DEG, tooSmallToSplit, type Box } from '../_maps/cells.ts';
import { PAGE_SIZE } from '../_maps/pb.ts';
import { searchStep, type SearchState } from '../_maps/state.ts';
import { deeperProbe, noiseAllowance, probeCell } from './viewcap.ts';

export const MAX_DEPTH = 6;
/** A view is paged at most this far (a site that never ends a view): past it, it is split. */
export const MAX_VIEW_PLACES = 500;
/** How much more than the missing remainder the four quadrants may collect together: room for a
 *  quadrant whose share of places the parent's sample under-estimated. The simulated runs in
 *  plan.test.ts reach `limit` with 1.0 already; 1.25 leaves margin for the real ranking. */
export const SPLIT_SLACK = 1.25;

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
export function afterSearchPage(state: SearchState, page: PlaceRecord[]): { records: PlaceRecord[]; next: Step[]; learned?: Learned } {
  if (state.probeOf) return afterProbe(state, page);
  const cell = state.cell;
  const records = cell
    ? page.filter((r) => r.latitude !== null && r.longitude !== null && contains(cell, r.latitude, r.longitude))
    : page;
  const got = state.got + records.length;
  const full = page.length >= PAGE_SIZE;
  // A page of places none of which lie in the cell: the site ignores the viewport for this query.
  // (An empty page is a short page: the count is the offset.)
  if (got >= state.budget || (cell !== null && page.length > 0 && records.length === 0)) return { records, next: [] };

  const pts = state.pts.slice();
  for (const r of records) if (r.latitude !== null && r.longitude !== null) pts.push([r6(r.latitude), r6(r.longitude)]);
  if (full) {
    // A full page reaching the cap the branch proved: the view is at its cap (no empty page to ask).
    if (state.cap !== undefined && state.offset + PAGE_SIZE >= state.cap) return { records, next: splitSteps(state, got, pts) };
    if (state.offset + PAGE_SIZE < MAX_VIEW_PLACES) return { records, next: [searchStep({ ...state, offset: state.offset + PAGE_SIZE, got, pts })] };
    return { records, next: splitSteps(state, got, pts) };
  }
  // A short page: the view's count is all of its places, or the cap.
  const t = state.offset + page.length;
  if (t < PAGE_SIZE) return { records, next: [] };
  const top = state.depth === 0 && !state.cell ? { top: t } : {};
  if (state.cap !== undefined && t === state.cap) return { records, next: splitSteps(state, got, pts), learned: { caps: [t], ...top } };
  if (state.cap !== undefined && t < state.cap) return { records, next: [], learned: { complete: t, ...top } };
  // More distinct places than the count: capped (the ranking moved between its pages).
  if (pts.length > t) return { records, next: splitSteps({ ...state, cap: t }, got, pts), learned: { caps: [t], ...top } };
  const p = state.prior;
  if (p) {
    // What a monitor's previous runs proved (./prior.ts), used where a changed cap would show:
    // a count they proved a cap is one still (split, no probe); a count at or below the highest
    // they saw complete is complete, but the query's own view only while it shows at least as many
    // as it did then (a cap that fell below its places stops it short of them: probed).
    if (p.caps.includes(t)) return { records, next: splitSteps({ ...state, cap: t }, got, pts), learned: { caps: [t], ...top } };
    if (t <= p.floor && (state.depth > 0 || (p.top !== undefined && t >= p.top))) return { records, next: [], learned: { complete: t, ...top } };
  }
  return { records, next: probeStep(state, got, pts, t), learned: top };
}

/** The probe of a view that stopped at `t` with the cap unknown: one page of its fullest sub-cell
 *  below a page (none when it could not be split anyway). */
function probeStep(state: SearchState, got: number, pts: Array<[number, number]>, t: number): Step[] {
  const b = splitArea(state, pts);
  if (!b || state.budget - got <= 0) return [];
  const allow = noiseAllowance(t - pts.length, t);
  const probe = probeCell(b, pts, () => true, MIN_CELL_DEG, Math.max(PAGE_SIZE / 4, PAGE_SIZE - 1 - 2 * allow));
  if (!probe) return [];
  return [searchStep({ ...state, view: probe, cell: probe, offset: 0, got: 0, pts: [], area: null, probeOf: { ...state, got, pts, t, allow } })];
}

/** A probe's page: places of its sub-cell the view never showed (beyond its noise) prove it capped. */
function afterProbe(state: SearchState, page: PlaceRecord[]): { records: PlaceRecord[]; next: Step[]; learned?: Learned } {
  const { t, allow, deep, ...parent } = state.probeOf!;
  const known = new Set(parent.pts.map(([lat, lng]) => `${lat},${lng}`));
  const fresh = page.filter((r) => r.latitude !== null && r.longitude !== null && contains(state.view, r.latitude, r.longitude) && !known.has(`${r6(r.latitude)},${r6(r.longitude)}`));
  // Its quadrants find the probe's places again: the probe keeps none.
  if (fresh.length <= allow) {
    // A full page with no new place of the sub-cell tells nothing: the sub-cell's view (its cell and
    // the margin a view shows past its edges) held a page of places ranked above any the view did not
    // show, leaving no room for one (cover.ts, the same for an area's views). A sub-cell of it holding
    // at most half a page of the view's places is asked instead, once.
    const deeper = !deep && page.length >= PAGE_SIZE && fresh.length === 0 ? deeperProbe(state.view, parent.pts, () => true, MIN_CELL_DEG, PAGE_SIZE) : null;
    if (deeper) return { records: [], next: [searchStep({ ...state, view: deeper, cell: deeper, probeOf: { ...state.probeOf!, deep: true } })] };
    return { records: [], next: [], learned: { complete: t } };
  }
  return { records: [], next: splitSteps({ ...parent, cap: t }, parent.got, parent.pts), learned: { caps: [t] } };
}

/** The box a saturated view splits: its cell, or the query view's places' bounds (grown 5%; joined
 *  with the camera's view when given); null when too deep or too small. */
function splitArea(state: SearchState, pts: Array<[number, number]>): Box | null {
  const b = state.cell ?? boundsOfPts(pts, state.area);
  if (!b || state.depth >= MAX_DEPTH) return null;
  const area = state.cell ? b : grown(b, 0.05);
  if (tooSmallToSplit(area)) return null;
  return area;
}

/** The four sub-cell steps of a saturated view (none when too deep or too small). */
export function splitSteps(state: SearchState, got: number, pts: Array<[number, number]>): Step[] {
  const area = splitArea(state, pts);
  if (!area) return [];
  const remaining = state.budget - got;
  if (remaining <= 0) return [];
  // The parent's places predict where the missing ones are (see quadrantShares).
  return quadrantShares(area, pts, remaining, SPLIT_SLACK).map(({ box, budget }) =>
    searchStep({ ...state, view: box, cell: box, offset: 0, got: 0, budget, depth: state.depth + 1, pts: [], area: null }));
}
