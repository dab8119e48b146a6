/**
 * A monitor's view-cap prior (./prior.ts, paging.ts, src/monitors/signal.ts runLearned): queries run
 * twice against a simulated site (places in each query's view, ranked by id, 20 a page, `cap` a
 * view), the second run with what the first learned. Same cap: fewer probes, the same places. A cap
 * that fell between the runs: every place still found (the views that stop short of what they
 * showed before are probed, and the probes prove the new cap).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchedResponse, Step } from '../sources/_kit/adapter.ts';
import type { PlaceRecord } from '../sources/_maps/record.ts';
import { VIEW_H, VIEW_W } from '../sources/_maps/cells.ts';
import { readPb } from '../sources/_maps/pb.ts';
import { constructedSearchBody } from '../sources/_maps/constructed-search.ts';
import { rng } from '../sources/_maps/test-support.ts';
import { mergeLearned, type Learned } from '../sources/_kit/learned.ts';
import { runLearned } from './signal.ts';
import { adapter } from '../sources/maps-search/adapter.ts';
import { priorOf, VIEW_PRIOR, type MonitorPrior } from '../sources/maps-search/prior.ts';

// Query k's view at zoom 15 around its own centre, holding SIZES[k] places.
const SIZES = [25, 45, 70, 90, 104, 150, 260];
const centre = (k: number) => ({ lat: 38 + k * 0.2, lng: 23.7 });
const r = rng(5);
const places = SIZES.flatMap((n, k) => Array.from({ length: n }, (_, j) => ({ i: k * 1000 + j, lat: centre(k).lat + (r() - 0.5) * 0.008, lng: centre(k).lng + (r() - 0.5) * 0.01 })));
const queries = SIZES.map((_, k) => ({ q: `dentist ${k}`, coordinates: `@${centre(k).lat},${centre(k).lng},15z` }));

function serve(step: Step, cap: number): FetchedResponse {
  const u = new URL(step.url);
  const v = readPb(u.searchParams.get('pb')!)!;
  const h = v.altitude * 2 * Math.tan(((v.fov / 2) * Math.PI) / 180);
  const halfLat = h / 2 / 111_320, halfLng = ((h * VIEW_W) / VIEW_H) / 2 / (111_320 * Math.cos((v.lat * Math.PI) / 180));
  const shown = places.filter((p) => Math.abs(p.lat - v.lat) <= halfLat && Math.abs(p.lng - v.lng) <= halfLng).slice(0, cap).slice(v.offset, v.offset + v.pageSize);
  return { status: 200, url: step.url, headers: {}, body: constructedSearchBody(u.searchParams.get('q'), shown) };
}

/** One monitor run: every query to its end; the places found, probes asked, and what each learned. */
function monitorRun(cap: number, prior: MonitorPrior | null) {
  const learned = new Map<string, Learned>();
  const found = new Set<string>();
  let probes = 0, requests = 0;
  for (const { q, coordinates } of queries) {
    const ctx = { query: q, params: { limit: 500, coordinates, ...(prior ? { [VIEW_PRIOR]: prior } : {}) } };
    const queue = adapter.plan(ctx);
    const records: PlaceRecord[] = [];
    let l: Learned | undefined;
    while (queue.length) {
      const step = queue.shift()!;
      requests++;
      if ((step.state as { probeOf?: unknown }).probeOf) probes++;
      const out = adapter.parse(step, serve(step, cap), ctx);
      records.push(...out.records);
      if (out.learned) l = mergeLearned(l, out.learned);
      queue.push(...(out.next ?? []));
    }
    for (const x of adapter.finish!(records, ctx)) found.add(x.engine_id!);
    if (l) learned.set(q, l);
  }
  return { found: found.size, probes, requests, next: runLearned(prior, learned) };
}

test('the prior: same cap, no probe and the same places; a cap that fell, every place still found', () => {
  const first = monitorRun(120, null);
  assert.equal(first.found, places.length, 'the first run finds every place');
  assert.ok(first.probes >= 4, `the first run probes the views it cannot tell (${first.probes})`);
  assert.deepEqual(first.next?.caps, [120]);
  assert.equal(first.next?.floor, 104);
  assert.equal(priorOf({ query: 'dentist 3', params: { [VIEW_PRIOR]: first.next } })?.top, 90);

  const same = monitorRun(120, first.next);
  assert.equal(same.found, places.length);
  assert.equal(same.probes, 0, 'every view is told apart by what the last run proved');
  assert.ok(same.requests < first.requests, `${same.requests} requests, ${first.requests} the first time`);
  assert.deepEqual(same.next, first.next, 'and it proves the same again');

  // The site now shows 80 a view: views of 90 and 104 stop at 80, below what they showed before.
  const fell = monitorRun(80, first.next);
  assert.equal(fell.found, places.length, 'every place still found');
  assert.ok(fell.probes >= 1, 'the views that stopped short of what they showed were probed');
  assert.deepEqual(fell.next?.caps, [80], 'the new cap is proven, the old one gone');
  assert.ok((fell.next?.floor ?? 0) < 80);
  const after = monitorRun(80, fell.next);
  assert.equal(after.found, places.length);
  assert.equal(after.probes, 0);
});
