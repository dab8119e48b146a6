/**
 * Plan, paging, cell splitting and merging, on constructed inputs; plus a whole query run against a
 * simulated search (a field of constructed places, at most 120 per view (or 110, 60: the cap is
 * learned), 20 per page) to check that splitting reaches `limit` on dense areas, stops when the area
 * is exhausted, and stays bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchedResponse, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { placeRecordFields } from '../_maps/record.ts';
import { EN, HTML, fixture, missing, rng } from '../_maps/test-support.ts';
import { appInitState } from '../_maps/html.ts';
import { altitudeFor, contains, FOV_DEG, quadrants, VIEW_H, VIEW_W, viewBox, zoomFor, type Box } from '../_maps/cells.ts';
import { mergePlaces } from './finish.ts';
import { constructedSearchBody } from '../_maps/constructed-search.ts';
import { adapter as mapsSearchAdapter } from './adapter.ts';
import { afterSearchPage, MAX_DEPTH, SPLIT_SLACK } from './paging.ts';
import type { MapsSearchParams } from '../_maps/params.ts';
import { buildPb, readPb } from '../_maps/pb.ts';
import { readState, searchStep, type SearchState } from '../_maps/state.ts';

const ctx = (query: string, params: MapsSearchParams = {}): QueryContext<MapsSearchParams> => ({ query, params });
const invalid = (e: unknown) => e instanceof SourceError && e.type === 'invalid_query';

function place(i: number, lat: number, lng: number, extra: Partial<PlaceRecord> = {}): PlaceRecord {
  const r = Object.fromEntries(placeRecordFields.map((f) => [f, null])) as unknown as PlaceRecord;
  return { ...r, name: `P${i}`, engine_id: `0x1:0x${i.toString(16)}`, place_id: `ChIJconstructed${String(i).padStart(8, '0')}`, latitude: lat, longitude: lng, ...extra };
}

function pbOf(step: Step) {
  const pb = new URL(step.url).searchParams.get('pb');
  assert.ok(pb);
  const v = readPb(pb);
  assert.ok(v, `pb parses: ${pb}`);
  return v;
}

test('search URL: hl, gl, q and pb encoding', () => {
  const [s] = mapsSearchAdapter.plan(ctx('café & tea, Αθήνα', { language: 'el', region: 'GR' }));
  assert.equal(s.kind, 'search');
  assert.equal(s.expect, 'xssi-json');
  assert.ok(s.url.startsWith('https://www.google.com/search?tbm=map&authuser=0&hl=el&gl=GR&q=caf%C3%A9%20%26%20tea%2C%20%CE%91%CE%B8%CE%AE%CE%BD%CE%B1&pb=!4m12!1m3!1d'), s.url);
  const u = new URL(s.url);
  assert.equal(u.searchParams.get('q'), 'café & tea, Αθήνα');
  assert.equal(u.searchParams.get('tbm'), 'map');
  const pb = u.searchParams.get('pb')!;
  assert.match(pb, /^!4m12!1m3!1d[\d.]+!2d-?[\d.]+!3d-?[\d.]+!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13\.1!7i20!8i0!10b1!12m22!/);
  assert.ok(pb.endsWith('!19m4!2m3!1i360!2i120!4i8'));
  // No region: no gl at all.
  assert.ok(!mapsSearchAdapter.plan(ctx('coffee'))[0].url.includes('&gl='));
});

test('pb camera: coordinates param and URL camera; altitude halves per zoom level', () => {
  const [s] = mapsSearchAdapter.plan(ctx('coffee', { coordinates: '@38.0289,23.7,15z' }));
  const v = pbOf(s);
  assert.equal(v.lat, 38.0289);
  assert.equal(v.lng, 23.7);
  assert.equal(v.offset, 0);
  assert.equal(v.pageSize, 20);
  assert.equal(v.fov, FOV_DEG);
  const a15 = altitudeFor(viewBox(38.0289, 23.7, 15));
  assert.ok(Math.abs(v.altitude - a15) < 0.01);
  assert.ok(Math.abs(altitudeFor(viewBox(38, 23, 14)) / altitudeFor(viewBox(38, 23, 15)) - 2) < 1e-6);
  assert.ok(Math.abs(zoomFor(viewBox(38, 23, 15)) - 15) < 1e-6);
  // The URL's camera wins over the parameter.
  const [u] = mapsSearchAdapter.plan(ctx('https://www.google.com/maps/search/pizza/@40.7,-73.99,13z', { coordinates: '@1,1,3z' }));
  const uv = pbOf(u);
  assert.deepEqual([uv.lat, uv.lng], [40.7, -73.99]);
  assert.equal(new URL(u.url).searchParams.get('q'), 'pizza');
  // Viewport of the query's own view is VIEW_W x VIEW_H at the asked zoom.
  const b = viewBox(0, 0, 2);
  assert.ok(b.e - b.w > 300 && VIEW_W === 1024 && VIEW_H === 768);
});

test('camera model matches the product: captured cameras (altitude, 1024x768, fov 13.1) sit at whole zoom levels', { skip: missing(HTML) || missing(EN) }, () => {
  const zoomOf = (lat: number, lng: number, alt: number) => {
    let z = 15;
    for (let i = 0; i < 60; i++) z += Math.log2(altitudeFor(viewBox(lat, lng, z)) / alt);
    return z;
  };
  // Place body [4] and place page APP_INITIALIZATION_STATE[0]: [[altitude, lng, lat], _, [w, h], fov].
  const en = (JSON.parse(fixture(EN)) as unknown[])[4] as [[number, number, number], unknown, [number, number], number];
  const page = appInitState(fixture(HTML))![0] as typeof en;
  for (const cam of [en, page]) {
    assert.deepEqual(cam[2], [VIEW_W, VIEW_H]);
    assert.equal(cam[3], FOV_DEG);
    const z = zoomOf(cam[0][2], cam[0][1], cam[0][0]);
    assert.ok(Math.abs(z - Math.round(z)) < 0.01, `zoom ${z}`);
  }
});

test('plan: ids and place URLs become place steps; short links resolve; bad input is invalid_query', () => {
  assert.deepEqual(mapsSearchAdapter.plan(ctx('ChIJDdnwdv0y5xQRRytw1ihZQeU', { region: 'CY' }))[0], {
    kind: 'place', url: 'https://www.google.com/maps/place/?q=place_id:ChIJDdnwdv0y5xQRRytw1ihZQeU&hl=en&gl=CY', expect: 'html',
  });
  assert.equal(mapsSearchAdapter.plan(ctx('16519582940102929223'))[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.equal(mapsSearchAdapter.plan(ctx('0x14e732fd76f0d90d:0xe5415928d6702b47'))[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.equal(mapsSearchAdapter.plan(ctx('https://maps.google.com/?cid=16519582940102929223'))[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  const r = mapsSearchAdapter.plan(ctx('https://maps.app.goo.gl/Abc123'))[0];
  assert.equal(r.kind, 'resolve');
  assert.equal(r.userUrl, true);
  for (const q of ['', '  ', 'https://example.com/x', 'https://www.google.com/search?q=x']) assert.throws(() => mapsSearchAdapter.plan(ctx(q)), invalid, q);
  for (const p of [{ limit: 0 }, { limit: 501 }, { limit: 1.5 }, { coordinates: '@100,0,3z' }, { coordinates: 'nowhere' }] as MapsSearchParams[]) {
    assert.throws(() => mapsSearchAdapter.plan(ctx('coffee', p)), invalid, JSON.stringify(p));
  }
  assert.equal((mapsSearchAdapter.plan(ctx('coffee'))[0].state as unknown as SearchState).budget, 500);
});

test('checkQuery: empty, whitespace and other sites rejected with a reason; phrases and map URLs accepted', () => {
  const c = mapsSearchAdapter.checkQuery!;
  assert.equal(c('coffee in Limassol'), undefined);
  assert.equal(c('https://www.google.com/maps/place/Kipriakon/@34.67,33.04,17z'), undefined);
  assert.equal(c('maps.app.goo.gl/xyz'), undefined);
  assert.match(c('')!, /empty/);
  assert.match(c(' \t ')!, /empty/);
  assert.match(c('https://www.tripadvisor.com/Restaurant')!, /another site \(www\.tripadvisor\.com\)/);
  assert.match(c('https://www.google.com/search?q=coffee')!, /not a map URL/);
});

function rootState(over: Partial<SearchState> = {}): SearchState {
  return { q: 'coffee', hl: 'en', gl: null, view: viewBox(38, 23.7, 14), cell: null, offset: 0, got: 0, budget: 500, depth: 0, pts: [], area: null, ...over };
}

const page = (n: number, from = 0, lat = 38, lng = 23.7, spread = 0.01) =>
  Array.from({ length: n }, (_, k) => place(from + k, lat + ((k * 7) % 10) * spread / 10, lng + ((k * 3) % 10) * spread / 10));

test('paging: next page while full (past 120: the cap is not assumed); stop on a short page or at the budget', () => {
  const a = afterSearchPage(rootState(), page(20));
  assert.equal(a.records.length, 20);
  assert.equal(a.next.length, 1);
  const s1 = readState(a.next[0].state)!;
  assert.equal(s1.offset, 20);
  assert.equal(s1.got, 20);
  assert.equal(s1.pts.length, 20);
  assert.deepEqual(s1.pts[1], [38.007, 23.703]);
  assert.equal(pbOf(a.next[0]).offset, 20);
  assert.equal(afterSearchPage(rootState(), page(19)).next.length, 0);
  assert.equal(afterSearchPage(rootState(), []).next.length, 0);
  assert.equal(afterSearchPage(rootState({ budget: 40, got: 20, offset: 20 }), page(20, 20)).next.length, 0);
  assert.equal(readState(afterSearchPage(rootState({ offset: 120, got: 120 }), page(20, 120)).next[0].state)!.offset, 140);
});

test('a view that stops short after a page: one probe of its fullest sub-cell tells complete from capped', () => {
  // 110 places kept over 5 full pages and a short one, spread over 0.01 x 0.01 degrees.
  const r0 = rng(5);
  const pts: Array<[number, number]> = Array.from({ length: 100 }, () => [38 + r0() * 0.01, 23.7 + r0() * 0.01]);
  const st = rootState({ offset: 100, got: 100, pts: pts.map(([a, b]) => [Math.round(a * 1e6) / 1e6, Math.round(b * 1e6) / 1e6]) });
  const last = page(10, 100, 38, 23.7, 0.01);
  const out = afterSearchPage(st, last);
  assert.equal(out.records.length, 10);
  assert.equal(out.next.length, 1, 'one probe');
  const probe = readState(out.next[0].state)!;
  assert.ok(probe.probeOf && probe.probeOf.t === 110 && probe.probeOf.pts.length === 110);
  const inProbe = probe.probeOf.pts.filter(([a, b]) => contains(probe.view, a, b));
  assert.ok(inProbe.length > 0 && inProbe.length < 20, `${inProbe.length} of the view's places in the probe`);
  assert.ok(probe.view.n - probe.view.s < 0.0061, 'a sub-cell of the view');
  // The probe shows only places the view showed: complete, nothing follows.
  const same = inProbe.map(([a, b], i) => place(1000 + i, a, b));
  assert.deepEqual(afterSearchPage(probe, same), { records: [], next: [], learned: { complete: 110 } }, 'complete at 110: what the next run of a monitor is told');
  // A full page of places the view showed, some just past the sub-cell's edge: no room for a new one,
  // so it tells nothing: a deeper sub-cell is probed, once.
  const past = probe.probeOf.pts.filter(([a, b]) => !contains(probe.view, a, b)).slice(0, 20 - same.length).map(([a, b], i) => place(1500 + i, a, b));
  const full = afterSearchPage(probe, [...same, ...past]);
  assert.equal(full.next.length, 1, 'a deeper probe');
  const deeper = readState(full.next[0].state)!;
  assert.ok(deeper.probeOf?.deep && deeper.probeOf.t === 110);
  assert.ok(deeper.view.s >= probe.view.s && deeper.view.n <= probe.view.n && deeper.view.w >= probe.view.w && deeper.view.e <= probe.view.e, 'a sub-cell of the probe');
  const inDeeper = inProbe.filter(([a, b]) => contains(deeper.view, a, b));
  assert.ok(inDeeper.length <= 10, `${inDeeper.length} of the view's places in the deeper probe`);
  assert.deepEqual(afterSearchPage(deeper, [...same, ...past]), { records: [], next: [], learned: { complete: 110 } }, 'once: a second full page of them is complete');
  // It shows places the view never showed: capped at 110, split; the quadrants carry the cap.
  const fresh = [...same, ...Array.from({ length: 20 - same.length }, (_, i) => place(2000 + i, (probe.view.s + probe.view.n) / 2, probe.view.w + ((i + 0.5) / 20) * (probe.view.e - probe.view.w)))];
  const split = afterSearchPage(probe, fresh);
  assert.equal(split.next.length, 4);
  for (const s of split.next) assert.equal(readState(s.state)!.cap, 110);
  // A quadrant that stops at the cap splits without a probe; below it, it is complete; above, probed.
  const q = readState(split.next[0].state)!;
  const qp = (n: number) => page(n, 3000, q.cell!.s, q.cell!.w, (q.cell!.n - q.cell!.s) * 0.9);
  assert.equal(afterSearchPage({ ...q, offset: 100, got: 100, pts: [] }, qp(10)).next.length, 4);
  assert.equal(afterSearchPage({ ...q, offset: 100, got: 100, pts: [] }, qp(5)).next.length, 0);
  const above = afterSearchPage({ ...q, offset: 120, got: 120, pts: [] }, qp(5)).next;
  assert.equal(above.length, 1);
  assert.ok(readState(above[0].state)!.probeOf);
  // One short page: complete, no probe.
  assert.equal(afterSearchPage(rootState(), page(12)).next.length, 0);
});

test('cell splitting: a saturated view splits into 4 non-overlapping quadrants of its places\' area', () => {
  // 100 places kept on earlier pages, spread over 37.9..38.1 x 23.6..23.8; 20 more on the last page.
  const r0 = rng(3);
  const pts: Array<[number, number]> = Array.from({ length: 100 }, () => [37.9 + r0() * 0.2, 23.6 + r0() * 0.2]);
  pts.push([37.9, 23.6], [38.1, 23.8]);
  // The view stopped at 120, the cap its branch proved (an empty page at offset 120).
  const all = [...pts, ...page(20, 100).map((p): [number, number] => [p.latitude!, p.longitude!])];
  const last = rootState({ offset: 120, got: 120, pts: all, cap: 120 });
  const out = afterSearchPage(last, []);
  assert.equal(out.next.length, 4);
  const cells = out.next.map((s) => readState(s.state)!);
  const shares: number[] = [];
  for (const c of cells) {
    assert.equal(c.depth, 1);
    assert.equal(c.offset, 0);
    assert.equal(c.got, 0);
    assert.deepEqual(c.pts, []);
    // Budget: the parent's places it will find again, plus half of what is still missing.
    const again = all.filter(([lat, lng]) => contains(c.cell!, lat, lng)).length;
    assert.equal(c.budget, again + Math.ceil((380 * SPLIT_SLACK * (again + 1)) / (all.length + 4)));
    shares.push(c.budget - again);
    assert.deepEqual(c.cell, c.view);
  }
  // The shares add up to about SPLIT_SLACK x what is still missing.
  const sum = shares.reduce((a, b) => a + b, 0);
  assert.ok(sum >= 380 * SPLIT_SLACK && sum <= 380 * SPLIT_SLACK + 4, `sum ${sum}`);
  // Each parent place lies in exactly one quadrant.
  for (const [lat, lng] of all) assert.equal(cells.filter((c) => contains(c.cell!, lat, lng)).length, 1);
  // Deterministic order SW, SE, NW, NE; together they tile the area (grown 5%).
  const [sw, se, nw, ne] = cells.map((c) => c.cell!);
  assert.ok(sw.s === se.s && nw.n === ne.n && sw.w === nw.w && se.e === ne.e);
  assert.ok(sw.n === nw.s && sw.e === se.w);
  assert.ok(sw.s < 37.9 && ne.n > 38.1 && sw.w < 23.6 && ne.e > 23.8);
  const r = rng(7);
  for (let k = 0; k < 2000; k++) {
    const lat = 37.9 + r() * 0.2, lng = 23.6 + r() * 0.2;
    assert.equal(cells.filter((c) => contains(c.cell!, lat, lng)).length, 1);
  }
  // Same input, same cells.
  assert.deepEqual(afterSearchPage(last, []).next, out.next);
  // Quadrants of a quadrant: zoom + 1.
  const z0 = zoomFor(sw);
  assert.ok(Math.abs(zoomFor(quadrants(sw)[0]) - z0 - 1) < 0.01);
  // A given camera's view is part of the area even where no place was seen.
  const withArea = afterSearchPage(rootState({ offset: 120, got: 120, pts: all, cap: 120, area: { s: 37, w: 23, n: 39, e: 24 } }), []);
  const cs = withArea.next.map((s) => readState(s.state)!.cell!);
  assert.ok(cs[0].s < 37 && cs[3].n > 39 && cs[0].w < 23 && cs[3].e > 24);
});

test('cell pages keep only their own places; a cell that keeps none stops; depth and size limits', () => {
  const cell: Box = { s: 38, w: 23.7, n: 38.01, e: 23.71 };
  const st = rootState({ cell, view: cell, depth: 1, budget: 100 });
  const inside = page(10, 0, 38.001, 23.701, 0.008);
  const outside = page(10, 100, 38.02, 23.72, 0.005);
  const a = afterSearchPage(st, [...inside, ...outside]);
  assert.deepEqual(a.records.map((x) => x.name), inside.map((x) => x.name));
  assert.equal(a.next.length, 1);
  assert.equal(readState(a.next[0].state)!.got, 10);
  assert.equal(afterSearchPage(st, page(20, 200, 40, 20)).next.length, 0, 'full page, none inside: viewport ignored');
  // At the cap (split) or with the cap unknown (probe): nothing at the deepest level or smallest cell.
  const atCap = { offset: 100, got: 100, cap: 110 };
  assert.equal(afterSearchPage(rootState({ cell, view: cell, depth: MAX_DEPTH - 1, ...atCap }), page(10, 0, 38.001, 23.701, 0.008)).next.length, 4, 'one level up: split');
  for (const o of [atCap, { offset: 100, got: 100 }]) {
    const deep = rootState({ cell, view: cell, depth: MAX_DEPTH, ...o });
    assert.equal(afterSearchPage(deep, page(10, 0, 38.001, 23.701, 0.008)).next.length, 0, 'max depth');
    const tiny: Box = { s: 38, w: 23.7, n: 38.0006, e: 23.7006 };
    const small = rootState({ cell: tiny, view: tiny, depth: 2, ...o });
    assert.equal(afterSearchPage(small, page(10, 0, 38.0001, 23.7001, 0.0004)).next.length, 0, 'too small to split');
  }
});

test('finish: duplicates by engine_id or place_id dropped, first kept, cut to limit', () => {
  const a = place(1, 1, 1);
  const a2 = { ...place(1, 1, 1), name: 'again' };
  const b = place(2, 1, 1);
  const bNoEngine = { ...place(2, 1, 1), engine_id: null, name: 'B by place id' };
  const c = { ...place(3, 1, 1), engine_id: null, place_id: null };
  const c2 = { ...c };
  assert.deepEqual(mergePlaces([a, a2, b, bNoEngine, c, c2], 500).map((r) => r.name), ['P1', 'P2', 'P3']);
  assert.deepEqual(mergePlaces([a, b, c], 2).map((r) => r.name), ['P1', 'P2']);
  assert.equal(mapsSearchAdapter.finish!([a, a2, b], ctx('x', { limit: 1 })).length, 1);
});

// ---- A whole query against a simulated search --------------------------------------------------

interface Field {
  places: Array<{ i: number; lat: number; lng: number }>;
}

function field(n: number, seed: number, box: Box): Field {
  const r = rng(seed);
  return { places: Array.from({ length: n }, (_, i) => ({ i, lat: box.s + r() * (box.n - box.s), lng: box.w + r() * (box.e - box.w) })) };
}

/** The simulated site: places in the camera's view, ranked by id, 20 per page, `cap` per view. */
function serve(f: Field, step: Step, cap = 120): FetchedResponse {
  const u = new URL(step.url);
  const v = readPb(u.searchParams.get('pb')!)!;
  const h = v.altitude * 2 * Math.tan(((v.fov / 2) * Math.PI) / 180);
  const halfLat = h / 2 / 111_320;
  const halfLng = ((h * VIEW_W) / VIEW_H) / 2 / (111_320 * Math.cos((v.lat * Math.PI) / 180));
  const inView = f.places.filter((p) => Math.abs(p.lat - v.lat) <= halfLat && Math.abs(p.lng - v.lng) <= halfLng);
  const shown = inView.slice(0, cap).slice(v.offset, v.offset + v.pageSize);
  return { status: 200, url: step.url, headers: {}, body: constructedSearchBody(u.searchParams.get('q'), shown) };
}

