/**
 * What ranking noise costs a covering, and how much of it the planner pays (cover.ts asks these).
 * The product's ranking moves between requests, so a place near a page boundary can be on neither
 * page of a view; a view counted in full knows how many places its pages missed (its count less the
 * distinct places shown).
 *
 * Deeper ranks move more: where places score alike (the long tail of a view's ranking) a small move
 * of a score is a large move of a rank. The run learns how far a rank moves, as a share of the rank
 * (`noiseRate`: a place ranked k moves about rate x k places between two requests), from the misses of
 * the views it counted, given the pages they asked (`expectedUnseen`: each rank's chance of being on
 * none of them, its rank drawn anew each request; session 20). The boundaries taken apart
 * (`expectedMisses`, before) count a place that one boundary missed and the next page showed: up to
 * twice the truth for deep views, so the rate read low where views were deep. From the rate:
 *
 * - Overlap: the pages of a view overlap by GROW_REPAIRED x rate x the boundary's rank where pages
 *   are asked again (up to RATE_REPAIRED), GROW x RATE_REPAIRED x rank above it (the misses are
 *   left there, so the overlap no longer grows with the rate; session 24); at least OVERLAP, at most
 *   half a page: few where ranks barely move, more the deeper the page. Deep boundaries are
 *   where the misses are; a fixed overlap grown for them pays it on every boundary.
 * - Smaller views: the share of the cap the split decision bets against (cover.ts splitWorth: this
 *   share over its base) is where the deepest boundary's overlap reaches half a page (to
 *   MIN_SKIP_SHARE): a smaller view's pages miss fewer places than a large one's can be asked again
 *   for, or overlapped for. Up to RATE_REPAIRED only (session 25): above, neither is paid for.
 * - Asking pages again (repair.ts) what the overlap still missed: while ranks move up to RATE_REPAIRED
 *   of their rank, until a lower bound of the run's recall (recallBound) reaches the promise;
 *   above, while the share still missing is above what the run tolerates (leftTolerated, from
 *   MISS_TOLERATED; the recall target holds where the noise allows it).
 *
 * @example
 *   overlapAt(0.1, 100, 20)   // 10: a boundary at rank 100 where ranks move 10% (half a page)
 *   overlapAt(0.02, 40, 20)   // 2
 */
import { phi } from './density.ts';

/** Pages overlap by at least two places, so a place the ranking noise moved by a rank or two
 *  between two requests is still on one of them. */
export const OVERLAP = 2;
/** Overlap at a boundary, in units of how far a rank there moves (rate x rank). On the loopback
 *  site's tuned cases at σ 0.1 with every view's count known (bench scratch, session 16): 1.5 reached
 *  0.99 for 1.23x the oracle's requests where 2 paid 1.25x for 0.994 and a fixed overlap of 2 asked
 *  again to 0.99 paid 1.56x. */
const GROW = 1.5;
/** The same where pages are asked again for what the overlap missed (ranks moving up to
 *  RATE_REPAIRED): a place missed there costs a page asked again (about a request a place found),
 *  so a wider overlap pays; above, misses are left counted, and only the overlap costs. Session 17
 *  (areas-robust, full scale): σ 0.1 tuned 1.647 -> 1.633x the oracle, held out 1.738 -> 1.696x. At
 *  every rate (the views' size kept): σ 0.1 1.626x but σ 0.2-0.3 1.619/1.557 -> 1.654/1.581; 1.8 at
 *  every rate: recall 0.9898 on a tuned case at σ 0.05; 2.0: a tenth of the places lost on the tuned
 *  case of 10 a page. 1.72 since the fit reads the rate on each rank's chance (session 20; the rate
 *  reads higher on deep views than before): all tuned 1.474 -> 1.472x (σ 0.05 1.390 -> 1.376), held
 *  out 1.549 -> 1.548, held out new 1.587 -> 1.569, tuned new 1.564 -> 1.558, sweep 1.448 -> 1.446;
 *  1.5 there: tuned σ 0.1 1.601 -> 1.618. */
const GROW_REPAIRED = 1.72;
/** Where ranks move more than RATE_REPAIRED, the share of a view's places its pages may miss before
 *  the run pays to find them (the lowest: leftTolerated grows from it). */
export const MISS_TOLERATED = 0.005;

const pdf = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);

/** Places expected on neither page of a boundary where ranks move by a standard deviation of `s`
 *  places and the pages overlap by `o`: a place there is past the end of the first page in its
 *  request and before the start of the next one in the next (the two draws differ by s√2). */
export function missesAt(s: number, o: number): number {
  if (!(s > 0)) return 0;
  const w = s * Math.SQRT2, x = o / w;
  return w * (pdf(x) - x * (1 - phi(x)));
}

/** The boundaries' misses summed for a view of `t` places whose pages of `size` started at `offs`,
 *  ranks moving `rate` x rank: its boundaries above the count (the last page's end holds no place
 *  below it). An upper estimate where ranks move a page step or more (a place one boundary missed
 *  is often on the page after it): the fit reads expectedUnseen since session 20. */
