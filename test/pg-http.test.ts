/**
 * The HTTP read path on the PostgreSQL store: the request and its first results come in one round
 * trip, the rest page after them; order, shaping and 404s as on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startHarness } from './support/harness.ts';
import { PG_SKIP, pgTestUrl } from '../src/store/postgres/testing.ts';

const url = pgTestUrl();

test('GET /requests/{id} on PostgreSQL: 45 queries in order, flat and fields, other account 404', { skip: !url && PG_SKIP, timeout: 60_000 }, async () => {
  const schema = `trawl_test_${randomBytes(4).toString('hex')}`;
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
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
});
