/**
 * Covering an area (cover.ts) through the real adapter's plan/parse/finish against the loopback map
 * site (test/support/map-site.ts): places by population density, 120 a view, 20 a page, ranking noise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapter } from './adapter.ts';
import { placeKey } from './finish.ts';
import { rootViews, setDecisionLens, type LensEvent } from './cover.ts';
import { populationReady } from './density.ts';
import { resolveArea } from '../../lookups/geo/area/resolve.ts';
import type { MapsSearchParams } from '../_maps/params.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import type { Step } from '../_kit/adapter.ts';
import { readPb } from '../_maps/pb.ts';
import { mapSite } from '../../../test/support/map-site.ts';

const AREA = '-115.5,35.9,-114.9,36.4'; // a box around Las Vegas
const area = resolveArea(AREA);
const site = mapSite({ area, places: 6000, seed: 3 });
// The density prior's population (read in the background in the service) is read before the runs.
await populationReady();

function run(params: MapsSearchParams, crashEvery = 0, on: { serve(url: string): { status: number; body: string } } = site) {
  const ctx = { query: 'dentist', params: { area: AREA, ...params } };
  let queue: Step[] = adapter.plan(ctx);
  const records: PlaceRecord[] = [];
  let summary: Record<string, unknown> | undefined;
  let steps = 0;
  const asked = new Set<string>();
  let twice = 0;
  while (queue.length) {
    const step = queue.shift()!;
    if (asked.has(step.url)) twice++;
    asked.add(step.url);
    const res = on.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    queue.push(...(out.next ?? []));
    // A resume reads the pending steps back from the store's JSON.
    if (crashEvery && ++steps % crashEvery === 0) queue = JSON.parse(JSON.stringify(queue));
  }
  return { records: adapter.finish!(records, ctx), raw: records.length, summary: summary!, twice };
}

test('an area is covered: nearly every place inside found once, none outside, coverage stated', () => {
  const before = site.requests;
  const { records, summary } = run({});
  const requests = site.requests - before;
  const keys = records.map(placeKey);
  assert.equal(new Set(keys).size, keys.length, 'no place twice');
  const ids = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16));
  assert.equal(ids.filter((i) => !site.inside[i]).length, 0, 'no place outside the area');
  const recall = ids.length / site.insideCount;
  assert.ok(site.insideCount > 1000, `${site.insideCount} places inside`);
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.ok(records.length > 500, 'no 500 cap for an area');
  const oracle = site.oracle(rootViews(area));
  assert.ok(requests <= 1.25 * oracle, `${requests} requests, oracle ${oracle}`);
  assert.equal(summary.requests, requests);
  assert.equal(summary.places_found, records.length, 'the figure counts the places of the area returned');
  // The density prior splits the dense cells without searching them.
  assert.ok(Number(summary.views_searched) > 10 && Number(summary.views_split_unsearched) > 10);
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.01, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('limit bounds the places of the area; the state survives a JSON round trip at every step', () => {
  const { records } = run({ limit: 700 });
  assert.equal(records.length, 700);
  const a = run({}, 1).records.map(placeKey).sort();
  assert.ok(a.length > 700 && new Set(a).size === a.length);
});

test('a noisier ranking: views that missed places ask again across their page boundaries, and the coverage figure follows the misses', () => {
  // Five times the noise: with the fixed two-place overlap 95% of the places were found, with the
  // overlap that grows with the misses 97%; with the overlap that grows with a page's depth (noise.ts),
  // asking again where a view's count says places are missing finds the rest.
  const noisy = mapSite({ area, places: 6000, seed: 3, noise: 0.1 });
  const { records, summary, twice } = run({}, 0, noisy);
  const recall = records.length / noisy.insideCount;
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.equal(twice, 0, 'no URL asked twice');
  // Where ranks move, cells are split unsearched below the usual share of the cap (smaller views miss
  // fewer) and deep pages overlap more: 1.63x the oracle with neither, 1.49x with the smaller views,
  // 1.37x with both (session 16).
  const ratio = noisy.requests / noisy.oracle(rootViews(area));
  assert.ok(ratio <= 1.45, `requests ${ratio}x the oracle's`);
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.01, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('ranks moving 30% of themselves (above the repair threshold): a view whose probe was unclear does not ask its pages again to check its cap, and its probe counts as clean', () => {
  // Nothing is asked again for misses there, so most probes show a new place or two the view's own
  // misses explain; asking pages again to tell cost about 4 requests a view, 1 in 40 of them capped
  // (areas-robust, session 25). Such a view stays kept for a later proof at its count to reopen.
  // The old rule asked 10 such pages here (recall 0.960, 472 requests; now 0.951, 459).
  const noisy = mapSite({ area, places: 6000, seed: 3, noise: 0.3, pairedNoise: true });
  const ctx = { query: 'dentist', params: { area: AREA } };
  let queue: Step[] = adapter.plan(ctx);
  const records: PlaceRecord[] = [];
  let summary: Record<string, unknown> = {};
  let checks = 0;
  while (queue.length) {
    const step = queue.shift()!;
    const v = (step.state as { view?: { fix?: unknown; amb?: boolean } } | undefined)?.view;
    if (v?.fix && v.amb) checks++;
    const res = noisy.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    queue = queue.concat(out.next ?? []);
  }
  assert.equal(checks, 0, 'pages asked again to check a cap');
  // Such probes count toward the clean ones that end the probing of every high view: 6 probes (11
  // while only a probe showing nothing new counted).
  assert.ok(Number(summary.views_probed) <= 8, `${summary.views_probed} probes`);
  const recall = adapter.finish!(records, ctx).length / noisy.insideCount;
  assert.ok(recall >= 0.94, `recall ${recall}`);
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.005, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('views that also show places past their edges: only the cell\'s share of a view\'s misses counts as missed', (t) => {
  // A view showing 10% past each edge holds its neighbours' places too (about a third of what it
  // shows): its pages miss those as often, but its neighbours' views show them. Counting all of a
  // view's misses as its cell's put the figure below the recall and asked pages again for places
  // other views find (session 17: on the tuned margin case, error 0.31 -> 0.08 points).
  const wide = mapSite({ area, places: 6000, seed: 3, noise: 0.05, margin: 0.1 });
  const { records, summary, twice } = run({}, 0, wide);
  const m = measured(wide, summary, records, wide.requests);
  t.diagnostic(JSON.stringify(m));
  assert.equal(twice, 0, 'no URL asked twice');
  assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
  // All of a view's misses counted as its cell's: the figure 0.12 points under the recall, 1.96x the
  // oracle's requests; the cell's share: 0.05 points, 1.90x (an oracle counting the cell's places
  // alone; since session 17 its views count what they show past their edges too: 1.30x).
  assert.ok(Math.abs(m.coverage - m.recall) <= 0.001, `coverage ${m.coverage} vs recall ${m.recall}`);
  assert.ok(m.ratio <= 1.35, `requests ${m.ratio}x the oracle's`);
});

test('a view whose probe passed within its noise is split when its count is later proven the cap', (t) => {
  // Nevada with views showing 10% past their edges, σ 0.05, another draw of the noise (session 23):
  // the first two roots stopped at 120 and their probes showed 2 and 1 new places, no more than the
  // noise allowed each; the third proved 120 the cap. Kept apart from the unchecked views, the two were
  // never split: recall 0.969 under a figure of 0.992. Kept with them, they are reopened by the proof.
  const nv = resolveArea('US>Nevada');
  const s = mapSite({ area: nv, inside: 10_000, seed: 1, layout: 'population', cap: 120, noise: 0.05, margin: 0.1, noiseDraw: 1 });
  const { records, summary } = run({ area: 'US>Nevada' }, 0, s);
  const m = measured(s, summary, records, s.requests, nv);
  t.diagnostic(JSON.stringify(m));
  assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
  assert.ok(Math.abs(m.coverage - m.recall) <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
});

// ---- The view cap is learned (viewcap.ts): sites that show another number of places a view ----

/** Recall of a run on `on` (its truth), requests against the oracle's over `of`, and the coverage figure. */
function measured(on: ReturnType<typeof mapSite>, summary: Record<string, unknown>, records: PlaceRecord[], requests: number, of = area) {
  const ids = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16));
  assert.equal(ids.filter((i) => !on.inside[i]).length, 0, 'no place outside the area');
  return { recall: ids.length / on.insideCount, ratio: requests / on.oracle(rootViews(of)), coverage: Number(summary.coverage) };
}

