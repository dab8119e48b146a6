import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, type SqliteStore } from './store.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** About 2 MB of committed rows, in the log only while nobody checkpoints. */
function write(s: SqliteStore, tag: string) {
  const ins = s.db.prepare('INSERT INTO cp_test VALUES (?, ?)');
  s.db.transaction(() => { for (let i = 0; i < 500; i++) ins.run(`${tag}-${i}`, 'x'.repeat(4000)); })();
}

test('checkpoints run on their own thread: the database file takes in what was committed without the API connection checkpointing; closing leaves no log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-checkpointer-'));
  const file = join(dir, 'trawl.db');
  try {
    const s = await openSqliteStore(file);
    // The API connection never checkpoints by itself here, so only the thread can move pages.
    s.db.pragma('wal_autocheckpoint = 0');
    s.db.exec('CREATE TABLE cp_test (k TEXT PRIMARY KEY, v TEXT)');
    const size = () => statSync(file).size;
    const before = size();
    write(s, 'a');
    await sleep(150);
    assert.equal(size(), before, 'nothing reaches the file without a checkpoint');

    s.checkpointApart(50);
    const deadline = Date.now() + 5_000;
    while (size() < before + 1_500_000 && Date.now() < deadline) await sleep(20);
    assert.ok(size() >= before + 1_500_000, `the thread copied the log into the file (${size() - before} bytes)`);

    // The log starts over once copied: later writes reuse it instead of growing it. (A write that
    // begins while a checkpoint runs appends instead; the next one starts over.)
    const wal = statSync(`${file}-wal`).size;
    for (const tag of ['b', 'c', 'd']) {
      write(s, tag);
      await sleep(250);
    }
    const grown = statSync(`${file}-wal`).size - wal;
    assert.ok(grown < 4_400_000, `the log started over at least once in three writes of about 2.1 MB (grew ${grown} bytes)`);
    assert.equal((s.db.prepare('SELECT count(*) AS n FROM cp_test').get() as { n: number }).n, 2_000);

    await s.close();
    assert.equal(existsSync(`${file}-wal`), false, 'the thread closed first, so the API connection was the last and removed the log');
    const again = await openSqliteStore(file);
    assert.equal((again.db.prepare('SELECT count(*) AS n FROM cp_test').get() as { n: number }).n, 2_000, 'nothing lost');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no checkpoint thread for an in-memory database or with 0 ms', async () => {
  const m = await openSqliteStore(':memory:', { checkpointMs: 20 });
  await m.close();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-checkpointer-'));
  try {
    const s = await openSqliteStore(join(dir, 'trawl.db'), { checkpointMs: 0 });
    s.db.pragma('wal_autocheckpoint = 0');
    s.db.exec('CREATE TABLE cp_test (k TEXT PRIMARY KEY, v TEXT)');
    const before = statSync(join(dir, 'trawl.db')).size;
    write(s, 'a');
    await sleep(150);
    assert.equal(statSync(join(dir, 'trawl.db')).size, before);
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a checkpoint thread that cannot open the database says so on stderr (the API connection checkpoints by itself then)', async () => {
  const { startCheckpointer } = await import('./checkpointer.ts');
  // The thread does not hold the process open (unref): this test does, until the warning comes.
  const alive = setInterval(() => {}, 50);
  try {
    const warned = new Promise<string>((resolve) => process.once('warning', (w) => resolve(w.message)));
    const cp = startCheckpointer(join(tmpdir(), 'trawl-no-such-dir', 'missing.db'), 20);
    assert.match(await warned, /checkpoint thread for .*missing\.db ended: .*checkpoints run in commits again/);
    await cp.stop();
  } finally {
    clearInterval(alive);
  }
});
