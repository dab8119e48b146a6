/**
 * The loopback map site's variants behave as declared: a view never shows more than its cap (a
 * number, by region, or changing during a run), each layout lays places out as it says, and the
 * oracle costs no more than any planner that finds every place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapSite, type MapSite, type MapSiteOptions, type SiteView } from './map-site.ts';
import { ROAD_WIDTH_KM, geoPlaces } from './map-layouts.ts';
import { buildPb } from '../../src/sources/_maps/pb.ts';
import { quadrants, type Box } from '../../src/sources/_maps/cells.ts';
import { resolveArea } from '../../src/lookups/geo/area/resolve.ts';
import { rootViews } from '../../src/sources/maps-search/cover.ts';
import { cityRadiusKm } from '../../src/lookups/geo/area/resolve.ts';
import { rng } from '../../src/sources/_maps/test-support.ts';

const area = resolveArea('-115.5,35.9,-114.9,36.4'); // a box around Las Vegas
const roots = rootViews(area);
const byRegion = (v: SiteView) => (v.lng < -115.2 ? 90 : 140);

/** The ids a page shows. */
function page(site: MapSite, view: Box, offset: number): number[] {
  const body = site.serve(`http://x/search?q=a&pb=${encodeURIComponent(buildPb(view, offset))}`).body;
  return [...body.matchAll(/"0x1:0x([0-9a-f]+)"/g)].map((m) => parseInt(m[1]!, 16));
}

/** Every view the quadtree holds down to `depth` below the root views. */
function views(depth: number): Box[] {
  let level = roots, out = [...roots];
  for (let d = 0; d < depth; d++) { level = level.flatMap((b) => quadrants(b)); out = out.concat(level); }
  return out;
}

const held = (site: MapSite, v: Box) => { let n = 0; for (let i = 0; i < site.count; i++) if (site.lat[i]! >= v.s && site.lat[i]! < v.n && site.lng[i]! >= v.w && site.lng[i]! < v.e) n++; return n; };

test('a view never shows more than its cap, and shows its cap when it holds more', () => {
  for (const cap of [60, 110, 140, byRegion]) {
    for (const noise of [0, 0.3]) {
      const site = mapSite({ area, places: 6000, seed: 2, layout: 'uniform', cap, noise });
      let saturated = 0;
      for (const v of views(2)) {
        const c = typeof cap === 'number' ? cap : cap({ box: v, lat: (v.s + v.n) / 2, lng: (v.w + v.e) / 2, request: 0 });
        const pages = Array.from({ length: 9 }, (_, k) => page(site, v, k * 20));
        const shown = pages.reduce((a, p) => a + p.length, 0);
        const n = held(site, v);
        // The view's box is its cell up to the pb's rounding: a place or two on the edge may differ.
        assert.ok(shown <= c, `cap ${c}: ${shown} shown`);
        if (n > c + 5) { saturated++; assert.equal(shown, c, `cap ${c}, ${n} held`); }
        else assert.ok(Math.abs(shown - n) <= 3, `${shown} shown of ${n} held`);
        if (noise === 0) assert.equal(new Set(pages.flat()).size, shown, 'a fixed ranking shows each place once');
      }
      assert.ok(saturated > 3, `${saturated} saturated views`);
    }
  }
});

test('a cap that changes mid-run: each request gets the cap of its time; the oracle counts the lower', () => {
  const K = 30;
  const changing = (v: SiteView) => (v.request < K ? 120 : 100);
  const site = mapSite({ area, places: 6000, seed: 2, cap: changing, noise: 0 });
  const v = roots[0]!;
  const shown = () => Array.from({ length: 8 }, (_, k) => page(site, v, k * 20).length).reduce((a, c) => a + c, 0);
  assert.equal(shown(), 120);
  site.requests = K;
  assert.equal(shown(), 100);
  assert.equal(site.oracle(roots), mapSite({ area, places: 6000, seed: 2, cap: 100 }).oracle(roots));
  assert.ok(site.oracle(roots) > mapSite({ area, places: 6000, seed: 2 }).oracle(roots), 'a lower cap costs the oracle more');
});

