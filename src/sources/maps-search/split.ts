/**
 * The covering's split decision (issue 33, session 15): search a cell, or split it into its
 * quadrants unsearched, by the requests each is expected to cost under an estimate that says how
 * sure it is. cover.ts gathers the inputs (the two estimates, the cell's sample, the cap, the paging);
 * this file holds the arithmetic.
 *
 * - `estimateOf`: the density prior and the views' estimate combined in log by their precisions.
 * - `splitPays`: searched, the cell is saturated with probability P and its pages to the cap are
 *   wasted; split, its quadrants' pages beyond its own are wasted when it would have fit.
 *
 * @example
 *   const e = estimateOf([0.5, 3, 40, 4, 0.4], 100, 130, 2);   // { m: 4.66, v: 0.042 }: about 104
 *   splitPays(e!, { cap: 120, size: 20, step: 18, known: true }, [0.25, 0.25, 0.25, 0.25])   // true
 */
import { phi } from './density.ts';

/** A cell's places: the mean `m` and variance `v` of log(places + 1). */
export interface Estimate { m: number; v: number }

/** The prior's variance before it has been scored, as PSEUDO views: not trusted until scored. */
const PRIOR_VAR = 1;
/** The views' estimate's calibration before any view was scored (scale 1), as PSEUDO views. */
const SEEN_VAR = 0.25;
const PSEUDO = 2;

/** The spread of the views' estimate of a cell with `k` sampled places (log places), before
 *  calibration: a count's relative spread (a cell with 0-1 sampled places is a guess, one with 10
 *  or more close). */
export const seenVar = (k: number) => 1 / (k + 1) + 0.01;

/**
 * Both estimates of a cell combined, each weighted by its precision. `skill`: the covering's scores
 * (cover.ts score: summed squared log errors of the prior and the views' estimate, views scored, the
 * spreads the views' estimate claimed for them, and the counts' Poisson spreads). The prior's
 * variance is its mean squared log error beyond the counts' own Poisson spread (the count's spread is
 * added where the decision is made); the views' estimate's is seenVar(k) scaled by how such spreads
 * matched its errors. A lower bound from a capped parent (`lb`: not an estimate, not scored) only
 * ever raises the mean. Undefined when there is nothing to go by.
 */
export function estimateOf(skill: ReadonlyArray<number | undefined> | undefined, prior: number | undefined, seen: number | undefined, k: number, lb?: number): Estimate | undefined {
  const s = skill ?? [0, 0, 0];
  const calib = (s[1]! + SEEN_VAR * PSEUDO) / ((s[3] ?? 0) + SEEN_VAR * PSEUDO);
  const parts: Array<[number, number]> = [];
  if (prior !== undefined) parts.push([Math.log(prior + 1), (Math.max(0, s[0]! - (s[4] ?? 0)) + PRIOR_VAR * PSEUDO) / (s[2]! + PSEUDO)]);
  if (seen !== undefined) parts.push([Math.log(seen + 1), seenVar(k) * calib]);
  if (!parts.length) return lb ? { m: Math.log(lb + 1), v: 0.01 } : undefined;
  const w = parts.reduce((a, [, v]) => a + 1 / v, 0);
  const m = parts.reduce((a, [x, v]) => a + x / v, 0) / w;
  return { m: lb ? Math.max(m, Math.log(lb + 1)) : m, v: 1 / w };
}

/** Pages a view of `n` places costs, `step` apart (the first, then one a step until a short one). */
export const pagesOf = (n: number, size: number, step: number) => (n < size ? 1 : Math.floor((n - size) / step) + 2);

/** The same expected for a view of about `n` places (a Poisson count): the first page, and page
 *  j + 2 when page j + 1 was full, that is when the count reaches size + j x step. */
export function expectedPages(n: number, size: number, step: number): number {
  const sd = Math.sqrt(n + 1);
  let pages = 1;
  for (let at = size; at <= n + 5 * sd; at += step) pages += 1 - phi((at - 0.5 - n) / sd);
  return pages;
}

/** The probability a cell's places reach `cap`: the estimate's log-normal spread and a count's
 *  Poisson spread (1/cap). */
export const pSaturated = (e: Estimate, cap: number) => 1 - phi((Math.log(cap + 1) - e.m) / Math.sqrt(e.v + 1 / cap));

/**
 * Whether splitting a cell unsearched saves requests in expectation. Searched, it is saturated with
 * the probability that its places reach `cap` (the estimate's log-normal spread and a count's
 * Poisson spread, 1/cap), and then its pages to the cap are wasted (to the page that reaches a
 * `known` cap; before, to a short page). Split when it would have fit, its quadrants' pages (their
 * `parts` of the estimate, one page at least each) cost more than its own. Split when
 * P x the saturated pages > (1 - P) x that excess.
 */
export function splitPays(e: Estimate, o: { cap: number; size: number; step: number; known: boolean }, parts: number[]): boolean {
  const { p, waste, excess } = splitBet(e, o, parts);
  return p * waste > (1 - p) * excess;
}

/** The bet's terms: P(saturated), the pages a saturated search wastes, and the pages a split that
 *  would have fit is expected to cost beyond the cell's own. */
export function splitBet(e: Estimate, o: { cap: number; size: number; step: number; known: boolean }, parts: number[]): { p: number; waste: number; excess: number } {
  const { cap, size, step } = o;
  const waste = o.known && cap >= size ? Math.ceil((cap - size) / step) + 1 : pagesOf(cap, size, step);
  const n = Math.min(Math.exp(e.m) - 1, cap - 1);
  const excess = Math.max(0, parts.reduce((a, x) => a + expectedPages(n * x, size, step), 0) - expectedPages(n, size, step));
  return { p: pSaturated(e, cap), waste, excess };
}
