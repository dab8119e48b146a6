/**
 * A monitor's view-cap prior where its query covers an area (src/sources/maps-search/area-prior.ts,
 * signal.ts runLearned): an area query run twice against the loopback map site (places by
 * population, ranking noise, `capNow` a view), the second run with what the first learned, as the
 * scheduler hands it on. Same cap: fewer probes and requests, the same coverage. A cap that fell
 * between the runs: the new one is found and proven, and the places are still found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Step } from '../sources/_kit/adapter.ts';
import type { PlaceRecord } from '../sources/_maps/record.ts';
import { mergeLearned, type Learned } from '../sources/_kit/learned.ts';
import { adapter } from '../sources/maps-search/adapter.ts';
import { populationReady } from '../sources/maps-search/density.ts';
import { VIEW_PRIOR, type MonitorPrior } from '../sources/maps-search/prior.ts';
import { resolveArea } from '../lookups/geo/area/resolve.ts';
import { mapSite } from '../../test/support/map-site.ts';
import { runLearned } from './signal.ts';

const AREA = '-115.5,35.9,-114.9,36.4'; // a box around Las Vegas
let capNow = 120;
const site = mapSite({ area: resolveArea(AREA), places: 4000, seed: 11, cap: () => capNow });
await populationReady();

/** One monitor run of one area query: its recall, probes, requests, and what the monitor keeps. */
function monitorRun(prior: MonitorPrior | null) {
  const ctx = { query: 'dentist', params: { area: AREA, ...(prior ? { [VIEW_PRIOR]: prior } : {}) } };
  const queue: Step[] = adapter.plan(ctx);
  const records: PlaceRecord[] = [];
  let summary: Record<string, unknown> = {};
  let learned: Learned | undefined;
  const before = site.requests;
  while (queue.length) {
    const step = queue.shift()!;
    const res = site.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    // The runner merges each step's (src/engine/steps.ts).
    if (out.learned) learned = mergeLearned(learned, out.learned);
    queue.push(...(out.next ?? []));
  }
  const found = adapter.finish!(records, ctx).length;
  return {
    recall: found / site.insideCount, probes: summary.views_probed as number, requests: site.requests - before,
    next: runLearned(prior, new Map(learned ? [['dentist', learned]] : [])),
  };
}

test('an area monitor carries the view cap: same cap, fewer probes and the same places; a cap that fell, proven and every place still found', () => {
  capNow = 120;
  const first = monitorRun(null);
  assert.ok(first.recall >= 0.99, `recall ${first.recall}`);
  assert.deepEqual(first.next?.caps, [120], 'the first run proves the cap, and the monitor keeps it');
  // How many depends on the planner's rules (3 before session 28's check of short pages, 2 after); that it
  // probes at all, and that a run with the cap handed on probes less, is what the monitor relies on.
  assert.ok(first.probes >= 1, `the first run probes to learn the cap (${first.probes})`);

  const same = monitorRun(first.next);
  assert.ok(same.recall >= 0.99, `recall ${same.recall}`);
  assert.ok(same.probes < first.probes, `${same.probes} probes, ${first.probes} the first time`);
  assert.ok(same.requests < first.requests, `${same.requests} requests, ${first.requests} the first time`);
  assert.deepEqual(same.next?.caps, [120], 'and it proves the same again');

  // The site now shows 80 a view: the views stopping at 80 repeat a count, are probed, and prove it.
  capNow = 80;
  const fell = monitorRun(first.next);
  assert.ok(fell.recall >= 0.99, `recall ${fell.recall}`);
  assert.deepEqual(fell.next?.caps, [80], 'the new cap is proven, the old one gone');
  const after = monitorRun(fell.next);
  assert.ok(after.recall >= 0.99, `recall ${after.recall}`);
  assert.ok(after.probes < fell.probes, `${after.probes} probes, ${fell.probes} the run that found the new cap`);
});