function run(f: Field, query: string, params: MapsSearchParams, cap = 120) {
  const c = ctx(query, params);
  const queue = mapsSearchAdapter.plan(c);
  const records: PlaceRecord[] = [];
  let requests = 0;
  while (queue.length) {
    const step = queue.shift()!;
    requests++;
    assert.ok(requests < 2000, 'bounded');
    const out = mapsSearchAdapter.parse(step, serve(f, step, cap), c);
    records.push(...out.records);
    queue.push(...(out.next ?? []));
  }
  return { records: mapsSearchAdapter.finish!(records, c), raw: records.length, requests };
}

const ATHENS: Box = { s: 37.95, w: 23.65, n: 38.05, e: 23.8 };

test('simulated dense area: splitting reaches limit=500 with unique places', (t) => {
  const f = field(3000, 11, ATHENS);
  const { records, requests, raw } = run(f, 'coffee athens', { limit: 500, coordinates: '@38,23.725,12z' });
  t.diagnostic(`requests ${requests}, records before merge ${raw}`);
  assert.equal(records.length, 500);
  assert.equal(new Set(records.map((r) => r.engine_id)).size, 500);
  assert.ok(requests <= 150, `requests ${requests}`);
});

for (const cap of [110, 60]) {
  test(`simulated dense area on a site showing ${cap} a view: the cap is learned, limit=500 reached`, (t) => {
    const f = field(3000, 11, ATHENS);
    const { records, requests } = run(f, 'coffee athens', { limit: 500, coordinates: '@38,23.725,12z' }, cap);
    t.diagnostic(`requests ${requests}`);
    assert.equal(records.length, 500);
    assert.equal(new Set(records.map((r) => r.engine_id)).size, 500);
    assert.ok(requests <= (cap === 60 ? 250 : 150), `requests ${requests}`);
  });
}

