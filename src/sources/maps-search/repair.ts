/**
 * Pages of a counted view asked again across its page boundaries. A view counted in full knows
 * exactly how many of its places its pages missed (its count less the distinct places shown): the
 * ranking moves between requests, so a place near a page boundary can be past one page's end in its
 * request and before the next page's start in the next. A page centred on a boundary shows most of
 * the places ranked around it again, each at a new draw of the noise, so it finds such places; the
 * view stops asking once its places are all found (the count says when), after REPAIR_DRY pages in
 * a row that found nothing (as many places' worth on a site of smaller pages), or after two pages a
 * boundary.
 *
 * Deepest boundary first: a place's rank moves more the deeper it is ranked wherever many places
 * score alike, and the last pages of a view are where its places are most alike. The offsets are new
 * ones (never a page the view asked already: no URL is asked twice).
 *
 * @example
 *   repairOffset([0, 18, 36], [], 50) // 27: the page centred on the boundary of pages 2 and 3
 */
import { PAGE_SIZE } from '../_maps/pb.ts';

/** Pages in a row that found nothing before a view stops asking again (pages of PAGE_SIZE). */
export const REPAIR_DRY = 2;

/** The same for pages of `size`: as many places asked in a row for nothing, so a site of smaller
 *  pages (each finding a missed place less often) asks as far (a site of 10 a page asked again
 *  found under a third as often per page and stopped short: recall 0.989, session 16). */
export const repairDry = (size: number) => Math.max(REPAIR_DRY, Math.ceil((REPAIR_DRY * PAGE_SIZE) / Math.max(1, size)));
/** Shifts of the page centred on a boundary, in pages, one pass each (a quarter page either side second). */
const SHIFTS = [0, -1 / 4, 1 / 4];

/** The next offset to ask again for a view of `t` places whose pages started at `offs` (in order)
 *  and asked `asked` again already; undefined when none is left (two a boundary at most). `size`
 *  is the site's page size as its answers showed it (PAGE_SIZE is only what is asked). */
export function repairOffset(offs: readonly number[], asked: readonly number[], t: number, size = PAGE_SIZE): number | undefined {
  const bounds = offs.length - 1;
  if (bounds < 1 || asked.length >= 2 * bounds) return undefined;
  for (const shift of SHIFTS) {
    for (let p = bounds - 1; p >= 0; p--) {
      const centre = (offs[p + 1]! + offs[p]! + size) / 2;
      const o = Math.max(1, Math.min(t - 1, Math.round(centre - size / 2 + shift * size)));
      if (!offs.includes(o) && !asked.includes(o)) return o;
    }
  }
  return undefined;
}
