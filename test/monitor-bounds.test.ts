/**
 * Monitor bounds (issue 28, item 3): POST and PATCH /monitors take at most 256 KiB (413 naming the
 * operation) and cap compare's lists (422 naming the field); GET /monitors lists each monitor's
 * queries bounded like a task's (the first 10, each cut to 200 characters, queries_count beside),
 * while GET /monitors/{id} shows them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';

const send = (body: unknown, method = 'POST') => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('monitors: 413 past 256 KiB, 422 past compare\'s caps, listings bounded', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    const base = { endpoint: '/maps/search', schedule: { every_s: 3600 }, status: 'paused' };
    const big = await h.json('/monitors', send({ ...base, queries: ['x'], note: 'n'.repeat(300 * 1024) }));
    assert.equal(big.status, 413);
    assert.equal(big.body.errorMessage, '413 Payload Too Large: the body is larger than 256 KiB, the most POST /monitors takes');
    const fields = await h.json('/monitors', send({ ...base, queries: ['x'], compare: { fields: Array(201).fill('name') } }));
    assert.equal(fields.status, 422);
    assert.match(fields.body.errorMessage, /^422 Unprocessable Entity: compare\.fields/);

    const queries = Array.from({ length: 30 }, (_, i) => `${i} ${'q'.repeat(300)}`);
    const created = await h.json('/monitors', send({ ...base, queries }));
    assert.equal(created.status, 200, JSON.stringify(created.body).slice(0, 300));
    const small = await h.json('/monitors', send({ ...base, queries: ['pizza'] }));
    assert.equal(small.status, 200);
    const patched = await h.json(`/monitors/${created.body.id}`, send({ queries: [...queries, 'n'.repeat(8000)].concat(Array(40).fill('p'.repeat(8000))) }, 'PATCH'));
    assert.equal(patched.status, 413, 'PATCH has the same cap');

    const { monitors } = (await h.json('/monitors')).body;
    const listed = monitors.find((m: { id: string }) => m.id === created.body.id);
    assert.deepEqual(listed.queries, queries.slice(0, 10).map((q) => q.slice(0, 200)));
    assert.equal(listed.queries_count, 30);
    const plain = monitors.find((m: { id: string }) => m.id === small.body.id);
    assert.deepEqual(plain.queries, ['pizza']);
    assert.equal(plain.queries_count, undefined);
    assert.deepEqual((await h.json(`/monitors/${created.body.id}`)).body.queries, queries, 'one monitor shows them all');
  } finally { await h.close(); }
});

test('monitors: params pass the endpoint\'s own checks at create and update, area included (issue 39)', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    const crossing = '{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}';
    const base = { endpoint: '/maps/search', schedule: { every_s: 3600 }, queries: ['pizza'] };
    const bad = await h.json('/monitors', send({ ...base, params: { area: crossing } }));
    assert.equal(bad.status, 422);
    assert.match(bad.body.errorMessage, /area GeoJSON polygon crosses itself \(ring 0: edge 0 meets edge 2/);
    const unknown = await h.json('/monitors', send({ ...base, params: { area: 'US>Nowhere' } }));
    assert.match(unknown.body.errorMessage, /US has no region or city named "Nowhere"/);
    const refused = await h.json('/monitors', send({ ...base, queries: ['bad query'] }));
    assert.equal(refused.status, 422, 'a query the adapter refuses');
    const ok = await h.json('/monitors', send({ ...base, params: { area: 'US>Nevada' }, status: 'paused' }));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const patched = await h.json(`/monitors/${ok.body.id}`, send({ params: { area: crossing } }, 'PATCH'));
    assert.equal(patched.status, 422);
    assert.match(patched.body.errorMessage, /crosses itself/);
    assert.equal((await h.json(`/monitors/${ok.body.id}`)).body.params.area, 'US>Nevada', 'the refused update changed nothing');
  } finally {
    await h.close();
  }
});