test('simulated clustered area (a dense centre, a sparse rest, an empty sea): limit reached', (t) => {
  const centre = field(900, 21, { s: 38.0, w: 23.72, n: 38.012, e: 23.735 });
  const rest = field(500, 22, { s: 37.95, w: 23.65, n: 38.05, e: 23.72 });
  const f: Field = { places: [...centre.places, ...rest.places.map((p) => ({ ...p, i: p.i + 10_000 }))] };
  const { records, requests } = run(f, 'coffee athens', { limit: 500, coordinates: '@38,23.725,12z' });
  t.diagnostic(`requests ${requests}`);
  assert.equal(records.length, 500);
  assert.ok(requests <= 150, `requests ${requests}`);
});

test('simulated sparse area: the area is exhausted, every place found once', (t) => {
  const f = field(300, 12, ATHENS);
  const { records, requests } = run(f, 'coffee athens', { limit: 500, coordinates: '@38,23.725,12z' });
  t.diagnostic(`requests ${requests}`);
  assert.ok(requests <= 40, `requests ${requests}`);
  assert.equal(records.length, 300);
  assert.equal(new Set(records.map((r) => r.name)).size, 300);
});

test('simulated small limit: one page, no paging beyond the limit', () => {
  const f = field(3000, 13, ATHENS);
  const { records, requests } = run(f, 'coffee athens', { limit: 20, coordinates: '@38,23.725,12z' });
  assert.equal(records.length, 20);
  assert.equal(requests, 1);
  const r2 = run(f, 'coffee athens', { limit: 130, coordinates: '@38,23.725,12z' });
  assert.equal(r2.records.length, 130);
  // 6 pages, the empty seventh that shows the view stopped at 120 and the probe that proves it the cap
  // (the cap is learned, not assumed), then the quadrants.
  assert.ok(r2.requests <= 6 + 2 + 4 * 1 + 4, `requests ${r2.requests}`);
});

