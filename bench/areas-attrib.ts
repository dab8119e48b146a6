/**
 * Where an area query's requests go against the oracle's quadtree (AREAS_ATTRIB=1 in
 * bench/areas*.bench.ts): each request is classed by the oracle cell its view is (or lies below),
 * so the ratio over the oracle splits into what each kind of waste costs. A debug lens, not a figure.
 *
 * - `leaf`: pages of a view that is an oracle leaf; the oracle pays ceil(n / 20) for it, the paging
 *   floor (pages 18 apart to a short page) `leaf_floor`, so `leaf - leaf_floor` is paging beyond it.
 * - `split_searched`: pages of a view the oracle splits (it holds more than its cap): wasted
 *   (`split_searched_noest`: those searched without any estimate; `views_split_searched` how many).
 * - `below`: requests of views below an oracle leaf (the planner split a cell the oracle reads whole);
 *   `below_oracle` what the oracle pays for those leaves (`below_leaf_searched`: of leaves the planner
 *   searched itself before splitting).
 * - `empty`: pages of a view holding none of the area's places (the oracle pays 0; the paging floor 1
 *   an empty leaf): `empty_leaf` is an oracle empty leaf, `empty_below` a view below one.
 * - `probe`, `repair`, `recheck`: the checking requests (viewcap.ts, repair.ts); `repair_amb` the pages
 *   asked again by views whose probe was unclear (to check the cap, not for misses).
 * - `overlap`: pages of views (any class above) beyond what pages `step` apart from the same first
 *   offset would have asked to reach the same last one (the view's count taken half a page past it):
 *   what the overlap grown with depth costs over the fixed one.
 * - `covered`: the oracle's cost of leaves no view reached (an ancestor was accepted): negative waste.
 * - `amb_views`: views that asked pages again to check their cap (their probe unclear), `amb_capped`
 *   those of them whose oracle cell is split (truly capped) and `amb_capped_pages` their pages.
 */
import type { Box } from '../src/sources/_maps/cells.ts';
import type { AreaState } from '../src/sources/maps-search/cover.ts';
import type { MapSite } from '../test/support/map-site.ts';

export type Attrib = Record<string, number>;

const key = (b: readonly number[]) => b.map((x) => x.toFixed(9)).join(',');

