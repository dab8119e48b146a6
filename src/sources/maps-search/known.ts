/**
 * A cell's first ranks are known before it is searched (issue 33, session 16). A place's prominence
 * ranks it in every view that holds it, so the places a searched view showed (all of its places above
 * its last ranked one) are, in any cell below it, that cell's top places: its own first pages would
 * show them again. Its pages start a page's overlap before the last of them instead (cover.ts).
 *
 * - Places a probe found (flagged 1) were the top of a sub-cell, not of the view: not counted.
 * - The ancestor's pages missed a share `miss` of its places (ranking noise), and no page of the cell
 *   shows the ranks it skips: as many ranks are skipped as keep those misses under the share the run
 *   leaves missing anyway where ranks move `rate` of themselves (noise.ts leftTolerated), all of them
 *   where the ranking barely moves.
 * - Fewer known ranks than a page step: its first page is asked as before.
 *
 * @example
 *   knownFrom(thirtyTopPlaces, 20, 18, 0)   // 28: its pages start at rank 28 (ranks 0-29 are known)
 */
import { leftTolerated } from './noise.ts';

/** A sampled place: coordinates, hash, and 1 when a probe found it. */
export type Sampled = readonly [number, number, string, 1?];

/** The share of its known top places a cell skips where the views' pages miss `miss` of theirs and
 *  ranks move `rate` of themselves. */
export function knownShare(miss: number, rate = 0): number {
  return miss > 0 ? Math.min(1, leftTolerated(rate) / miss) : 1;
}

/** The offset a cell's pages start at, its ancestor's sampled places in it being `k` (page `size`,
 *  pages `step` apart), or undefined to start at 0. */
export function knownFrom(k: ReadonlyArray<Sampled>, size: number, step: number, miss: number, rate = 0): number | undefined {
  const top = Math.floor(knownShare(miss, rate) * k.filter((p) => !p[3]).length);
  const from = top - (size - step);
  return from >= step ? from : undefined;
}