export function expectedMisses(rate: number, offs: readonly number[], size: number, t: number): number {
  let sum = 0;
  for (let j = 0; j + 1 < offs.length; j++) {
    const e = offs[j]! + size;
    if (e >= t) continue;
    sum += missesAt(rate * e, e - offs[j + 1]!);
  }
  return sum;
}

/** A view's pages as the ranks each request showed: [offset, offset + size), the last page (its
 *  short one) every rank from its offset. */
export function pageRanks(offs: readonly number[], size: number): Array<[number, number]> {
  return offs.map((o, j) => [o, j === offs.length - 1 ? Infinity : o + size]);
}

/** The chance a place ranked `r` is on a request's page of ranks [lo, hi), its rank there moved by
 *  a normal draw of `rate` x r. */
export function onPage(lo: number, hi: number, r: number, rate: number): number {
  const sd = rate * r;
  if (!(sd > 0)) return r >= lo && r < hi ? 1 : 0;
  return phi((hi - r) / sd) - phi((lo - r) / sd);
}

/** The chance a place ranked `r` is on none of `pages`, each a request of its own (a fresh draw). */
export function offAll(pages: ReadonlyArray<readonly [number, number]>, r: number, rate: number): number {
  let m = 1;
  for (const [lo, hi] of pages) {
    m *= 1 - onPage(lo, hi, r, rate);
    if (m < 1e-9) return 0;
  }
  return m;
}

/** Places expected on none of the pages of a view of `t` places whose pages of `size` started at
 *  `offs`, ranks moving `rate` x rank: each rank's chance of being off every page, summed (ranks
 *  above its first page are not its to find). Unlike the boundaries' sum (expectedMisses), a place
 *  one boundary missed that the next page shows is not missed: where ranks move a page step or more
 *  the sum counts it twice (at a rate of 0.1 a view of 110 misses 3.35 places, the sum says 7.6). */
export function expectedUnseen(rate: number, offs: readonly number[], size: number, t: number): number {
  if (!(rate > 0) || !offs.length) return 0;
  const pages = pageRanks(offs, size);
  let sum = 0;
  for (let i = offs[0]!; i < t; i++) sum += offAll(pages, i + 0.5, rate);
  return sum;
}

/** Rates the fit weighs (a rank moving 0.5% to 45% of itself), geometric. */
const RATES = Array.from({ length: 16 }, (_, i) => 0.005 * 1.35 ** i);
/** Each counted view weighs this much less than the next (the noise may change during a run). */
const DECAY = 0.95;

/** What the views counted so far say of the noise: decayed sums of the misses each rate expected
 *  (`x`, one per RATES) and of the misses seen (`m`). Small: it travels in the plan's state. */
export interface NoiseFit { x: number[]; m: number }

/** Adds a counted view (pages at `offs`, `t` places, `missed` of them on none of its pages). */
export function learnNoise(fit: NoiseFit | undefined, offs: readonly number[], size: number, t: number, missed: number): NoiseFit {
  const f = fit ?? { x: RATES.map(() => 0), m: 0 };
  const r = (v: number) => Number(v.toPrecision(4));
  f.x = RATES.map((a, i) => r(DECAY * (f.x[i] ?? 0) + expectedUnseen(a, offs, size, t)));
  f.m = r(DECAY * f.m + missed);
  return f;
}

/** How far a rank moves, as a share of it: the rate whose expected misses match those seen
 *  (log-interpolated on RATES); 0 before any view missed a place. */
export function noiseRate(fit: NoiseFit | undefined): number {
  if (!fit || !(fit.m > 0)) return 0;
  const { x, m } = fit;
  const i = x.findIndex((v) => v >= m);
  if (i < 0) return RATES[RATES.length - 1]!;
  if (i === 0) return RATES[0]! * (m / x[0]!);
  // Below the grid's resolution (a rate expecting no miss at all): the next rate.
  if (!(x[i - 1]! > 0)) return RATES[i]!;
  const f = Math.log(m / x[i - 1]!) / Math.log(x[i]! / x[i - 1]!);
  return RATES[i - 1]! * (RATES[i]! / RATES[i - 1]!) ** f;
}

/** The overlap of the page after one ending at rank `end`, for pages of `size`, ranks moving `rate`. */
export function overlapAt(rate: number, end: number, size: number): number {
  // Above RATE_REPAIRED the run pays nothing more for its misses (no page asked again for them,
  // leftTolerated): the overlap stays what it is just above the threshold, not grown with the rate.
  const perRank = rate <= RATE_REPAIRED ? GROW_REPAIRED * rate : GROW * RATE_REPAIRED;
  return Math.min(Math.floor(size / 2), Math.max(OVERLAP, Math.round(perRank * end)));
}

/** Where the next page of a view starts after the page at `offset`. */
export const nextOffset = (rate: number, offset: number, size: number) => offset + size - overlapAt(rate, offset + size, size);

/** The mean step between a view's pages up to `upTo` places (the split decision's expected pages). */
export function meanStep(rate: number, size: number, upTo: number): number {
  let o = 0, n = 0;
  while (o + size < upTo) { o = nextOffset(rate, o, size); n++; }
  return n ? o / n : size - overlapAt(rate, size, size);
}

