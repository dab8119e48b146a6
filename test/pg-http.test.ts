/**
 * The HTTP read path on the PostgreSQL store: the request and its first results come in one round
 * trip, the rest page after them; order, shaping and 404s as on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { PG_SKIP, dropSchema, pgTestUrl, scratchSchema } from '../src/store/postgres/testing.ts';

const url = pgTestUrl();


test('GET /requests/{id} on PostgreSQL: 45 queries in order, flat and fields, other account 404', { skip: !url && PG_SKIP, timeout: 60_000 }, async () => {
  const schema = scratchSchema();
  const h = await startHarness({ backendEnv: { DATABASE_URL: url, DATABASE_SCHEMA: schema } });
  try {
    assert.equal(h.svc.ctx.store.kind, 'postgres');
    const qs = Array.from({ length: 45 }, (_, i) => `query=${encodeURIComponent(`n=2;i=${i}`)}`).join('&');
    const r = await h.json(`/maps/search?${qs}&async=false`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.length, 45);
    r.body.data.forEach((recs: any[], i: number) => assert.equal(recs[0].query, `n=2;i=${i}`));
    const again = await h.json(`/requests/${r.body.id}?flat=true&fields=query,i`);
    assert.equal(again.body.data.length, 90);
    assert.deepEqual(again.body.data[89], { query: 'n=2;i=44', i: 1 });
    const other = await h.newAccount();
    assert.equal((await h.json(`/requests/${r.body.id}`, { key: other.key })).status, 404);
  } finally {
    await h.close();
    await dropSchema(url!, schema);
  }
});

test('a NUL byte anywhere is a 422 on PostgreSQL as on SQLite, never a 500', { skip: !url && PG_SKIP, timeout: 60_000 }, async () => {
  const schema = scratchSchema();
  const h = await startHarness({ backendEnv: { DATABASE_URL: url, DATABASE_SCHEMA: schema } });
  try {
    for (const path of ['/maps/search?query=a%00b', '/maps/search?query=n=1&webhook=http://x%00.test/', '/requests?skip=%00', '/tasks?query=%00']) {
      const r = await h.json(path);
      assert.equal(r.status, 422, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    for (const path of ['/requests/%00', '/requests/00000000-0000-4000-8000-000000000000%00', '/tasks/files/%00x', '/webhook-calls/%00']) {
      const r = await h.json(path);
      assert.ok(r.status < 500 && r.body?.error === true, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    for (const body of [{ queries: ['a\u0000b'] }, { service_name: 'x\u0000' }, { tags: ['\u0000'] }]) {
      const r = await h.json('/tasks', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  } finally {
    await h.close();
    await dropSchema(url!, schema);
  }
});
