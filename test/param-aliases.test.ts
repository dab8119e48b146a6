/**
 * Parameter names real clients of hosted APIs of this kind send for the same meaning are read, so a
 * client's limit is never silently replaced by the default (issue 16 item 5, docs/parameter-aliases.md).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { adapter as mapsSearch } from '../src/sources/maps-search/adapter.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

async function paramsOf(path: string): Promise<Record<string, unknown>> {
  const r = await h.json(path);
  assert.equal(r.status, 202, `${path}: ${JSON.stringify(r.body)}`);
  return (await h.svc.ctx.store.getRequest(r.body.id))!.params;
}

test('/maps/search: organizationsPerQueryLimit is limit, skipPlaces is skip; the declared name wins', async () => {
  const p = await paramsOf('/maps/search?query=n=1&organizationsPerQueryLimit=3&skipPlaces=20');
  assert.equal(p.limit, 3);
  assert.equal(p.skip, 20);
  assert.equal((await paramsOf('/maps/search?query=n=1&organizationsPerQueryLimit=3&limit=7')).limit, 7);
  assert.equal((await paramsOf('/maps/search?query=n=1')).limit, 500, 'the default only when no name is given');
  const bad = await h.json('/maps/search?query=n=1&organizationsPerQueryLimit=zero');
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /limit must be an integer/);
});

test('items per query: perQuery, limit_per_query and reviewsLimit where the endpoint has that meaning', async () => {
  assert.equal((await paramsOf('/bizdir-reviews?query=n=1&perQuery=7')).limit, 7);
  assert.equal((await paramsOf('/bizdir-reviews?query=n=1&reviewsLimit=9')).limit, 9);
  assert.equal((await paramsOf('/bizdir-reviews?query=n=1&limit_per_query=11')).limit, 11);
  assert.equal((await paramsOf('/shortvideo-comments?query=n=1&perQuery=13')).limit_per_query, 13);
  assert.equal((await paramsOf('/engine-places-by-domain?query=n=1&limit=15')).perQuery, 15);
  // /maps/reviews has both meanings declared: reviewsLimit (per place) and limit (places) stay apart.
  const r = await paramsOf('/maps/reviews?query=n=1&reviewsLimit=5');
  assert.deepEqual([r.reviewsLimit, r.limit], [5, 1]);
});

test('POST /tasks reads the aliases too', async () => {
  const post = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', queries: ['n=1'], organizationsPerQueryLimit: 4, skipPlaces: 2 }), headers: { 'content-type': 'application/json' } });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  const task = await h.svc.ctx.store.getTask(post.body.id);
  const row = await h.svc.ctx.store.getRequest(task!.requestId!);
  assert.deepEqual([row!.params.limit, row!.params.skip], [4, 2]);
});

test('maps search skip: the first places are left out, the limit still counts kept places', () => {
  const places = Array.from({ length: 30 }, (_, i) => ({ place_id: `p${i}`, name: `place ${i}` })) as never[];
  const ctx = { query: 'coffee', params: { limit: 5, skip: 20 } };
  const steps = mapsSearch.plan(ctx);
  assert.ok(steps.length >= 1);
  const kept = mapsSearch.finish!(places, ctx) as Array<{ place_id: string }>;
  assert.deepEqual(kept.map((p) => p.place_id), ['p20', 'p21', 'p22', 'p23', 'p24']);
  assert.deepEqual((mapsSearch.finish!(places, { query: 'coffee', params: { limit: 5 } }) as Array<{ place_id: string }>).map((p) => p.place_id), ['p0', 'p1', 'p2', 'p3', 'p4']);
});

test('the versioned paths hosted clients call serve the same operations: /maps/search-v2, /maps/search-v3, /maps/reviews-v3', async () => {
  for (const path of ['/maps/search-v2', '/maps/search-v3']) {
    const r = await h.json(`${path}?query=n=2&organizationsPerQueryLimit=4&skipPlaces=0&dropDuplicates=false&async=false`);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.data[0].length, 2);
    const row = await h.svc.ctx.store.getRequest(r.body.id);
    assert.deepEqual([row!.endpoint, row!.params.limit], ['/maps/search', 4], path);
  }
  const rv = await h.json('/maps/reviews-v3?query=n=1&reviewsLimit=5&sort=newest&async=false');
  assert.equal(rv.status, 200, JSON.stringify(rv.body));
  const row = await h.svc.ctx.store.getRequest(rv.body.id);
  assert.deepEqual([row!.endpoint, row!.params.reviewsLimit, row!.params.sort], ['/maps/reviews', 5, 'newest']);
  assert.equal((await h.json('/maps/search-v4?query=n=1')).status, 404, 'only the versions clients use');
});
