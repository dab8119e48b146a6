/**
 * Pages of a counted view asked again. A view counted in full knows exactly how many of its places
 * its pages missed (its count less the distinct places shown): the ranking moves between requests, so
 * a place near a page boundary can be past one page's end in its request and before the next page's
 * start in the next. A page over the ranks where they were shows them again, each at a new draw of the
 * noise, so it finds such places; the view stops asking once its places are all found (the count says
 * when), after REPAIR_DRY pages in a row that found nothing (as many places' worth on a site of
 * smaller pages), after two pages a boundary, or where the run knows how far ranks move, once no page
 * is expected to find MIN_YIELD of its missing places (session 19).
 *
 * Which page: where the run knows how far ranks move, the one where the missing places most likely
 * are (likeliest); before, the page centred on the deepest boundary, then the shallower ones, then
 * each shifted a quarter page (a place's rank moves more the deeper it is ranked wherever many
 * places score alike). The offsets are new ones (never a page the view asked already: no URL is
 * asked twice).
 *
 * @example
 *   repairOffset([0, 18, 36], [], 50) // 27: the page centred on the boundary of pages 2 and 3
 */
import { PAGE_SIZE } from '../_maps/pb.ts';
import { offAll, onPage, pageRanks } from './noise.ts';

/** Pages in a row that found nothing before a view stops asking again (pages of PAGE_SIZE). */
export const REPAIR_DRY = 2;

/** The same for pages of `size`: as many places asked in a row for nothing, so a site of smaller
 *  pages (each finding a missed place less often) asks as far (a site of 10 a page asked again
 *  found under a third as often per page and stopped short: recall 0.989, session 16). */
export const repairDry = (size: number) => Math.max(REPAIR_DRY, Math.ceil((REPAIR_DRY * PAGE_SIZE) / Math.max(1, size)));
/** The places a page asked again must be expected to find (pages of PAGE_SIZE; a page of `size` in
 *  proportion). Below, the view stops: its misses are left counted in the coverage figure, and views
 *  whose pages find more make the figure's target up (noise.ts asksAgain) at about a request a place,
 *  where these would cost two or more. areas-robust, full scale, with the likeliest page (session 19),
 *  tuned cases (σ 0.1): none 1.628x the oracle (σ 0.1 cases only), 0.3 1.484 (1.621), 0.4 1.485
 *  (1.623), 0.5 1.484 (1.617). 0.5 before a view checking its cap was exempt: recall 0.9774 where it
 *  had been 0.9818 on a tuned σ 0.2 case, such a view stopping short of the page past its count. */
export const MIN_YIELD = 0.5;
/** Shifts of the page centred on a boundary, in pages, one pass each (a quarter page either side second). */
const SHIFTS = [0, -1 / 4, 1 / 4];

/** The next offset to ask again for a view of `t` places whose pages started at `offs` (in order)
 *  and asked `asked` again already; undefined when none is left (two a boundary at most). `size`
 *  is the site's page size as its answers showed it (PAGE_SIZE is only what is asked). Where the run
 *  knows how far ranks move (`rate`), the page where its missing places most likely are (likeliest);
 *  before, the boundaries deepest first. */
export function repairOffset(offs: readonly number[], asked: readonly number[], t: number, size = PAGE_SIZE, rate = 0, missing = 0): number | undefined {
  const bounds = offs.length - 1;
  if (bounds < 1 || asked.length >= 2 * bounds) return undefined;
  if (rate > 0) return likeliest(offs, asked, t, size, rate, missing);
  for (const shift of SHIFTS) {
    for (let p = bounds - 1; p >= 0; p--) {
      const centre = (offs[p + 1]! + offs[p]! + size) / 2;
      const o = Math.max(1, Math.min(t - 1, Math.round(centre - size / 2 + shift * size)));
      if (!offs.includes(o) && !asked.includes(o)) return o;
    }
  }
  return undefined;
}

/**
 * The offset whose page shows most of a view's missing places in expectation. A place ranked r is
 * shown by a request's page [o, o + size) with the chance its rank in that request (r moved by a
 * normal draw of rate x r, fresh each request) falls there; it is missing with the chance every page
 * asked so far missed it (the last of the view's pages, its short one, showed every rank from its
 * offset). The page asked is the one whose chance of showing them, summed over the ranks, is the
 * highest. Each boundary apart, deepest first (before session 19), asks pages that a page further on
 * already half covers: at a rate of 0.1 (simulated, views of 70-110 places) a page asked this way
 * finds 0.67-0.72 places where those found 0.55-0.58, and 0.9 places are left missing where 1.3 were.
 * Ranks above the view's first page (skipped as known) are not its to find.
 */
function likeliest(offs: readonly number[], asked: readonly number[], t: number, size: number, rate: number, missing: number): number | undefined {
  const from = offs[0]!;
  const pages = pageRanks(offs, size);
  for (const a of asked) pages.push([a, a + size]);
  const q: number[] = [];
  for (let i = from; i < t; i++) q.push(offAll(pages, i + 0.5, rate));
  let best: number | undefined, most = 0;
  for (let o = Math.max(1, from); o < t; o++) {
    if (offs.includes(o) || asked.includes(o)) continue;
    let sum = 0;
    for (let i = Math.max(from, Math.floor(o - 4 * rate * (o + size))); i < t && i < o + size + 4 * rate * t; i++) {
      if (q[i - from]! > 1e-6) sum += q[i - from]! * onPage(o, o + size, i + 0.5, rate);
    }
    // Ties: the deeper page (the deep ranks are where places are most alike).
    if (sum >= most && sum > 0) { most = sum; best = o; }
  }
  const all = q.reduce((a, x) => a + x, 0);
  if (missing > 0 && all > 0 && (missing * most) / all < (MIN_YIELD * size) / PAGE_SIZE) return undefined;
  return best;
}
