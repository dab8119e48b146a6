/**
 * The covering's split decision (issue 33, session 15): search a cell, or split it into its
 * quadrants unsearched, by the requests each is expected to cost under an estimate that says how
 * sure it is. cover.ts gathers the inputs (the two estimates, the cell's sample, the cap, the paging);
 * this file holds the arithmetic.
 *
 * - `estimateOf`: the density prior and the views' estimate combined in log by their precisions.
 * - `splitPays`: searched, the cell is saturated with probability P and its pages to the cap are
 *   wasted (less those its quadrants then skip of the ranks it showed: `savedBelow`); split, its
 *   quadrants' pages beyond its own are wasted when it would have fit. Each side pages from where it
 *   starts (past the ranks a searched ancestor showed it: known.ts).
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
 * ever raises the mean. `priorVar`: the prior's variance when it is known (a bench's density the
 * site was drawn from: cover.ts setEstimateOverride). Undefined when there is nothing to go by.
 */
export function estimateOf(skill: ReadonlyArray<number | undefined> | undefined, prior: number | undefined, seen: number | undefined, k: number, lb?: number, priorVar?: number): Estimate | undefined {
  const s = skill ?? [0, 0, 0];
  const calib = (s[1]! + SEEN_VAR * PSEUDO) / ((s[3] ?? 0) + SEEN_VAR * PSEUDO);
  const parts: Array<[number, number]> = [];
  if (prior !== undefined) parts.push([Math.log(prior + 1), priorVar ?? (Math.max(0, s[0]! - (s[4] ?? 0)) + PRIOR_VAR * PSEUDO) / (s[2]! + PSEUDO)]);
  if (seen !== undefined) parts.push([Math.log(seen + 1), seenVar(k) * calib]);
  if (!parts.length) return lb ? { m: Math.log(lb + 1), v: 0.01 } : undefined;
  const w = parts.reduce((a, [, v]) => a + 1 / v, 0);
  const m = parts.reduce((a, [x, v]) => a + x / v, 0) / w;
  return { m: lb ? Math.max(m, Math.log(lb + 1)) : m, v: 1 / w };
}

/** Pages a view of `n` places costs, `step` apart (the first, then one a step until a short one). */
export const pagesOf = (n: number, size: number, step: number) => (n < size ? 1 : Math.floor((n - size) / step) + 2);

/** The same expected for a view of about `n` places (a Poisson count): the first page, and page
 *  j + 2 when page j + 1 was full, that is when the count reaches from + size + j x step. `from`: the
 *  offset its pages start at, past the places a searched ancestor showed in it (known.ts). */
export function expectedPages(n: number, size: number, step: number, from = 0): number {
  const sd = Math.sqrt(n + 1);
  let pages = 1;
  for (let at = from + size; at <= n + 5 * sd; at += step) pages += 1 - phi((at - 0.5 - n) / sd);
  return pages;
}

/** The probability a cell's places reach `cap`: the estimate's log-normal spread and a count's
 *  Poisson spread (1/cap). */
export const pSaturated = (e: Estimate, cap: number) => 1 - phi((Math.log(cap + 1) - e.m) / Math.sqrt(e.v + 1 / cap));

/**
 * Whether splitting a cell unsearched saves requests in expectation. Searched, it is saturated with
 * the probability that its places reach `cap` (the estimate's log-normal spread and a count's
 * Poisson spread, 1/cap), and then its pages to the cap are wasted (to the page that reaches a
 * `known` cap; before, to a short page), less what its quadrants skip of the ranks it showed. Split
 * when it would have fit, its quadrants' pages (their `parts` of the estimate, one page at least
 * each) cost more than its own. Both paged from where they start (`from`: splitBet). Split when
 * P x the saturated pages > (1 - P) x that excess.
 */
export function splitPays(e: Estimate, o: { cap: number; size: number; step: number; known: boolean }, parts: number[], from?: Known): boolean {
  const { p, waste, excess } = splitBet(e, o, parts, from);
  return p * waste > (1 - p) * excess;
}

/** Where the cell's pages start and where each quadrant's would (known.ts: past the places a searched
 *  ancestor showed in it, less a page's overlap; 0 where fewer than a page step are known), and the
 *  share of the ranks a saturated search shows that its quadrants would skip (`show`: known.ts
 *  knownShare). */
export interface Known { cell: number; parts: number[]; show: number }

/** The pages a saturated search saves its quadrants that fit: it shows `cap` ranks, `show` of which
 *  each quadrant skips in proportion to its share of the cell's places (`parts`), a page each page
 *  step of them past a page's overlap, beyond where the quadrant would start anyway (`starts`: the
 *  ranks an ancestor showed it). A quadrant expected to be saturated too (the cell's places at the
 *  cap or above, `n`, times its share) saves nothing here (its own quadrants might). */
export function savedBelow(n: number, cap: number, size: number, step: number, parts: number[], show: number, starts: number[] = []): number {
  return parts.reduce((a, x, i) => {
    if (Math.max(n, cap) * x >= cap) return a;
    const from = Math.floor(show * cap * x) - (size - step);
    return a + (from >= step ? Math.max(0, Math.floor(from / step) - Math.floor((starts[i] ?? 0) / step)) : 0);
  }, 0);
}

/**
 * The bet's terms: P(saturated), the pages a saturated search wastes, and the pages a split that
 * would have fit is expected to cost beyond the cell's own. Both sides page from where they start
 * (`from`, session 25): a cell whose searched ancestor showed it many places pages from past them,
 * so searched it wastes only the pages from there to the cap; split, those places are shared out
 * and a quadrant holding fewer than a page step of them pages from 0, so the split pays the pages the
 * cell would have skipped. And a saturated search shows its quadrants its top ranks: those expected
 * to fit start past them (`savedBelow`, where `from.show` > 0), so its waste is counted net of those
 * pages. Priced from 0 (before), a cell under a saturated view holding half its places looked 3-4
 * pages dearer to search than it is, and at σ 0.02 about half of the saturated searches' pages came
 * back as pages their quadrants skipped (docs/performance/areas.md, session 25).
 */
export function splitBet(e: Estimate, o: { cap: number; size: number; step: number; known: boolean }, parts: number[], from?: Known): { p: number; waste: number; excess: number } {
  const { cap, size, step } = o;
  const f = Math.min(from?.cell ?? 0, Math.max(0, cap - size));
  const pages = o.known && cap >= size ? Math.ceil((cap - size - f) / step) + 1 : pagesOf(cap - f, size, step);
  const waste = from ? Math.max(0, pages - savedBelow(Math.exp(e.m) - 1, cap, size, step, parts, from.show, from.parts)) : pages;
  const n = Math.min(Math.exp(e.m) - 1, cap - 1);
  const excess = Math.max(0, parts.reduce((a, x, i) => a + expectedPages(n * x, size, step, from?.parts[i] ?? 0), 0) - expectedPages(n, size, step, f));
  return { p: pSaturated(e, cap), waste, excess };
}
