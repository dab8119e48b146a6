/**
 * What ranking noise costs a covering, and how much of it the planner pays (cover.ts asks these).
 * The product's ranking moves between requests, so a place near a page boundary can be on neither
 * page of a view; a view counted in full knows how many places its pages missed (its count less the
 * distinct places shown), and the run keeps a moving average of that share (`miss`, before any page
 * is asked again) and of what is still missing after (`left`).
 *
 * - Overlap: pages overlap by OVERLAP places; where the views miss more than MISS_TOLERATED of their
 *   places the overlap grows with the share missed, up to MAX_OVERLAP (and half a page).
 * - Smaller views: the share of the cap the split decision bets against (cover.ts splitWorth: this
 *   share over its base) falls with the share missed (a smaller view's pages miss fewer places), to
 *   MIN_SKIP_SHARE.
 * - Asking pages again (repair.ts) while the share still missing is above what the run tolerates
 *   (leftTolerated): MISS_TOLERATED while the views miss up to MISS_REPAIRED of their places; above
 *   that, more (the recall target holds where the noise allows it).
 *
 * @example
 *   pageStep(0.02, 20)   // 15: pages overlap by 2 + (0.02 - 0.005) * 200 = 5 places
 *   leftTolerated(0.03)  // 0.035: nothing is asked again (the first pages left 0.03)
 */

/** Pages overlap by two places, so a place the ranking noise moved by a rank or two between two
 *  requests is still on one of them (without it a view paged in full misses ~2% of its places). */
export const OVERLAP = 2;
export const MAX_OVERLAP = 10;
/** The share of a view's places its pages may miss before the run pays to find them. */
export const MISS_TOLERATED = 0.005;

/** How far apart a view's pages start, for a page of `size` places, where the views so far missed
 *  `miss` of theirs (moving average). */
export function pageStep(miss: number, size: number): number {
  return size - Math.min(Math.floor(size / 2), MAX_OVERLAP, OVERLAP + Math.max(0, Math.round((miss - MISS_TOLERATED) * 200)));
}

/** Where the views' pages miss places, a smaller view is read more cheaply than a large one asked
 *  again: the share of the cap a cell is split unsearched against falls by SKIP_PER_MISS for each
 *  unit of the share missed above MISS_TOLERATED, to MIN_SKIP_SHARE (measured on areas-robust's
 *  tuned cases: 1.69x -> 1.64x the oracle at σ <= 0.1, the quiet cases unchanged). Kept where pages
 *  are no longer asked again (session 15: stopping the fall at 1% missed cost more and found less). */
const SKIP_PER_MISS = 30;
const MIN_SKIP_SHARE = 0.5;
export function skipShare(base: number, miss: number): number {
  return Math.max(MIN_SKIP_SHARE, base - SKIP_PER_MISS * Math.max(0, miss - MISS_TOLERATED));
}

/** Up to this share missed by the first pages (at σ 0.1 the tuned cases' views missed 0.4-1.9%),
 *  pages are asked again until MISS_TOLERATED is left: the recall target (0.99) holds. */
export const MISS_REPAIRED = 0.02;
/** Above it, each point missed more is LEFT_PER_MISS points left unrepaired: a page asked again
 *  finds about one place where a new view's page finds 10-18, so the places beyond cost a request
 *  each; from about 2.75% missed nothing is asked again (but a view whose probe was unclear, which
 *  asks to check its cap, viewcap.ts). Recall falls there and the coverage figure counts the misses
 *  (a counted view knows its count). Session 15 (docs/performance/areas.md): 1 saved little, 10 is
 *  a step that a run near 2% would flip across. */
const LEFT_PER_MISS = 3;

/** The share of their places the views may still miss once pages were asked again. */
export function leftTolerated(miss: number): number {
  return MISS_TOLERATED + LEFT_PER_MISS * Math.max(0, miss - MISS_REPAIRED);
}
