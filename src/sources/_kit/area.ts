/**
 * Splitting a map area, for sources whose search serves at most so many results per view (a map
 * search's ~120 places, a listing site's page cap): a saturated view is split into four quadrants,
 * recursively. Quadrants are half-open boxes (`s <= lat < n`, `w <= lng < e`), so sibling cells never
 * share a point; each cell keeps only the results inside it and the merge dedupes the rest.
 *
 * @example
 *   quadrants({ s: 0, w: 0, n: 2, e: 2 })[3]                 // { s: 1, w: 1, n: 2, e: 2 }
 *   quadrantShares(box, pointsSeen, 300, 1.25).map((q) => q.budget)
 */

export interface Box {
  s: number;
  w: number;
  n: number;
  e: number;
}

export function center(b: Box): { lat: number; lng: number } {
  return { lat: (b.s + b.n) / 2, lng: (b.w + b.e) / 2 };
}

/** The four quadrants, always in the order SW, SE, NW, NE. */
export function quadrants(b: Box): [Box, Box, Box, Box] {
  const mLat = (b.s + b.n) / 2;
  const mLng = (b.w + b.e) / 2;
  return [
    { s: b.s, w: b.w, n: mLat, e: mLng },
    { s: b.s, w: mLng, n: mLat, e: b.e },
    { s: mLat, w: b.w, n: b.n, e: mLng },
    { s: mLat, w: mLng, n: b.n, e: b.e },
  ];
}

/** Half-open containment: a point on a shared edge belongs to exactly one quadrant. */
export function contains(b: Box, lat: number, lng: number): boolean {
  return lat >= b.s && lat < b.n && lng >= b.w && lng < b.e;
}

/**
 * The quadrants of `b` with a result budget each. The points already seen predict where the
 * missing results are: a quadrant gets the seen points inside it (it will find them again) plus a
 * share of `remaining` in proportion to them (add-one smoothed, so an empty-looking quadrant still
 * gets a little), `slack` times the remainder across the four.
 */
export function quadrantShares(b: Box, pts: ReadonlyArray<readonly [number, number]>, remaining: number, slack: number): Array<{ box: Box; again: number; budget: number }> {
  const quads = quadrants(b);
  const again = quads.map((q) => pts.reduce((n, [lat, lng]) => (contains(q, lat, lng) ? n + 1 : n), 0));
  const total = again.reduce((a, x) => a + x, 0);
  return quads.map((box, k) => ({ box, again: again[k]!, budget: again[k]! + Math.ceil((remaining * slack * (again[k]! + 1)) / (total + 4)) }));
}
