/**
 * A full disk loses nothing (issue 16): SQLITE_FULL is an outage, not a final error. Fault injection
 * with SQLite's own limit: `max_page_count` pinned to the file's current size after its free pages
 * are used up, so every write that needs a new page fails with SQLITE_FULL, as on a full disk.
 * While full, finished queries stay leased (the request stays Pending, no partial Success), submits
 * answer 503 JSON and /ready is not ready; once there is room, every query is stored and billed once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { startHarness, until } from './support/harness.ts';
import type { SqliteStore } from '../src/store/sqlite/store.ts';

function fillDisk(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS t_disk_filler (x BLOB)');
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
  const insert = db.prepare('INSERT INTO t_disk_filler VALUES (randomblob(512))');
  for (let i = 0; i < 1_000_000; i++) {
    try {
      insert.run();
    } catch (e) {
      assert.equal((e as { code?: string }).code, 'SQLITE_FULL');
      return;
    }
  }
  assert.fail('the database never filled up');
}

function freeDisk(db: Database.Database): void {
  db.pragma('max_page_count = 1073741823');
  db.exec('DROP TABLE t_disk_filler');
}

test('SQLITE_FULL: queries stay leased and are stored once there is room; submits 503; /ready not ready', { timeout: 60_000 }, async () => {
  // Results stored as text: compressed, the test adapter's repetitive records would fit in the
  // space left inside partly filled pages, and the write would (rightly) succeed on the "full" disk.
  const h = await startHarness({ settings: { leaseMs: 600 }, backendEnv: { RESULT_COMPRESSION: 'off' } });
  const db = (h.svc.ctx.store as SqliteStore).db;
  try {
    const queries = ['sleep=300;n=300', 'sleep=300;n=250', 'sleep=300;n=200'];
    const sub = await h.json(`/maps/search?${queries.map((q) => `query=${encodeURIComponent(q)}`).join('&')}`);
    assert.equal(sub.status, 202);
    fillDisk(db);
    await new Promise((r) => setTimeout(r, 900));
    const during = await h.json(`/requests/${sub.body.id}`);
    assert.equal(during.body.status, 'Pending', 'no Success with queries missing');
    const ready = await h.json('/ready', { key: null });
    assert.equal(ready.status, 503);
    assert.match(ready.body.errorMessage, /SQLITE_FULL/);
    const refused = await h.json(`/maps/search?${Array.from({ length: 200 }, (_, i) => `query=n%3D1%3Bi%3D${i}`).join('&')}`);
    assert.equal(refused.status, 503);
    assert.match(refused.body.errorMessage, /^503 Service Unavailable: the store is unavailable/);
    assert.equal(refused.headers.get('retry-after'), '5');

    freeDisk(db);
    const done = await until(async () => {
      const r = await h.json(`/requests/${sub.body.id}`);
      return r.body.status !== 'Pending' ? r : null;
    }, 20_000, 'the request to end');
    assert.equal(done.body.status, 'Success');
    assert.deepEqual(done.body.data.map((recs: unknown[]) => recs.length), [300, 250, 200]);
    const row = await h.svc.ctx.store.getRequest(sub.body.id);
    assert.equal(row?.usage, 750, 'billed once');
  } finally {
    await h.close();
  }
});
