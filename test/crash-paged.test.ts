/**
 * A long paged query survives `kill -9` of its worker (issue 9): real processes, the real executor,
 * and a constructed paged source on loopback (test/support/paged-source.ts) serving 5,000 records in
 * pages of 50. The worker is killed in the middle; after a restart the query resumes from its last
 * checkpoint and ends with every record exactly once, billed once, and the source saw no page
 * fetched twice except the one that was in flight at the kill.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { getJson, sleep, startTrawl, stopTrawl, waitFor } from './support/cluster.ts';
import { startPagedServer } from './support/paged-source.ts';

const TOTAL = 5_000;
const PAGE = 50;

test('kill -9 in the middle of a 5,000-record paged query: resumed, every record once, billed once, no page refetched but the one in flight', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-crash-paged-'));
  const src = await startPagedServer({ total: TOTAL, pageSize: PAGE, delayMs: 15 });
  const env = { DATA_DIR: dir, PORT: '0', LEASE_MS: '1500', CONCURRENCY: '2', RETRY_BASE_MS: '50', PAGED_SOURCE_URL: src.url, ALLOW_PRIVATE_TARGETS: 'true' };
  try {
    let s = await startTrawl(env);
    const sub = await getJson(s, `/bizdir-reviews?query=shop&limit=${TOTAL}`);
    assert.equal(sub.status, 202, JSON.stringify(sub.body));
    const id = sub.body.id as string;
    await waitFor(async () => src.hits.size >= 40, 'the worker to be in the middle of the query', 60_000, 5);
    await stopTrawl(s, 'SIGKILL');
    const servedAtKill = src.hits.size;
    assert.ok(servedAtKill < TOTAL / PAGE, 'killed before the last page');

    s = await startTrawl(env);
    const final = await waitFor(async () => {
      const r = await getJson(s, `/requests/${id}`, 30_000);
      return r.status === 200 && r.body.status === 'Success' ? r.body : undefined;
    }, 'the resumed query to finish', 120_000, 100);
    await stopTrawl(s);

    const records = final.data[0] as { id: string; i: number; next_page_cursor: string | null }[];
    assert.equal(records.length, TOTAL);
    assert.deepEqual(records.map((r) => r.i), Array.from({ length: TOTAL }, (_, i) => i), 'every record exactly once, in order');
    // Each record's cursor continues after its page; the last page's records say there is no more.
    assert.ok(records.slice(0, -PAGE).every((r) => typeof r.next_page_cursor === 'string'));
    assert.ok(records.slice(-PAGE).every((r) => r.next_page_cursor === null));
    assert.equal(src.hits.size, TOTAL / PAGE, 'every page served');
    const twice = [...src.hits].filter(([, n]) => n > 1);
    assert.ok(twice.length <= 1, `pages served more than once: ${JSON.stringify(twice)}`);
    assert.ok(twice.every(([, n]) => n === 2));

    const store = await openSqliteStore(join(dir, 'trawl.db'));
    try {
      assert.equal((await store.getRequest(id))?.usage, TOTAL);
      const ledger = store.db.prepare('SELECT COUNT(*) AS n, SUM(quantity) AS q, SUM(amount_micros) AS a FROM usage WHERE request_id = ?').get(id) as any;
      assert.deepEqual([ledger.n, ledger.q], [1, TOTAL], 'one usage line for the query, over all its chunks');
      const account = (await store.listAccounts())[0];
      assert.equal(account.balanceMicros, 1_000_000_000 - ledger.a, 'the balance moved by exactly the ledger');
      const chunks = store.db.prepare('SELECT COUNT(*) AS n, SUM(count) AS c FROM result_chunks WHERE request_id = ?').get(id) as any;
      assert.deepEqual([chunks.n, chunks.c], [TOTAL / PAGE, TOTAL], 'stored page by page, never as one string');
    } finally { await store.close(); }
  } finally {
    await src.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
