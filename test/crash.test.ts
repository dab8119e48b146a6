/**
 * Crash safety with real processes: start a 100-query request, `kill -9` the server mid-way, start
 * it again: the request completes with all 100 query results and every item is billed exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { sleep, startTrawl, stopTrawl } from './support/cluster.ts';

const start = (dir: string, port: number) =>
  startTrawl({ DATA_DIR: dir, PORT: String(port), LEASE_MS: '1500', CONCURRENCY: '4', RETRY_BASE_MS: '50' });

test('kill -9 mid-request loses nothing and bills every item exactly once', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-crash-'));
  // PORT=0: a free port each start, read from its listening line (a random fixed one may be held).
  const port = 0;
  try {
    let s = await start(dir, port);
    const qs = Array.from({ length: 100 }, (_, i) => `query=${encodeURIComponent(`sleep=60;n=2;i=${i}`)}`).join('&');
    const submit = await fetch(`${s.url}/maps/search?${qs}`, { headers: { 'x-api-key': s.key } });
    assert.equal(submit.status, 202);
    const { id } = await submit.json() as { id: string };
    // Let part of the work finish, then kill the process without any chance to clean up.
    for (;;) {
      const p = await (await fetch(`${s.url}/requests/${id}`, { headers: { 'x-api-key': s.key } })).json() as any;
      if (p.progress?.queries_done >= 25) break;
      await sleep(20);
    }
    await stopTrawl(s, 'SIGKILL');

    s = await start(dir, port);
    let final: any;
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${s.url}/requests/${id}`, { headers: { 'x-api-key': s.key } });
      final = await res.json();
      if (final.status === 'Success') break;
      await sleep(50);
    }
    assert.equal(final.status, 'Success');
    assert.equal(final.data.length, 100);
    for (let i = 0; i < 100; i++) {
      assert.equal(final.data[i].length, 2, `query ${i}`);
      assert.equal(final.data[i][0].query, `sleep=60;n=2;i=${i}`);
    }
    await stopTrawl(s);

    const store = await openSqliteStore(join(dir, 'trawl.db'));
    try {
      const row = await store.getRequest(id);
      assert.equal(row?.usage, 200, 'usage is 2 per query, once');
      const ledger = (store.db.prepare('SELECT COUNT(*) AS n, SUM(quantity) AS q, SUM(amount_micros) AS a FROM usage WHERE request_id = ?').get(id)) as any;
      assert.equal(ledger.n, 100, 'one ledger line per work item');
      assert.equal(ledger.q, 200);
      const account = (await store.listAccounts())[0];
      assert.equal(account.balanceMicros, 1_000_000_000 - ledger.a, 'the balance moved by exactly the ledger');
    } finally { await store.close(); }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