for (const cap of [110, 60]) {
  test(`a site that shows ${cap} places a view: the cap is learned, recall >= 0.99, coverage within 2 points`, (t) => {
    const other = mapSite({ area, places: 6000, seed: 3, cap });
    const { records, summary, twice } = run({}, 0, other);
    const m = measured(other, summary, records, other.requests);
    t.diagnostic(JSON.stringify({ cap, ...m, probed: summary.views_probed }));
    // A probe's page is its sub-cell's first page: kept, never asked again when the split searches it.
    assert.equal(twice, 0, 'no URL asked twice');
    assert.equal(summary.view_cap, cap);
    assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
    assert.ok(Math.abs(m.coverage - m.recall) <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
    assert.ok(m.ratio <= 1.25, `requests ${m.ratio}x the oracle's`);
  });
}

test('a probe whose page is full of places the view showed tells nothing: a deeper sub-cell is asked (a root view of a state capped at 60)', (t) => {
  // Places along roads, 60 a view: the first root view over Nevada shows 60 of its 19,000 places, and
  // the sub-cell holding 19 of them (the most below a page) shows them and one more it showed past
  // the sub-cell's edge: a full page with nothing new. Read as complete, 40% of the area was lost
  // with a coverage figure of 0.998.
  const nevada = resolveArea('US>Nevada');
  const roads = mapSite({ area: nevada, inside: 20_000, seed: 1, layout: 'roads', cap: 60, noise: 0.02 });
  const { records, summary } = run({ area: 'US>Nevada' }, 0, roads);
  const ids = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16));
  const recall = ids.filter((i) => roads.inside[i]).length / roads.insideCount;
  t.diagnostic(JSON.stringify({ recall, coverage: summary.coverage, requests: summary.requests, oracle: roads.oracle(rootViews(nevada)) }));
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.ok(Math.abs(Number(summary.coverage) - recall) <= 0.02, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('a cap that changes mid-run (120, then 100) and one that differs by region (100 west, 140 east)', (t) => {
  // Two sites over the same places (same seed), answering with different caps.
  const at120 = mapSite({ area, places: 6000, seed: 3 });
  const at100 = mapSite({ area, places: 6000, seed: 3, cap: 100 });
  const at140 = mapSite({ area, places: 6000, seed: 3, cap: 140 });
  let served = 0;
  const changing = { serve: (url: string) => (++served <= 60 ? at120 : at100).serve(url) };
  const a = run({}, 0, changing);
  const ma = measured(at100, a.summary, a.records, served);
  t.diagnostic(JSON.stringify({ changing: ma, probed: a.summary.views_probed, reason: a.summary.coverage_reason }));
  assert.ok(ma.recall >= 0.99, `recall ${ma.recall}`);
  assert.ok(ma.coverage - ma.recall <= 0.02, `coverage ${ma.coverage} vs recall ${ma.recall}`);
  const west = (url: string) => readPb(new URL(url).searchParams.get('pb')!)!.lng < -115.2;
  const byRegion = { serve: (url: string) => (west(url) ? at100 : at140).serve(url) };
  const r0 = at100.requests + at140.requests;
  const b = run({}, 0, byRegion);
  const mb = measured(at100, b.summary, b.records, at100.requests + at140.requests - r0);
  t.diagnostic(JSON.stringify({ byRegion: mb, probed: b.summary.views_probed, reason: b.summary.coverage_reason }));
  assert.ok(mb.recall >= 0.99, `recall ${mb.recall}`);
  assert.ok(mb.coverage - mb.recall <= 0.02, `coverage ${mb.coverage} vs recall ${mb.recall}`);
  assert.match(String(b.summary.coverage_reason), /view cap varied/);
});

// A cap by band, the first band searched not the lowest: a quadrant of a view capped at 130 that
// stops at 90 was read as complete (recall 0.92, coverage 0.99 on population; 0.83 and 0.99 on a
// clustered site, where the probe's sub-cell held two known places). Built as the class,
// not tuned on areas-robust's cases.
for (const [layout, caps] of [['population', [90, 130, 110]], ['clustered', [140, 100, 120]]] as const) {
  test(`a cap by band (${caps.join('/')}, ${layout}): no band read as complete at its cap, coverage within 2 points`, (t) => {
    const capAt = (lng: number) => (lng < -115.3 ? caps[0] : lng < -115.1 ? caps[1] : caps[2]);
    const banded = mapSite({ area, places: 6000, seed: 3, layout, noise: 0.05, cap: (v) => capAt(v.lng) });
    const { records, summary } = run({}, 0, banded);
    const m = measured(banded, summary, records, banded.requests);
    t.diagnostic(JSON.stringify({ ...m, probed: summary.views_probed, reason: summary.coverage_reason }));
    assert.ok(m.recall >= 0.96, `recall ${m.recall}`);
    assert.ok(Math.abs(m.coverage - m.recall) <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
  });
}

test('places in clusters unrelated to population: cells are split by what the views showed once it predicts better than the prior', (t) => {
  // The density prior alone (population and ground) paid 2.03x the oracle here; the views' own
  // evidence (a saturated view's sample share x its siblings' rate), chosen once it predicted the
  // counted views better, paid 1.58x (1.47x by session 15; 1.31x since a quadrant of a searched
  // saturated view starts past the places it showed there). On the population site the prior stays.
  const clustered = mapSite({ area, places: 6000, seed: 3, layout: 'clustered' });
  const { records, summary } = run({}, 0, clustered);
  const m = measured(clustered, summary, records, clustered.requests);
  t.diagnostic(JSON.stringify(m));
  assert.ok(m.recall >= 0.98, `recall ${m.recall}`);
  assert.ok(Math.abs(m.coverage - m.recall) <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
  assert.ok(m.ratio <= 1.75, `requests ${m.ratio}x the oracle's`);
});

test('a small town whose views never saturate: no request beyond its pages and the few that check the cap', () => {
  const TOWN = '-114.9,39.23,-114.85,39.27'; // around Ely, Nevada
  const town = resolveArea(TOWN);
  const few = mapSite({ area: town, places: 90, seed: 4 });
  const ctx = { query: 'dentist', params: { area: TOWN } };
  let queue: Step[] = adapter.plan(ctx);
  let summary: Record<string, unknown> = {};
  const records: PlaceRecord[] = [];
  while (queue.length) {
    const step = queue.shift()!;
    const res = few.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    queue = queue.concat(out.next ?? []);
  }
  // Ranking noise may keep a place off every page of a view (the figure counts it as not found).
  const found = adapter.finish!(records, ctx).length;
  assert.ok(found >= few.insideCount - 1, `${found} of ${few.insideCount}`);
  assert.ok(Math.abs(Number(summary.coverage) - found / few.insideCount) <= 0.02);
  assert.equal(summary.views_saturated, 0);
  assert.equal(summary.views_split_unsearched, 0);
  assert.equal(summary.view_cap, null, 'no view proved a cap');
  // Each root view's pages (18 new places a page after the first's 20), plus at most 3 probes.
  const pages = rootViews(town).reduce((n, v) => {
    const k = [...Array(few.count).keys()].filter((i) => few.lat[i]! >= v.s && few.lat[i]! < v.n && few.lng[i]! >= v.w && few.lng[i]! < v.e).length;
    return n + (k < 20 ? 1 : 1 + Math.ceil((k - 19) / 18));
  }, 0);
  assert.ok(Number(summary.views_probed) <= 3, `${summary.views_probed} probes`);
  assert.ok(few.requests <= pages + Number(summary.views_probed), `${few.requests} requests, ${pages} pages`);
});

// ---- A cell's first ranks are known (known.ts): its saturated ancestor showed them ----

/** A site that records the offset of each view's first page (views by their camera). */
function firstOffsets(on: ReturnType<typeof mapSite>) {
  const first = new Map<string, number>();
  return {
    first,
    serve(url: string) {
      const v = readPb(new URL(url).searchParams.get('pb')!)!;
      const key = `${v.lat},${v.lng},${v.altitude}`;
      if (!first.has(key)) first.set(key, v.offset);
      return on.serve(url);
    },
  };
}

test('a quadrant of a saturated view starts past the places that view showed in it, and its count stays whole', (t) => {
  // Clustered: the density prior does not know where the places are, so views are searched saturated.
  const at = mapSite({ area, places: 6000, seed: 3, layout: 'clustered' });
  const on = firstOffsets(at);
  const { records, summary, twice } = run({}, 0, on);
  const m = measured(at, summary, records, at.requests);
  const past = [...on.first.values()].filter((o) => o > 0).length;
  t.diagnostic(JSON.stringify({ ...m, views: on.first.size, past }));
  assert.ok(past >= 5, `${past} of ${on.first.size} views started past their first page`);
  assert.equal(twice, 0, 'no URL asked twice');
  assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
  assert.ok(Math.abs(m.coverage - m.recall) < 0.01, `coverage ${m.coverage} vs recall ${m.recall}`);
});

test('a cap that falls below half the known one: views stopping at one count again are probed, not read as complete', () => {
  // 120 a view for the first 40 requests (three proofs make it known), then 40: every view stops at
  // 40, below half the known cap, where views were accepted unchecked (recall 0.805, figure 0.9987).
  const at120 = mapSite({ area, places: 6000, seed: 3 });
  const at40 = mapSite({ area, places: 6000, seed: 3, cap: 40 });
  let served = 0;
  const { records, summary, twice } = run({}, 0, { serve: (url: string) => (++served <= 40 ? at120 : at40).serve(url) });
  const m = measured(at40, summary, records, served);
  assert.equal(twice, 0, 'no URL asked twice');
  assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
  assert.ok(Math.abs(m.coverage - m.recall) <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
});

test('a cap that falls below the places known in a cell: its page past them comes back empty and its first page is asked', (t) => {
  // 120 a view for the first 30 requests, then 40: a quadrant of a view saturated at 120 knows more
  // of its places than it now shows. (Where the cap falls decides whether a cell past known places is
  // searched just then: 40 did before the overlap grew with depth, 50 and 60 did since, session 16;
  // with the wider overlap where pages are asked again, session 17, 50 does and 55-70 do not; with the
  // split bet paging each side from where it starts, session 25, 30 does, 40 and 50-80 do not, and
  // at 45 the first page asked after the empty one had been asked before, as on main at 30.)
  const at120 = mapSite({ area, places: 6000, seed: 3 });
  const at40 = mapSite({ area, places: 6000, seed: 3, cap: 40 });
  let served = 0;
  const empty: string[] = [];
  const changing = {
    serve: (url: string) => {
      const res = (++served <= 30 ? at120 : at40).serve(url);
      const v = readPb(new URL(url).searchParams.get('pb')!)!;
      if (served > 30 && v.offset > 40 && !res.body.includes('0x')) empty.push(url);
      return res;
    },
  };
  const { records, summary, twice } = run({}, 0, changing);
  const m = measured(at40, summary, records, served);
  t.diagnostic(JSON.stringify({ ...m, empty: empty.length, reason: summary.coverage_reason }));
  assert.ok(empty.length >= 1, 'a page past the known places came back empty');
  assert.equal(twice, 0, 'no URL asked twice');
  assert.ok(m.recall >= 0.99, `recall ${m.recall}`);
  assert.ok(m.coverage - m.recall <= 0.02, `coverage ${m.coverage} vs recall ${m.recall}`);
});

test('the decision lens (a bench\'s) sees each split-or-search decision below a root with its bet, and changes nothing', () => {
  // Two sites drawn alike (the ranking noise is drawn per request): one run without the lens, one with.
  const plain = mapSite({ area, places: 6000, seed: 3, layout: 'clustered' });
  const seen = mapSite({ area, places: 6000, seed: 3, layout: 'clustered' });
  run({}, 0, plain);
  const events: LensEvent[] = [];
  setDecisionLens((e) => events.push(e));
  try { run({}, 0, seen); } finally { setDecisionLens(undefined); }
  assert.equal(seen.requests, plain.requests, 'the same requests with the lens on');
  const decided = events.filter((e) => e.kind === 'decide');
  assert.ok(decided.length >= 10, `${decided.length} decisions`);
  assert.ok(decided.some((e) => e.split) && decided.some((e) => !e.split), 'both choices seen');
  for (const e of decided) {
    // A saturated search can waste nothing: a cell paged from past its known ranks, whose quadrants
    // skip as many pages of the ranks it shows (split.ts savedBelow).
    assert.ok(e.p >= 0 && e.p <= 1 && e.waste >= 0 && e.excess >= 0, JSON.stringify(e));
    // The choice is the bet's: split when P x the saturated pages beat (1 - P) x the excess.
    assert.equal(e.split, e.p * e.waste > (1 - e.p) * e.excess, JSON.stringify(e));
    // Which of its quadrants meet the area's shape (only those are searched once it is split).
    assert.ok(e.on?.length === 4 && e.on.some(Boolean), JSON.stringify(e));
  }
  // Cells on the area's edge have quadrants off its shape (a split's pages are only theirs on it).
  assert.ok(decided.some((e) => e.on!.some((o) => !o)), 'a quadrant off the shape');
  // Each decision's group was announced by the split that made it.
  const groups = new Set(events.flatMap((e) => (e.kind === 'group' ? [e.g] : [])));
  assert.ok(decided.every((e) => groups.has(e.g)));
});

test('a site of 10 a page at a cap of 110 (coast, σ 0.05, 2% failures): a view stopping at a count found capped before is not cleared by a probe too weak to tell', (t) => {
  // The bench's held-out "page 10, fail 2%, coast" case on paired noise: the pages miss a tenth of a
  // view's places, so the first two views capped at 110 proved nothing (their new places within
  // their own misses) and the third, 215 places stopping at 110, was cleared by a probe of a sub-cell
  // of 2 known places: recall 0.974 with a figure of 0.995.
  const coast = mapSite({ area: resolveArea('US>Oregon'), inside: 5000, seed: 6, layout: 'coast', cap: 110, noise: 0.05, pageSize: 10, fail: 0.02, pairedNoise: true });
  // A 429 or 503 is asked again, as the executor retries it.
  const retried = { serve(url: string) {
    let res = coast.serve(url);
    for (let k = 0; k < 5 && res.status !== 200; k++) res = coast.serve(url);
    return res;
  } };
  const { records, summary } = run({ area: 'US>Oregon' }, 0, retried);
  const found = new Set(records.map(placeKey));
  const recall = found.size / coast.insideCount, coverage = Number(summary.coverage);
  t.diagnostic(JSON.stringify({ recall, coverage, requests: coast.requests }));
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.ok(Math.abs(coverage - recall) <= 0.02, `coverage ${coverage} vs recall ${recall}`);
});

test('a cell none of the places shown around it lie in, expected to hold under half a place, is not asked: the coverage figure counts a place for each and says so', (t) => {
  // Places in clusters: a saturated view shows its clusters, and the quadrants it showed nothing in
  // hold few places or none.
  const odd = mapSite({ area, places: 6000, seed: 3, layout: 'clustered', noise: 0.02 });
  const before = odd.requests;
  const { records, summary } = run({}, 0, odd);
  const ids = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16));
  const recall = ids.filter((i) => odd.inside[i]).length / odd.insideCount;
  const m = /(\d+) of the cells were not asked \(none of the places shown around them lay in them, and each was expected to hold under 0\.5 place\): (\d+) places they may hold are counted as not found/.exec(String(summary.coverage_reason));
  t.diagnostic(JSON.stringify({ requests: odd.requests - before, recall, coverage: summary.coverage, reason: summary.coverage_reason }));
  assert.ok(m && Number(m[1]) >= 1, String(summary.coverage_reason));
  assert.equal(summary.requests, odd.requests - before);
  assert.ok(recall >= 0.99, `recall ${recall}`);
  // Each cell left is a place the figure counts as not found, and the figure stays at the recall.
  assert.ok(Number(summary.places_estimated) >= Number(summary.places_found) + Number(m![2]), JSON.stringify(summary));
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.01, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('malls: hundreds of places at one point, capped at the smallest cell: the run ends and the coverage figure does not stand above the recall', (t) => {
  // No split separates places at one point: the views there show the cap to the end, and their own
  // pages and their parent's sample (the same top places) read them whole.
  const malls = [[36.17, -115.14], [36.1, -115.17], [36.05, -115.25], [36.2, -115.3], [36.01, -115.04]].map(([lat, lng]) => ({ lat: lat!, lng: lng!, n: 300, km: 0 }));
  const odd = mapSite({ area, places: 3000, seed: 5, spots: malls });
  const before = odd.requests;
  const { records, summary } = run({}, 0, odd);
  const recall = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16)).filter((i) => odd.inside[i]).length / odd.insideCount;
  t.diagnostic(JSON.stringify({ requests: odd.requests - before, recall, coverage: summary.coverage, deep: summary.views_saturated_deepest }));
  assert.ok(Number(summary.views_saturated_deepest) >= 3, String(summary.coverage_reason));
  assert.match(String(summary.coverage_reason), /views still showed their cap at the smallest cell/);
  assert.ok(recall < 0.9, `the malls' places past the cap are out of reach (recall ${recall})`);
  assert.ok(Number(summary.coverage) - recall <= 0.02, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('a site that drops a place from a page now and then: a page a place short does not end the view once the site was seen to drop', (t) => {
  // A view whose page came back a place short ended there, and the rest of its places were lost (half
  // of Utah's under a figure of 0.996).
  const utah = resolveArea('US>Utah');
  const odd = mapSite({ area: utah, inside: 10_000, seed: 12, noise: 0.02, layout: 'clustered', dropShare: 0.05, pairedNoise: true });
  const before = odd.requests;
  const { records, summary } = run({ area: 'US>Utah' }, 0, odd);
  const recall = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16)).filter((i) => odd.inside[i]).length / odd.insideCount;
  t.diagnostic(JSON.stringify({ requests: odd.requests - before, oracle: odd.oracle(rootViews(utah)), recall, coverage: summary.coverage }));
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.ok(Number(summary.coverage) - recall <= 0.02, `coverage ${summary.coverage} vs recall ${recall}`);
});
