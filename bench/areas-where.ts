/**
 * Where an area query's requests go (AREAS_WHERE=1 in bench/areas*.bench.ts): each request is
 * classed by the step's view before it is asked (a page of a view, a probe, a page asked again, a
 * recheck) and each view by how it ended (capped and split, counted at a page or more, counted under
 * a page, empty), read from the plan's state before and after each page. A debug lens, not a figure.
 */
import type { AreaState } from '../src/sources/maps-search/cover.ts';
import { noiseRate } from '../src/sources/maps-search/noise.ts';

export interface Where {
  /** Requests: pages of views that ended capped / counted (a page or more) / counted under a page. */
  capped: number; counted: number; under: number;
  probe: number; repair: number; recheck: number;
  /** Views: capped, counted, under a page (empty among them), split unsearched. */
  views_capped: number; views_counted: number; views_under: number; views_empty: number; skipped: number;
  /** Capped views without an estimate from the views (the first searched at their level). */
  capped_no_est: number;
  /** Repair pages that found at least one place. */
  repair_found: number;
  /** Repair pages of views whose probe was unclear (asked to check the cap, not for misses). */
  repair_amb?: number;
  /** The run's moving averages at its end: share of a view's places its pages missed, and still
   *  missing once pages were asked again (noise.ts). */
  miss?: number; left?: number;
  /** How far ranks move as a share of the rank, as the run learned it (noise.ts noiseRate). */
  rate?: number;
}

export function whereTracker() {
  const w: Where = { capped: 0, counted: 0, under: 0, probe: 0, repair: 0, recheck: 0, views_capped: 0, views_counted: 0, views_under: 0, views_empty: 0, skipped: 0, capped_no_est: 0, repair_found: 0 };
  let pages = 0, records = 0;
  return {
    w,
    /** One page asked with `pre` (the step's state) and answered with `post` (the next step's, or
     *  none at the end); `kept` the records it returned. */
    step(pre: AreaState, post: AreaState | undefined, kept: number): void {
      const v = pre.view!;
      w.miss = Math.round((pre.miss ?? 0) * 1e4) / 1e4;
      w.left = Math.round((pre.left ?? 0) * 1e4) / 1e4;
      w.rate = Math.round(noiseRate(pre.nz) * 1e4) / 1e4;
      const kind = v.recheck ? 'recheck' : v.probe ? 'probe' : v.fix ? 'repair' : 'page';
      if (kind === 'page') { pages += 1; records += kept; }
      else if (kind === 'repair') { w.repair += 1; if (kept > 0) w.repair_found += 1; if (v.amb) w.repair_amb = (w.repair_amb ?? 0) + 1; }
      else w[kind] += 1;
      const pv = post?.view;
      const same = pv && pv.b.join() === v.b.join() && !pv.recheck;
      if (same || kind === 'recheck') return;
      const sat = (post?.tally.saturated ?? pre.tally.saturated) > pre.tally.saturated;
      if (sat) { w.capped += pages; w.views_capped += 1; if (!v.ests) w.capped_no_est += 1; }
      else if (pages <= 1) { w.under += pages; w.views_under += 1; if (records === 0) w.views_empty += 1; }
      else { w.counted += pages; w.views_counted += 1; }
      pages = 0; records = 0;
      if (post) w.skipped = post.tally.skipped;
    },
  };
}