test('simulated query without coordinates: the area is learned from the first view', (t) => {
  const f = field(1500, 14, ATHENS);
  // With the world camera every place is "in view": the area comes from the places returned.
  const { records, requests } = run(f, 'coffee athens', { limit: 400 });
  t.diagnostic(`requests ${requests}`);
  assert.equal(records.length, 400);
});

// ---- parse of place and resolve steps --------------------------------------------------------

test('parse place step: page HTML and JSON body', { skip: missing(HTML) || missing(EN) }, () => {
  const c = ctx('ChIJuVkmvYYX3hQR2536Jljm9rc', { region: 'CY' });
  const [step] = mapsSearchAdapter.plan(c);
  const out = mapsSearchAdapter.parse(step, { status: 200, url: step.url, headers: {}, body: fixture(HTML) }, c);
  assert.equal(out.records.length, 1);
  assert.equal(out.records[0].name, 'Tipsy Sticks');
  assert.equal(out.records[0].query, 'ChIJuVkmvYYX3hQR2536Jljm9rc');
  assert.equal(out.next, undefined);
  const j = mapsSearchAdapter.parse(step, { status: 200, url: step.url, headers: {}, body: ")]}'\n" + fixture(EN) }, c);
  assert.equal(j.records[0].name, 'Kipriakon');
});