const kmBetween = (a: [number, number], b: [number, number]) => {
  const dy = (a[0] - b[0]) * 111.32, dx = (a[1] - b[1]) * 111.32 * Math.cos((a[0] * Math.PI) / 180);
  return Math.hypot(dx, dy);
};
/** Distance (km) from p to the segment a-b, on a local flat plane. */
function kmToSegment(p: [number, number], a: [number, number], b: [number, number]): number {
  const k = Math.cos((p[0] * Math.PI) / 180);
  const ax = (a[1] - p[1]) * k, ay = a[0] - p[0], bx = (b[1] - p[1]) * k, by = b[0] - p[0];
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(ax + t * dx, ay + t * dy) * 111.32;
}

/** Shares of a site's places near a cluster centre (3 sigma), a road (4 widths), a GeoNames place (1.5 radii). */
function shares(site: MapSite, shape = site.shape, sample = 1500) {
  const P = geoPlaces();
  const pick = rng(9);
  let centre = 0, road = 0, city = 0;
  for (let s = 0; s < sample; s++) {
    const i = Math.floor(pick() * site.count);
    const p: [number, number] = [site.lat[i]!, site.lng[i]!];
    if (shape.centres.some((c) => kmBetween(p, [c.lat, c.lng]) <= 3 * c.km)) centre++;
    if (shape.roads.some((l) => l.some((a, k) => k > 0 && kmToSegment(p, l[k - 1]!, a) <= 4 * ROAD_WIDTH_KM))) road++;
    const near = P.index.range(p[1] - 0.5, p[0] - 0.4, p[1] + 0.5, p[0] + 0.4);
    if (near.some((id) => kmBetween(p, [P.lat[id]!, P.lng[id]!]) <= 1.5 * cityRadiusKm(P.population[id]!))) city++;
  }
  return { centre: centre / sample, road: road / sample, city: city / sample };
}

test('each layout lays places out as declared', () => {
  const make = (layout: MapSiteOptions['layout']) => mapSite({ area, places: 8000, seed: 4, layout });
  // Uniform: a 4x4 grid over the field holds about the same in every cell.
  const u = make('uniform');
  const b = area.bbox, grid = new Array(16).fill(0);
  // The field is the area's box grown 10% on each side.
  const cell = (x: number, lo: number, hi: number) => Math.min(3, Math.floor((((x - lo) / (hi - lo) + 0.1) / 1.2) * 4));
  for (let i = 0; i < u.count; i++) grid[cell(u.lat[i]!, b.s, b.n) * 4 + cell(u.lng[i]!, b.w, b.e)]++;
  const mean = u.count / 16;
  assert.ok(grid.every((c) => Math.abs(c - mean) < 0.3 * mean), `uniform grid ${grid}`);

  const population = make('population'), clustered = make('clustered'), roads = make('roads'), mix = make('mix');
  const sh = { population: shares(population), clustered: shares(clustered), roads: shares(roads), mix: shares(mix) };
  // The uniform site's places measured against each other layout's centres and roads: what chance gives.
  const chance = { clustered: shares(u, clustered.shape), roads: shares(u, roads.shape), mix: shares(u, mix.shape) };
  const all = JSON.stringify({ sh, chance });
  // Each layout's places lie where it says (its rural 15% anywhere), far more than chance puts there.
  assert.ok(sh.population.city >= 0.8 && sh.population.city > chance.clustered.city + 0.4, all);
  assert.ok(sh.clustered.centre >= 0.8 && sh.clustered.centre > chance.clustered.centre + 0.5, all);
  assert.ok(sh.roads.road >= 0.8 && sh.roads.road > chance.roads.road + 0.5, all);
  // Clusters and roads do not follow cities: no nearer them than chance, give or take.
  assert.ok(sh.clustered.city < chance.clustered.city + 0.15 && sh.roads.city < chance.roads.city + 0.15, all);
  // The mix holds some of each (weights 0.4, 0.25, 0.2, 0.15, each but uniform with its rural share).
  assert.ok(sh.mix.centre > chance.mix.centre + 0.1 && sh.mix.road > chance.mix.road + 0.1 && sh.mix.city > chance.mix.city + 0.2, all);
});

