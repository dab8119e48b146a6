/**
 * Submit-time checks that could hold the API thread (issue 39) run arithmetic first and the rest
 * on a check thread under a budget: the bodies (10,000 × a state ZIP by ZIP; 10,000
 * locations over hundreds of regions; comb-shaped polygons) get their answer, the same answer as
 * before, and a check past CHECK_BUDGET_MS is a 422 saying so. Their speed is in
 * bench/submit-checks.bench.ts.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { comb } from './support/comb.ts';
import { regions } from './support/regions.ts';

const h = await startHarness({ settings: { workers: false } });
after(() => h.close());
const post = (path: string, body: unknown) => h.json(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('10,000 × a state ZIP by ZIP is refused by its count, without building the queries', async () => {
  const r = await post('/tasks', { service_name: 'engine_maps_service_v2', categories: ['dentist'], locations: Array(10_000).fill('US>California'), useZipCodes: true });
  assert.equal(r.status, 422);
  assert.match(r.body.errorMessage, /categories × locations make 25930000 queries; a task takes at most 50000/);
});

test('10,000 locations cycling through hundreds of regions: each checked once, the task accepted with 10,000 queries', async () => {
  const rs = regions(905);
  assert.ok(rs.length > 400, `${rs.length} regions`);
  const locations = Array.from({ length: 10_000 }, (_, i) => rs[i % rs.length]!);
  const r = await post('/tasks', { service_name: 'engine_maps_service_v2', categories: ['dentist'], locations, tags: ['cycling'] });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const task = await h.svc.ctx.store.getTask(r.body.id);
  assert.equal(task!.queries.length, 10_000);
  assert.equal(task!.queries[rs.length], `dentist in ${rs[0]}`);
  const bad = await post('/tasks', { service_name: 'engine_maps_service_v2', categories: ['dentist'], locations: [...locations.slice(0, 5000), 'US>Nowhere'] });
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /locations\.5000: area "US>Nowhere": US has no region or city named "Nowhere"/);
});

test('comb-shaped areas: a simple comb is accepted, one tooth bent over the next is a 422 naming the edges', async () => {
  for (const teeth of [500, 1000]) {
    const ring = comb(teeth);
    const area = JSON.stringify({ type: 'Polygon', coordinates: [ring] });
    const ok = await h.json(`/maps/search?query=pizza&area=${encodeURIComponent(area)}`, { method: 'GET' });
    assert.equal(ok.status, 200 < ok.status && ok.status < 300 ? ok.status : 202, `${area.length} B: ${JSON.stringify(ok.body).slice(0, 300)}`);
    ring[4 * (teeth / 2) + 1] = [teeth / 200 + 0.02, 1];
    const bent = JSON.stringify({ type: 'Polygon', coordinates: [ring] });
    const no = await h.json(`/maps/search?query=pizza&area=${encodeURIComponent(bent)}`);
    assert.equal(no.status, 422);
    assert.match(no.body.errorMessage, /area GeoJSON polygon crosses itself \(ring 0: edge \d+ meets edge \d+/);
  }
});

test('a check past its budget ends with its thread and is a 422 saying so', async () => {
  const budget = h.svc.ctx.settings.checkBudgetMs;
  h.svc.ctx.settings.checkBudgetMs = 1;
  try {
    const area = JSON.stringify({ type: 'Polygon', coordinates: [comb(1_500)] });
    const rs = regions(905);
    const locations = Array.from({ length: 10_000 }, (_, i) => rs[i % rs.length]!);
    const r = await post('/tasks', { service_name: 'engine_maps_service_v2', categories: ['a', 'b', 'c', 'd'], locations });
    assert.equal(r.status, 422);
    assert.match(r.body.errorMessage, /the task's locations could not be checked within 0.001 s; simplify it/);
    const a = await h.json(`/maps/search?query=pizza&area=${encodeURIComponent(area)}`);
    assert.equal(a.status, 422, JSON.stringify(a.body).slice(0, 300));
    assert.match(a.body.errorMessage, /area could not be checked within 0.001 s/);
  } finally {
    h.svc.ctx.settings.checkBudgetMs = budget;
  }
  // The next check runs on a new thread.
  const r = await post('/tasks', { service_name: 'engine_maps_service_v2', categories: ['dentist'], locations: ['US>Nowhere'] });
  assert.match(r.body.errorMessage, /US has no region or city named "Nowhere"/);
});