export function attribTracker() {
  const asked: Array<{ b: [number, number, number, number]; kind: string; est: boolean; amb: boolean; offset: number }> = [];
  return {
    step(pre: AreaState): void {
      const v = pre.view!;
      const kind = v.recheck ? 'recheck' : v.probe ? 'probe' : v.fix ? 'repair' : 'page';
      asked.push({ b: v.b, kind, est: !!v.ests, amb: !!v.amb, offset: v.offset });
    },
    /** The classes, in requests, over the oracle's cells of `roots` (page `size`, pages `step` apart). */
    result(site: MapSite, roots: Box[], size = 20, step = 18): Attrib {
      const cells = site.oracleCells(roots);
      const byKey = new Map(cells.map((c) => [key([c.box.s, c.box.w, c.box.n, c.box.e]), c]));
      const leaves = cells.filter((c) => c.kind !== 'split');
      const ceil = (n: number) => Math.ceil(n / size);
      const floor = (n: number) => (n < size ? 1 : Math.floor((n - size) / step) + 2);
      const a: Attrib = { oracle: 0, floor: 0, total: asked.length, leaf: 0, leaf_oracle: 0, leaf_floor: 0, split_searched: 0, split_searched_noest: 0, views_split_searched: 0, views_split_unsearched: 0, below: 0, below_oracle: 0, below_leaf_searched: 0, views_below: 0, leaves_oversplit: 0, empty_leaf: 0, empty_below: 0, views_empty_leaf: 0, probe: 0, repair: 0, repair_amb: 0, recheck: 0, covered: 0, overlap: 0 };
      for (const c of leaves) if (c.kind === 'leaf') { a.oracle! += ceil(c.n); a.floor! += floor(c.n); } else a.floor! += 1;
      // The oracle cell a view is, or the leaf it lies below (the one holding its centre).
      const leafOf = (b: [number, number, number, number]) => {
        const y = (b[0] + b[2]) / 2, x = (b[1] + b[3]) / 2;
        return leaves.find((c) => c.box.s <= y && y < c.box.n && c.box.w <= x && x < c.box.e);
      };
      const reached = new Set<string>();
      const leafViews = new Map<string, { exact: number; below: number }>();
      const seenView = new Set<string>();
      // Each view's page offsets (a view's pages are consecutive requests), for `overlap`.
      const runs: number[][] = [];
      let lastKey = '';
      for (const r of asked) {
        if (r.kind !== 'page') continue;
        const k = key(r.b);
        if (k !== lastKey) runs.push([]);
        lastKey = k;
        runs[runs.length - 1]!.push(r.offset);
      }
      for (const offs of runs) {
        if (offs.length < 2) continue;
        const first = offs[0]!, t = offs[offs.length - 1]! + size / 2;
        a.overlap! += offs.length - (Math.floor((t - first - size) / step) + 2);
      }
      for (const r of asked) {
        if (r.kind !== 'page') { a[r.kind]! += 1; if (r.kind === 'repair' && r.amb) a.repair_amb! += 1; }
        const k = key(r.b);
        const exact = byKey.get(k);
        const c = exact ?? leafOf(r.b);
        if (!c) continue;
        const ck = key([c.box.s, c.box.w, c.box.n, c.box.e]);
        reached.add(ck);
        if (r.kind !== 'page') continue;
        const first = !seenView.has(k);
        seenView.add(k);
        const lv = leafViews.get(ck) ?? { exact: 0, below: 0 };
        leafViews.set(ck, lv);
        if (exact?.kind === 'split') { a.split_searched! += 1; if (!r.est) a.split_searched_noest! += 1; if (first) a.views_split_searched! += 1; }
        else if (c.kind === 'empty') { if (exact) { a.empty_leaf! += 1; if (first) a.views_empty_leaf! += 1; } else a.empty_below! += 1; }
        else if (exact) { lv.exact += 1; }
        else { lv.below += 1; if (first) a.views_below! += 1; }
      }
      const detail: Array<[string, number, number, number, number]> = [];
      for (const c of cells) if (c.kind === 'split' && seenView.has(key([c.box.s, c.box.w, c.box.n, c.box.e]))) detail.push(['S', c.d, c.n, 0, 0]);
      for (const c of leaves) {
        if (c.kind !== 'leaf') continue;
        const ck = key([c.box.s, c.box.w, c.box.n, c.box.e]);
        const lv = leafViews.get(ck);
        if (!reached.has(ck)) { a.covered! += ceil(c.n); continue; }
        if (!lv) continue;
        if (lv.below > 0) {
          detail.push(['B', c.d, c.n, lv.exact, lv.below]);
          a.leaves_oversplit! += 1;
          a.below! += lv.below + lv.exact;
          a.below_oracle! += ceil(c.n);
          if (lv.exact) a.below_leaf_searched! += lv.exact;
        } else { a.leaf! += lv.exact; a.leaf_oracle! += ceil(c.n); a.leaf_floor! += floor(c.n); }
      }
      // Split cells reached but never searched: split unsearched (or below a searched ancestor).
      for (const c of cells) if (c.kind === 'split' && !seenView.has(key([c.box.s, c.box.w, c.box.n, c.box.e]))) a.views_split_unsearched! += 1;
      // Views whose probe was unclear: their pages asked again, and whether they were truly capped.
      const ambPages = new Map<string, number>();
      for (const r of asked) if (r.kind === 'repair' && r.amb) ambPages.set(key(r.b), (ambPages.get(key(r.b)) ?? 0) + 1);
      a.amb_views = ambPages.size; a.amb_capped = 0; a.amb_capped_pages = 0;
      for (const [k, pages] of ambPages) if (byKey.get(k)?.kind === 'split') { a.amb_capped += 1; a.amb_capped_pages += pages; }
      if (process.env.AREAS_ATTRIB === '2') (a as Record<string, unknown>).detail = detail;
      return a;
    },
  };
}
