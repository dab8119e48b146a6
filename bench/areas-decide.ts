/**
 * The decision lens (AREAS_DECIDE=<file> in bench/areas-robust.bench.ts; issue 33, session 21): each
 * search-or-split decision the covering makes on a cell below a root once a cap is proven (cover.ts
 * setDecisionLens), with the truth of its cell, appended to <file> as JSON lines for offline analysis
 * (bench/areas-decide.py). A debug lens, not a figure; off (and free) unless asked.
 *
 * - `{"kind":"group",...}`: a split's sibling group: the group it reports to (`up`), the split cell and
 *   its sample (a searched view's: the places it showed), so a decision can be read against the
 *   places its ancestors showed around it, not only inside it.
 * - `{"kind":"decide",...}`: the cell, its depth, its sample, the prior's and the views' estimates,
 *   whether a sibling rate stood, the combined estimate (m, v of log places), P(saturated) against the
 *   cap the bet used, the choice (`split`), which of its quadrants meet the area's shape (`on`), and
 *   the truth: `n` the places in its box (all of them, as a view shows them) and `q` those in each of
 *   its quadrants (a split searches only those `on`).
 */
import { appendFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { quadrants, type Box } from '../src/sources/_maps/cells.ts';
import { setDecisionLens, type LensEvent } from '../src/sources/maps-search/cover.ts';
import type { MapSite } from '../test/support/map-site.ts';

/** Starts the lens for one case (`label` names it in every line); `done()` writes and stops it. */
export function decideTracker(site: MapSite, label: string, file: string): { done(): void } {
  const index = new KDBush(site.count);
  for (let i = 0; i < site.count; i++) index.add(site.lng[i]!, site.lat[i]!);
  index.finish();
  const countIn = (v: Box) => index.range(v.w, v.s, v.e, v.n).filter((i) => site.lat[i]! < v.n && site.lng[i]! < v.e).length;
  const lines: string[] = [];
  setDecisionLens((e: LensEvent) => {
    if (e.kind === 'group') { lines.push(JSON.stringify({ c: label, ...e })); return; }
    const box = { s: e.b[0], w: e.b[1], n: e.b[2], e: e.b[3] };
    lines.push(JSON.stringify({ c: label, ...e, n: countIn(box), q: quadrants(box).map(countIn) }));
  });
  return {
    done() {
      setDecisionLens(undefined);
      appendFileSync(file, lines.length ? `${lines.join('\n')}\n` : '');
    },
  };
}
