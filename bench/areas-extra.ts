/**
 * Site behaviours areas-robust's cases do not have (issue 33, session 28), run after them when
 * AREAS_EXTRA=1 (off by default: the published case set stays as it is). Each is a way a real map
 * product plausibly behaves that nobody built the planner for: a cap that depends on the zoom, a
 * ranking that depends on where a place lies in the view or how dense its spot is, a cap of one page
 * or of 400, pages that lose a place or repeat one, a burst of failures, an empty area, a tiny dense
 * area, a sparse one, malls (hundreds of places at one point: no split separates them), and views that
 * show a little less than their camera's box. Summed up apart (`extra`), against the promises: the
 * coverage figure at most 2 points above the recall, recall ≥ 0.99 at σ ≤ 0.1 where every place is
 * within some view's reach (`reach`: false where a view at the smallest cell still holds more than
 * the cap), nothing outside, and the run ends.
 *
 *   AREAS_EXTRA=1 AREAS_CASES=extra npm run bench -- areas-robust     the extra cases alone
 *   AREAS_EXTRA=1 AREAS_CASES='extra/mall' npm run bench -- areas-robust
 */
import type { MapSiteOptions, SiteView } from '../test/support/map-site.ts';

export interface ExtraCase { name: string; area: string; site: Omit<MapSiteOptions, 'area'>;
  /** False where places lie beyond every view's reach (more than the cap at the smallest cell). */
  reach?: false }

const deg = (v: SiteView) => v.box.n - v.box.s;
/** Fewer places a view the deeper it is (140 over half a degree, 100 over a tenth, 60 below), more
 *  (the other way round), or 60 to 140 in steps of 20 a zoom level. */
const fewerDeep = (v: SiteView) => (deg(v) > 0.5 ? 140 : deg(v) > 0.1 ? 100 : 60);
const moreDeep = (v: SiteView) => (deg(v) > 0.5 ? 60 : deg(v) > 0.1 ? 100 : 140);
const zoomSteps = (v: SiteView) => Math.round(60 + 20 * Math.min(4, Math.max(0, Math.log2(0.5 / deg(v)))));
const mall = (lat: number, lng: number, n = 300) => ({ lat, lng, n, km: 0 });
const base = { inside: 10_000, seed: 11, noise: 0.05 };

