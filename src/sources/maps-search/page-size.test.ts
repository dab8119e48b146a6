/**
 * The page size is read from the site's answers, never assumed (issue 33's held-out sites): a site
 * that gives 10 places a page whatever is asked (20) must not read every first page as a short one
 * (before: an area returned 0.3 % of its places with a coverage figure of 1.0). A plain search still
 * assumes 20 a page (docs/performance/areas.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapter } from './adapter.ts';
import { placeKey } from './finish.ts';
import { resolveArea } from '../../lookups/geo/area/resolve.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { mapSite, type MapSite } from '../../../test/support/map-site.ts';

const AREA = '-115.3,36.0,-115.1,36.2';
const area = resolveArea(AREA);

function run(site: MapSite, params: Record<string, unknown>, query = 'dentist') {
  const ctx = { query, params };
  const queue = adapter.plan(ctx as never);
  const records: PlaceRecord[] = [];
  let summary: Record<string, unknown> | undefined;
  const before = site.requests;
  while (queue.length) {
    const step = queue.shift()!;
    const res = site.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx as never);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    queue.push(...(out.next ?? []));
  }
  return { records: adapter.finish!(records, ctx as never), summary, requests: site.requests - before };
}

test('an area on a site of 10 places a page: the page size is read, the places found, the figure true', () => {
  const site = mapSite({ area, places: 1500, seed: 9, pageSize: 10 });
  const { records, summary } = run(site, { area: AREA });
  const ids = new Set(records.map(placeKey));
  const recall = ids.size / site.insideCount;
  assert.ok(recall >= 0.97, `recall ${recall} of ${site.insideCount}`);
  assert.ok(Math.abs(Number(summary!.coverage) - recall) <= 0.02, `coverage ${summary!.coverage}, recall ${recall}`);
});