/**
 * A planner that knows each view's cap and finds every place: pages a view until a short page and
 * splits it when its pages reach the cap; `extra` splits a view that was not full at random.
 */
function completePlanner(site: MapSite, capOf: (v: Box) => number, extra: number, seed: number) {
  const r = rng(seed);
  const found = new Set<number>();
  let cost = 0;
  const visit = (v: Box, depth: number) => {
    if (!area.meets(v)) return;
    if (depth < 6 && r() < extra) { for (const q of quadrants(v)) visit(q, depth + 1); return; }
    const ids: number[] = [];
    for (let off = 0; ; off += 20) {
      const p = page(site, v, off);
      cost++;
      ids.push(...p);
      if (p.length < 20 || off + 20 >= capOf(v)) break;
    }
    if (ids.length >= capOf(v) && depth < 20) { for (const q of quadrants(v)) visit(q, depth + 1); return; }
    for (const i of ids) if (site.inside[i]) found.add(i);
  };
  for (const v of roots) visit(v, 0);
  return { cost, recall: found.size / site.insideCount };
}

test('the oracle costs no more than any planner that finds every place', () => {
  for (const cap of [60, 110, 140, byRegion]) {
    const capOf = (v: Box) => (typeof cap === 'number' ? cap : cap({ box: v, lat: (v.s + v.n) / 2, lng: (v.w + v.e) / 2, request: 0 }));
    for (const layout of ['clustered', 'roads'] as const) {
      const site = mapSite({ area, places: 4000, seed: 6, layout, cap, noise: 0 });
      const oracle = site.oracle(roots);
      for (const [extra, seed] of [[0, 1], [0.2, 2], [0.5, 3]] as const) {
        const { cost, recall } = completePlanner(site, capOf, extra, seed);
        assert.ok(recall > 0.998, `${layout} cap ${capOf(roots[0]!)}: recall ${recall}`);
        assert.ok(cost >= oracle, `${layout}: planner ${cost} < oracle ${oracle}`);
      }
    }
  }
});

test('the oracle\'s views are what it pays for, and a page by ids is the page served', () => {
  const site = mapSite({ area, places: 6000, seed: 3, noise: 0 });
  const { views: vs, empty } = site.oracleViews(roots);
  assert.equal(vs.reduce((a, v) => a + Math.ceil(v.ids.length / 20), 0), site.oracle(roots));
  const paged = vs.reduce((a, v) => a + (v.ids.length < 20 ? 1 : Math.floor((v.ids.length - 20) / 18) + 2), 0);
  assert.equal(paged + empty, site.oracle(roots, { step: 18 }));
  for (const v of vs) assert.ok(v.ids.length <= 120, 'an oracle view holds at most the cap');
  const big = vs.reduce((a, v) => (v.ids.length > a.ids.length ? v : a));
  const before = site.requests;
  assert.deepEqual(site.pageIds(big.box, 20), page(site, big.box, 20), 'without noise the same places, in the same order');
  assert.equal(site.requests, before + 2, 'each counts as a request');
});

test('on a site whose views show past their edges, the oracle\'s views paged as it pays find every place of the area', () => {
  // The places around a view's edges rank among its own and count against its cap: an oracle that
  // counted the cell's places alone (before session 17) paid for views the site capped.
  const site = mapSite({ area, places: 6000, seed: 3, noise: 0, margin: 0.1 });
  const { views: vs } = site.oracleViews(roots);
  const found = new Set<number>();
  let pages = 0;
  for (const v of vs) {
    assert.ok(v.ids.length <= 120, 'an oracle view holds at most the cap');
    for (let offset = 0; offset < v.ids.length; offset += 20, pages++) for (const i of site.pageIds(v.box, offset)) found.add(i);
  }
  assert.equal(pages, site.oracle(roots));
  let inside = 0;
  for (const i of found) inside += site.inside[i];
  assert.equal(inside, site.insideCount, 'every place of the area found');
  assert.ok(site.oracle(roots) > mapSite({ area, places: 6000, seed: 3, noise: 0 }).oracle(roots), 'the margin costs the oracle pages');
});