/** Where ranks move, a smaller view is read more cheaply than a large one overlapped or asked again:
 *  the share of `cap` a cell is split unsearched against falls to where the deepest boundary's
 *  overlap would reach half a page, to MIN_SKIP_SHARE. Not above RATE_REPAIRED (session 25): there
 *  no page is asked again for a miss and the overlap no longer grows, so a smaller view would buy
 *  only recall, which is not promised there, and the split bet priced a cell above the smaller
 *  view as a saturated search when its pages count it in full (as many pages as its quadrants'). */
const MIN_SKIP_SHARE = 0.5;
export function skipShare(base: number, rate: number, cap: number, size: number): number {
  if (!(rate > 0) || !(cap > 0) || rate > RATE_REPAIRED) return base;
  return Math.max(MIN_SKIP_SHARE, Math.min(base, size / 2 / (GROW * rate) / cap));
}

/** Up to this rate (σ 0.1 on the loopback site reads 0.088-0.129, σ 0.2 0.128-0.219, σ 0.3 0.18-0.28:
 *  areas-robust's cases at their end, session 20; at 0.14 the tuned cases at σ 0.1 and 0.2 cost more,
 *  1.601 -> 1.607x and 1.622 -> 1.630x the oracle),
 *  a counted view that missed places asks for them again while a lower bound of the run's recall,
 *  with this view counted, is below RECALL_PROMISED (recallBound), its figure below COVER_REPAIRED. */
export const RATE_REPAIRED = 0.12;
/** The coverage figure asked again to at most: a small run (under about 1,000 places, where the
 *  bound below asks more) stops here, so a small town's one miss in 90 asks nothing. It stood within
 *  0.3 points of the recall on every areas-robust case (session 16: tuned cases at σ 0.1, asking
 *  until 0.8% was left reached recall 0.995 but 0.989 on a held-out site of 10 a page). */
export const COVER_REPAIRED = 0.995;
/** The recall issue 33 promises where ranks move up to RATE_REPAIRED. A page asked again finds about
 *  one place, so each place beyond what the promise needs costs a request. */
export const RECALL_PROMISED = 0.99;
/** How many standard errors below the coverage figure the bound on the recall is set. The figure
 *  counts every place the run knows it missed (views' counts less the places their pages showed,
 *  their shares inside the cell and the area estimated; views accepted unchecked; views saturated at
 *  the smallest cell), so its error grows with the misses it estimates: in units of their square
 *  root (Poisson), the figure stood above the recall by at most 0.5 on 228 of 230 areas-robust runs
 *  (main at 26fc31f, paired and stream noise, session 22), 1.3 on one at σ 0.2 and 5.2 on one whose
 *  cap fell mid-run at σ 0.02, where nothing is asked again. Two: asking stops at a figure of about 0.992 on a run of
 *  10,000 places, 0.9906 on 100,000, where COVER_REPAIRED alone (before session 22) paid a request
 *  a place for a margin the large runs do not need. */
export const FIGURE_SE = 2;

/** A lower bound of the recall of a run that found `found` of `estimated` places: the figure less
 *  FIGURE_SE standard errors of its misses (their square root over the estimate). */
export function recallBound(found: number, estimated: number): number {
  if (!(estimated > 0)) return 1;
  const m = Math.max(0, estimated - found);
  return (found - FIGURE_SE * Math.sqrt(m)) / estimated;
}

/** Above RATE_REPAIRED, each point of rate more leaves LEFT_PER_RATE points of the places missing:
 *  from about 0.13 (2.5% left) nothing is asked again (but a view whose probe was unclear, which asks
 *  to check its cap, viewcap.ts). Recall falls there and the coverage figure counts the misses (a
 *  counted view knows its count). */
const LEFT_PER_RATE = 2;

/** The share of their places the views may still miss once pages were asked again, above RATE_REPAIRED. */
export function leftTolerated(rate: number): number {
  return MISS_TOLERATED + LEFT_PER_RATE * Math.max(0, rate - RATE_REPAIRED);
}

/**
 * Whether a counted view that missed `missed` places asks for them again: where ranks move up to
 * RATE_REPAIRED, while the run's recall bound with it (recallBound of `found` of `estimated` places
 * so far, the view's `seen` places and its misses added) is a place or more short of
 * RECALL_PROMISED and its coverage figure a place or more short of COVER_REPAIRED; above, while the
 * share still missing (`left`, the moving average with this view) is above leftTolerated.
 */
export function asksAgain(rate: number, missed: number, o: { seen: number; found: number; estimated: number; left: number }): boolean {
  if (!(missed > 0)) return false;
  // At least a whole place short of both: a fraction of one is not worth a request.
  const est = o.estimated + o.seen + missed, found = o.found + o.seen;
  if (rate <= RATE_REPAIRED) return COVER_REPAIRED * est - found >= 1 && (RECALL_PROMISED - recallBound(found, est)) * est >= 1;
  return o.left > leftTolerated(rate);
}