test('parse resolve step: place page, search URL, place URL, another site', { skip: missing(HTML) }, () => {
  const c = ctx('https://maps.app.goo.gl/Abc123');
  const [step] = mapsSearchAdapter.plan(c);
  const place = mapsSearchAdapter.parse(step, { status: 200, url: 'https://www.google.com/maps/place/Tipsy+Sticks/@35.16,33.36,17z', headers: {}, body: fixture(HTML) }, c);
  assert.equal(place.records[0].name, 'Tipsy Sticks');
  const search = mapsSearchAdapter.parse(step, { status: 200, url: 'https://www.google.com/maps/search/coffee/@38,23.7,14z', headers: {}, body: '<html></html>' }, c);
  assert.equal(search.next![0].kind, 'search');
  assert.deepEqual([pbOf(search.next![0]).lat, pbOf(search.next![0]).lng], [38, 23.7]);
  const byId = mapsSearchAdapter.parse(step, { status: 200, url: 'https://www.google.com/maps/place/X/data=!4m2!3m1!1s0x14e732fd76f0d90d:0xe5415928d6702b47', headers: {}, body: '<html></html>' }, c);
  assert.equal(byId.next![0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.throws(
    () => mapsSearchAdapter.parse(step, { status: 200, url: 'https://example.com/', headers: {}, body: '<html></html>' }, c),
    (e: unknown) => e instanceof SourceError && e.type === 'layout_changed',
  );
});

test('parse: unknown step kind and a search step without state are refused', () => {
  const c = ctx('coffee');
  const r = { status: 200, url: 'https://www.google.com/', headers: {}, body: '[]' };
  assert.throws(() => mapsSearchAdapter.parse({ kind: 'other', url: r.url, expect: 'json' }, r, c), invalid);
  assert.throws(() => mapsSearchAdapter.parse({ kind: 'search', url: r.url, expect: 'json', state: { q: 1 } }, r, c), invalid);
  assert.equal(readState(searchStep(rootState()).state)?.q, 'coffee');
  assert.equal(buildPb(viewBox(0, 0, 3), -5).includes('!8i0'), true);
});
