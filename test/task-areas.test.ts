/**
 * A task's `locations` are areas (issue 24): each category is searched over each location as
 * `/maps/search?area=` covers one, through the HTTP API, with the real /maps/search adapter against
 * the loopback map site (test/support/map-site.ts). Checked: every place of the locations found once
 * across the task's queries, none outside them, `metadata.queries` naming each query with its area,
 * `organizationsPerQueryLimit` bounding each query's places, the coverage figure per area, and an
 * unknown location refused naming it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until } from './support/harness.ts';
import { mapSite, onSite } from './support/map-site.ts';
import { testRegistry } from './support/test-adapter.ts';
import { adapter as mapsSearch } from '../src/sources/maps-search/adapter.ts';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';

// Two /locations cities whose circles overlap: a place in both must come once.
const A = 'US>Nevada>Las Vegas', B = 'US>Nevada>Paradise';
const a = resolveArea(A), b = resolveArea(B);
const site = mapSite({ area: resolveArea('-115.3,36.0,-115.0,36.3'), places: 3000, seed: 11 });
const http = await site.listen();
const h = await startHarness({ adapters: testRegistry(undefined, [onSite(mapsSearch, http.url)]), settings: { allowPrivateTargets: true } });
after(async () => { await h.close(); await http.close(); });

const idOf = (r: { engine_id: string }) => parseInt(r.engine_id.split(':0x')[1]!, 16);
const inA = (i: number) => a.contains(site.lat[i]!, site.lng[i]!), inB = (i: number) => b.contains(site.lat[i]!, site.lng[i]!);

async function runTask(body: Record<string, unknown>) {
  const post = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', ...body }), headers: { 'content-type': 'application/json' } });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  const task = await until(async () => { const t = await h.svc.ctx.store.getTask(post.body.id); return (t?.status === 'SUCCESS' || t?.status === 'FAILURE') && t; }, 120_000, 'the task');
  assert.equal(task.status, 'SUCCESS');
  const view = (await h.json(`/tasks?query=${encodeURIComponent(String((body.tags as string[])[0]))}`)).body.tasks.find((t: { id: string }) => t.id === task.id);
  const req = await h.json(`/requests/${task.requestId}`);
  assert.equal(req.status, 200);
  return { view, req: req.body, row: (await h.svc.ctx.store.getRequest(task.requestId!))! };
}

test('categories × locations: each location covered as an area, every place once across the queries, none outside', async () => {
  const truth = [...Array(site.count).keys()].filter((i) => inA(i) || inB(i));
  const both = truth.filter((i) => inA(i) && inB(i));
  assert.ok(truth.length > 800 && both.length > 20, `${truth.length} places in the two cities, ${both.length} in both`);
  const { view, req, row } = await runTask({ categories: ['dentist', 'cafe'], locations: [A, B], organizationsPerQueryLimit: 100_000, tags: ['areas-all'] });
  assert.deepEqual(view.metadata.queries, [`dentist in ${A}`, `dentist in ${B}`, `cafe in ${A}`, `cafe in ${B}`]);
  assert.equal(row.queriesTotal, 4, 'metadata.queries are the queries the request searched');
  // Deduped across the task's queries: one flat array (the site answers every phrase alike, so a
  // category's queries find the other's places again and add none).
  const ids = (req.data as { engine_id: string }[]).map(idOf);
  const phrases = new Set(req.data.map((r: { query: string }) => r.query));
  assert.ok([...phrases].every((q) => q === 'dentist' || q === 'cafe'), `the phrase searched is the category, the location its area: ${[...phrases]}`);
  assert.equal(new Set(ids).size, ids.length, 'no place twice');
  assert.equal(ids.filter((i) => !inA(i) && !inB(i)).length, 0, 'no place outside the locations');
  assert.ok(ids.length >= 0.98 * truth.length, `${ids.length} of ${truth.length} places`);
  assert.ok(both.every((i) => ids.includes(i)) || both.filter((i) => ids.includes(i)).length >= 0.95 * both.length, 'the places in both cities');
  assert.equal(row.usage, ids.length, 'each place billed once');
  // The coverage figure names each query's area.
  assert.deepEqual(req.areas.map((x: { query: string; area: string }) => `${x.query} in ${x.area}`), view.metadata.queries);
  assert.ok(req.areas.every((x: { coverage: number }) => x.coverage > 0.95), JSON.stringify(req.areas));
});

test('organizationsPerQueryLimit bounds the places of each query; without it a query keeps 500 at most', async () => {
  const { req } = await runTask({ categories: ['dentist'], locations: [A, B], organizationsPerQueryLimit: 40, dropDuplicates: false, tags: ['areas-limit'] });
  assert.deepEqual(req.data.map((q: unknown[]) => q.length), [40, 40], 'two queries of 40 places');
  for (const [k, area] of [[0, a], [1, b]] as const) {
    assert.ok(req.data[k].every((r: { latitude: number; longitude: number }) => area.contains(r.latitude, r.longitude)), 'each inside its own area');
  }
});

test('an unknown location, or a location of an endpoint without areas, is refused or read as a phrase', async () => {
  const bad = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', categories: ['dentist'], locations: [A, 'US>Nevada>Atlantis'] }), headers: { 'content-type': 'application/json' } });
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /locations\.1: area "US>Nevada>Atlantis": no city "Atlantis" in Nevada/);
  const big = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', queries: ['dentist las vegas'], organizationsPerQueryLimit: 1000 }), headers: { 'content-type': 'application/json' } });
  assert.equal(big.status, 422, 'more than 500 places a query needs an area');
});
