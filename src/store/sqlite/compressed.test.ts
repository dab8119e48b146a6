import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore, type SqliteStore } from './store.ts';
import type { QueryResult } from '../contract.ts';

const records = (n: number, tag: string) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ name: `${tag} ${i} — Ελλάδα`, site: 'https://example.com/', rating: 4.5 })));

async function setup(compression?: number | null) {
  const s = await openSqliteStore(':memory:', { compression });
  await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 100_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
  await s.createRequest({ id: 'r', accountId: 'acct', endpoint: '/x', params: {}, queries: ['a', 'b', 'c'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 });
  await s.claimItems('w', 3, 60_000, 2);
  return s;
}
const read = async (s: SqliteStore) => { const out: QueryResult[] = []; for await (const r of s.readResults('r')) out.push(r); return out; };
const types = (s: SqliteStore, table: string) => (s.db.prepare(`SELECT typeof(records) AS t FROM ${table} ORDER BY query_index`).all() as { t: string }[]).map((r) => r.t);

test('sqlite: results and streamed chunks are stored compressed and read back as the same text', async () => {
  const s = await setup();
  try {
    await s.saveProgress({ itemId: 'r:1', owner: 'w', state: '{}', chunk: { recordsJson: records(40, 'chunk'), count: 40 }, now: 3 });
    assert.deepEqual(types(s, 'result_chunks'), ['blob']);
    await s.completeItem({ itemId: 'r:0', owner: 'w', recordsJson: records(40, 'first'), count: 40, now: 3 });
    await s.completeItem({ itemId: 'r:1', owner: 'w', recordsJson: records(40, 'tail'), count: 80, streamed: true, now: 3 });
    await s.completeItem({ itemId: 'r:2', owner: 'w', recordsJson: '[]', count: 0, now: 3 });
    assert.deepEqual(types(s, 'results'), ['blob', 'blob', 'text']);
    const got = await read(s);
    assert.deepEqual(got.map((r) => r.recordsJson), [records(40, 'first'), records(40, 'chunk'), records(40, 'tail'), '[]']);
    const stored = (s.db.prepare('SELECT SUM(length(records)) AS n FROM results').get() as { n: number }).n;
    assert.ok(stored * 4 < Buffer.byteLength(records(40, 'first')) * 2, `stored ${stored} bytes`);
  } finally { await s.close(); }
});

test('sqlite: rows stored as text before compression (older databases) still read back', async () => {
  const s = await setup();
  try {
    const old = records(40, 'old');
    s.db.prepare('INSERT INTO results (request_id, query_index, records, count) VALUES (?, ?, ?, ?)').run('r', 0, old, 40);
    await s.completeItem({ itemId: 'r:1', owner: 'w', recordsJson: records(40, 'new'), count: 40, now: 3 });
    assert.deepEqual(types(s, 'results'), ['text', 'blob']);
    assert.deepEqual((await read(s)).map((r) => r.recordsJson), [old, records(40, 'new')]);
  } finally { await s.close(); }
});

test('sqlite: RESULT_COMPRESSION=off stores text', async () => {
  const s = await setup(null);
  try {
    await s.completeItem({ itemId: 'r:0', owner: 'w', recordsJson: records(40, 'plain'), count: 40, now: 3 });
    assert.deepEqual(types(s, 'results'), ['text']);
    assert.equal((await read(s))[0].recordsJson, records(40, 'plain'));
  } finally { await s.close(); }
});

test('sqlite: a completion without the records\' bytes stores and answers with the text\'s own UTF-8, byte for byte', async () => {
  const s = await setup();
  try {
    const first = await s.completeItem({ itemId: 'r:0', owner: 'w', recordsJson: records(40, 'first'), count: 40, now: 3 });
    const second = await s.completeItem({ itemId: 'r:1', owner: 'w', recordsJson: records(30, 'second ☕'), count: 30, now: 3 });
    // The synchronous answer sends these bytes: each completion's own, not memory the next one reuses.
    assert.ok(first.stored?.recordsUtf8?.equals(Buffer.from(records(40, 'first'))));
    assert.ok(second.stored?.recordsUtf8?.equals(Buffer.from(records(30, 'second ☕'))));
    const { brotliDecompressSync } = await import('node:zlib');
    const rows = s.db.prepare('SELECT records FROM results ORDER BY query_index').all() as { records: Buffer }[];
    assert.ok(brotliDecompressSync(rows[0].records).equals(Buffer.from(records(40, 'first'))));
    assert.deepEqual((await read(s)).map((r) => r.recordsJson), [records(40, 'first'), records(30, 'second ☕')]);
  } finally { await s.close(); }
});
