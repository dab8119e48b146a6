/**
 * The synchronous answer (`async=false`) of a one-query request is sent from the result its worker
 * just stored, not read back from the store and expanded again (issue 15), and is byte for byte
 * what GET /requests/{id} sends for the same request; a request of several queries is read back.
 * Both stores (PostgreSQL when TEST_DATABASE_URL is set).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { PG_SKIP, dropSchema, pgTestUrl, scratchSchema } from '../src/store/postgres/testing.ts';

const pgUrl = pgTestUrl();

let h: Harness;
let reads = 0;
before(async () => {
  h = await startHarness();
  const store = h.svc.ctx.store;
  const read = store.readResults.bind(store);
  store.readResults = (...a) => { reads++; return read(...a); };
});
after(async () => { await h.close(); });

/** The sync answer's text, the store reads it took, and GET /requests/{id}'s text. */
async function both(path: string): Promise<{ sync: string; syncReads: number; get: string }> {
  reads = 0;
  const res = await h.get(path);
  assert.equal(res.status, 200);
  const sync = await res.text();
  const syncReads = reads;
  const got = await h.get(`/requests/${JSON.parse(sync).id}`);
  assert.equal(got.status, 200);
  return { sync, syncReads, get: await got.text() };
}

test('a one-query sync answer is not read back, and is the bytes GET /requests/{id} sends', async () => {
  // 30 records with a non-ASCII query in each: stored compressed, text beyond Latin-1.
  const r = await both(`/maps/search?async=false&query=${encodeURIComponent('n=30;x=καφές ☕ "quoted" \\ tab\t')}`);
  assert.equal(r.syncReads, 0, 'answered from the stored result');
  assert.equal(r.sync, r.get);
  assert.equal(JSON.parse(r.sync).data[0].length, 30);
});

test('fields given at submit shape both alike; a small and an empty result too', async () => {
  for (const q of ['n=30&fields=name,i', 'n=1', 'empty']) {
    const r = await both(`/maps/search?async=false&query=${q}`);
    assert.equal(r.syncReads, 0, q);
    assert.equal(r.sync, r.get, q);
  }
});

test('a request of several queries is read back from the store, with the same bytes as GET', async () => {
  const r = await both('/maps/search?async=false&query=n=2&query=n=3');
  assert.ok(r.syncReads > 0);
  assert.equal(r.sync, r.get);
  assert.deepEqual(JSON.parse(r.sync).data.map((d: unknown[]) => d.length), [2, 3]);
});

test('on PostgreSQL too: a one-query sync answer is not read back and is the bytes GET sends; several queries are read back', { skip: !pgUrl && PG_SKIP, timeout: 60_000 }, async () => {
  const schema = scratchSchema();
  const p = await startHarness({ backendEnv: { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema } });
  let pgReads = 0;
  const store = p.svc.ctx.store;
  const read = store.readResults.bind(store);
  store.readResults = (...a) => { pgReads++; return read(...a); };
  try {
    assert.equal(store.kind, 'postgres');
    for (const q of [encodeURIComponent('n=30;x=καφές ☕ "quoted" \\ tab\t'), 'n=30&fields=name,i', 'n=1', 'empty']) {
      pgReads = 0;
      const res = await p.get(`/maps/search?async=false&query=${q}`);
      assert.equal(res.status, 200, q);
      const sync = await res.text();
      assert.equal(pgReads, 0, `answered from the stored result: ${q}`);
      const got = await p.get(`/requests/${JSON.parse(sync).id}`);
      assert.equal(sync, await got.text(), q);
    }
    pgReads = 0;
    const several = await p.get('/maps/search?async=false&query=n=2&query=n=3');
    const text = await several.text();
    assert.ok(pgReads > 0);
    assert.deepEqual(JSON.parse(text).data.map((d: unknown[]) => d.length), [2, 3]);
  } finally {
    await p.close();
    await dropSchema(pgUrl!, schema);
  }
});
