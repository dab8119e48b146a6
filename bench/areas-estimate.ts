/**
 * The estimation ceiling (AREAS_ESTIMATE in bench/areas-robust.bench.ts; issue 33, session 28): the
 * planner run with the estimate its split decision reads replaced (cover.ts setEstimateOverride), its
 * rules, pager and cap learning as they are, so a case's requests say what a better estimate could
 * be worth at most. A bench tool, not a figure of the planner; off (and free) unless asked.
 *
 * - `count`: the places a view of the cell shows on the site (its realized count, margin included),
 *   log variance 1e-4: what knowing every count is worth to these rules.
 * - `density`: the places expected there under the generator that drew the site, not its draw: a site
 *   of the same seed and layout drawn DENSITY_DRAWS times larger has the same centres, roads and
 *   cities, and its first draws are this site's (checked); the others, counted in the view and scaled
 *   to this site's draws, give the density λ. Log variance 1/(λ + 1), a count's Poisson spread about
 *   it: the best prior any planner could have.
 * - `density+views`: that density as the prior at that variance, combined with the views' estimate
 *   by estimateOf as the planner combines its own prior (the lower bound a capped parent gives too).
 */
import type { Box } from '../src/sources/_maps/cells.ts';
import { setEstimateOverride } from '../src/sources/maps-search/cover.ts';
import { mapSite, type MapSite, type MapSiteOptions } from '../test/support/map-site.ts';

export const ESTIMATE_MODES = ['count', 'density', 'density+views'] as const;
export type EstimateMode = (typeof ESTIMATE_MODES)[number];

/** Draws of the density's site per draw of the case's (fewer past a million places). */
const DENSITY_DRAWS = 30;
const MAX_DENSITY_PLACES = 2_500_000;
/** The count's log variance: known, all but exactly (the bet still adds a count's spread at the cap). */
const COUNT_VAR = 1e-4;

/** Starts the override for one case's run on `site` (built from `opts`); `done()` stops it. */
export function estimateOverride(site: MapSite, opts: MapSiteOptions, mode: EstimateMode): { done(): void } {
  if (mode === 'count') {
    setEstimateOverride({ prior: false, of: (b: Box) => ({ n: site.shownIds(b).length, v: COUNT_VAR }) });
    return { done: () => setEstimateOverride(undefined) };
  }
  const density = densityOf(site, opts);
  setEstimateOverride({ prior: mode === 'density+views', of: (b: Box) => { const n = density(b); return { n, v: 1 / (n + 1) }; } });
  return { done: () => setEstimateOverride(undefined) };
}

/** The places a view of a box is expected to show under the generator that drew `site` (from `opts`),
 *  not its draw: the density's site's other draws, counted and scaled to the case's number of draws. */
export function densityOf(site: MapSite, opts: MapSiteOptions): (b: Box) => number {
  const n = site.count;
  const draws = Math.max(2, Math.min(DENSITY_DRAWS, Math.floor(MAX_DENSITY_PLACES / n)));
  const big = mapSite({ ...opts, inside: undefined, places: draws * n });
  for (let i = 0; i < n; i++) if (big.lat[i] !== site.lat[i] || big.lng[i] !== site.lng[i]) throw new Error(`the density's site does not start with the case's draws (place ${i})`);
  const scale = n / (big.count - n);
  return (b) => big.shownIds(b).reduce((a, i) => a + (i >= n ? 1 : 0), 0) * scale;
}