test('paired noise: a request\'s ranking is drawn from its view and offset, whatever was asked before it', () => {
  const still = mapSite({ area, places: 6000, seed: 3, noise: 0 });
  const big = roots.reduce((a, b) => (held(still, b) > held(still, a) ? b : a));
  const pages = (first: Box[], pairedNoise = true) => {
    const site = mapSite({ area, places: 6000, seed: 3, noise: 0.1, pairedNoise });
    for (const v of first) page(site, v, 0);
    return [page(site, big, 0), page(site, big, 18), page(site, big, 54)];
  };
  // Other requests before it (another planner's) leave the same view's pages as they were.
  assert.deepEqual(pages([]), pages(quadrants(big)));
  // The noise is there: the deep pages are not the fixed ranking's.
  assert.notDeepEqual(pages([])[2], page(still, big, 54));
  // One stream (the default): the same pages differ once other requests came first.
  assert.notDeepEqual(pages([], false), pages(quadrants(big), false));
});

test('the behaviours areas-extra adds: places at one point, a ranking by place, pages a place short or repeating one, a burst of failures, no place at all', () => {
  const root = roots[0]!;
  const c = { lat: (root.s + root.n) / 2, lng: (root.w + root.e) / 2 };
  const mall = mapSite({ area, places: 0, seed: 2, spots: [{ ...c, n: 300, km: 0 }] });
  assert.equal(mall.count, 300);
  assert.ok(Array.from(mall.lat).every((y) => y === c.lat) && Array.from(mall.lng).every((x) => x === c.lng), 'all at the point');
  assert.equal(mall.insideCount, 300);
  // By centre: a view's first page holds places nearer its centre than its places on average.
  const dist = (s: MapSite, i: number) => Math.hypot(s.lat[i]! - c.lat, s.lng[i]! - c.lng);
  const mean = (s: MapSite, ids: number[]) => ids.reduce((a, i) => a + dist(s, i), 0) / ids.length;
  const plain = mapSite({ area, places: 6000, seed: 2, layout: 'uniform' }), centred = mapSite({ area, places: 6000, seed: 2, layout: 'uniform', rankBy: 'centre', rankBias: 3 });
  assert.ok(mean(centred, page(centred, root, 0)) < 0.6 * mean(plain, page(plain, root, 0)), 'the centre ranks first');
  // A share of pages a place short, a share repeating a place of the page before.
  const short = mapSite({ area, places: 6000, seed: 2, dropShare: 0.5 });
  const lengths = Array.from({ length: 40 }, () => page(short, root, 20).length);
  assert.ok(lengths.every((n) => n === 19 || n === 20) && lengths.filter((n) => n === 19).length > 10, lengths.join());
  const again = mapSite({ area, places: 6000, seed: 2, noise: 0, repeatShare: 1 });
  const first = page(again, root, 0);
  assert.equal(page(again, root, 20).filter((i) => first.includes(i)).length, 1, 'one place of the page before');
  // A burst: the requests in its stretch fail, those around it do not.
  const burst = mapSite({ area, places: 6000, seed: 2, burst: { at: 2, length: 3 } });
  const statuses = Array.from({ length: 7 }, () => burst.serve(`http://x/search?q=a&pb=${encodeURIComponent(buildPb(root, 0))}`).status);
  assert.deepEqual(statuses.map((s) => s === 200), [true, true, false, false, false, true, true]);
  const empty = mapSite({ area, places: 0, seed: 2 });
  assert.equal(empty.insideCount, 0);
  assert.deepEqual(page(empty, root, 0), []);
  assert.equal(empty.oracle(roots), 0);
});