export const EXTRA_CASES: ExtraCase[] = [
  { name: 'plain', area: 'US>Colorado', site: base },
  { name: 'cap by zoom, fewer deep', area: 'US>Colorado', site: { ...base, cap: fewerDeep } },
  { name: 'cap by zoom, more deep', area: 'US>Colorado', site: { ...base, cap: moreDeep } },
  { name: 'cap by zoom, fewer deep, clustered', area: 'US>Utah', site: { ...base, seed: 12, noise: 0.1, layout: 'clustered', cap: fewerDeep } },
  { name: 'cap by zoom, steps, mix', area: 'FR>Brittany', site: { ...base, inside: 20_000, seed: 12, noise: 0.02, layout: 'mix', cap: zoomSteps } },
  { name: 'rank by centre', area: 'US>Colorado', site: { ...base, rankBy: 'centre' } },
  { name: 'rank by centre x3', area: 'US>Colorado', site: { ...base, rankBy: 'centre', rankBias: 3 } },
  { name: 'rank by centre x3, clustered', area: 'US>Utah', site: { ...base, seed: 12, noise: 0.1, layout: 'clustered', rankBy: 'centre', rankBias: 3 } },
  { name: 'rank by density', area: 'US>Colorado', site: { ...base, rankBy: 'dense' } },
  { name: 'rank by density, roads', area: 'US>Utah', site: { ...base, seed: 12, noise: 0.1, layout: 'roads', rankBy: 'dense' } },
  { name: 'rank by density x2, mix', area: 'FR>Brittany', site: { ...base, seed: 12, noise: 0.02, layout: 'mix', rankBy: 'dense', rankBias: 2 } },
  { name: 'cap 20', area: 'US>Colorado', site: { ...base, inside: 5000, cap: 20 } },
  { name: 'cap 20, page 10', area: 'US>Vermont', site: { ...base, inside: 5000, seed: 12, noise: 0.1, cap: 20, pageSize: 10 } },
  { name: 'cap 60, page 25', area: 'US>Colorado', site: { ...base, cap: 60, pageSize: 25 } },
  { name: 'cap 200', area: 'US>Colorado', site: { ...base, cap: 200 } },
  { name: 'cap 400', area: 'US>Colorado', site: { ...base, cap: 400 } },
  { name: 'cap 400, roads', area: 'US>Utah', site: { ...base, inside: 20_000, seed: 12, noise: 0.02, layout: 'roads', cap: 400 } },
  { name: 'pages drop a place 1%', area: 'US>Colorado', site: { ...base, dropShare: 0.01 } },
  { name: 'pages drop a place 5%', area: 'US>Colorado', site: { ...base, dropShare: 0.05 } },
  { name: 'pages drop a place 5%, clustered', area: 'US>Utah', site: { ...base, seed: 12, noise: 0.02, layout: 'clustered', dropShare: 0.05 } },
  { name: 'pages drop a place 15%', area: 'US>Colorado', site: { ...base, dropShare: 0.15 } },
  { name: 'pages repeat a place 5%', area: 'US>Colorado', site: { ...base, repeatShare: 0.05 } },
  { name: 'a burst of 60 failures', area: 'US>Colorado', site: { ...base, burst: { at: 300, length: 60 } } },
  { name: 'empty', area: 'US>Colorado', site: { places: 0, seed: 11, noise: 0.05 } },
  { name: 'sparse', area: 'US>Nevada', site: { inside: 300, seed: 11, noise: 0.05, layout: 'uniform' } },
  { name: 'tiny dense', area: 'US>Colorado', site: { places: 0, seed: 11, noise: 0.05, spots: [{ lat: 39.74, lng: -104.99, n: 2000, km: 0.15 }] }, reach: false },
  { name: 'tiny dense in 3000', area: 'US>Colorado', site: { ...base, inside: 3000, spots: [{ lat: 39.74, lng: -104.99, n: 2000, km: 0.15 }] }, reach: false },
  { name: 'a mall', area: 'US>Colorado', site: { ...base, spots: [mall(39.74, -104.99)] }, reach: false },
  { name: 'five malls', area: 'US>Colorado', site: { ...base, inside: 5000, spots: [mall(39.74, -104.99), mall(38.83, -104.82), mall(40.58, -105.08), mall(39.06, -108.55), mall(37.27, -107.88)] }, reach: false },
  { name: 'a mall, margin 10%', area: 'US>Colorado', site: { ...base, margin: 0.1, spots: [mall(39.74, -104.99)] }, reach: false },
  { name: 'views 0.5% short a side', area: 'US>Colorado', site: { ...base, margin: -0.005 } },
  { name: 'views 2% short a side', area: 'US>Colorado', site: { ...base, margin: -0.02 } },
];

/** The extra cases' summary: how far each promise held, and the cases that broke one. */
export function extraSummary(rows: Array<{ extra: string; noise: number; recall: number | null; coverage: number; outside: number; reach: boolean; requests_ratio: number | null }>) {
  const over = (r: typeof rows[number]) => Math.max(0, (r.coverage - (r.recall ?? 1)) * 100);
  const quiet = rows.filter((r) => r.noise <= 0.1 && r.reach);
  const broke = rows.filter((r) => over(r) > 2 || r.outside > 0 || (r.noise <= 0.1 && r.reach && (r.recall ?? 1) < 0.99));
  return {
    set: 'extra', cases: rows.length,
    worst_overclaim: Math.round(100 * Math.max(0, ...rows.map(over))) / 100,
    worst_recall_reachable: Math.min(1, ...quiet.map((r) => r.recall ?? 1)),
    outside: rows.reduce((a, r) => a + r.outside, 0),
    worst_requests_ratio: Math.max(0, ...rows.map((r) => r.requests_ratio ?? 0).filter(Number.isFinite)),
    broken: broke.map((r) => r.extra),
  };
}
