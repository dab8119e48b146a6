import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from './store.ts';

test('the store file and its WAL are created readable by their owner only, whatever the umask', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-mode-'));
  const old = process.umask(0o022);
  try {
    const file = join(dir, 'data', 'trawl.db');
    const store = await openSqliteStore(file);
    await store.ping();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(`${file}-wal`).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'data')).mode & 0o777, 0o700);
    await store.close();
    // An existing file keeps the mode the operator gave it.
    const mine = join(dir, 'mine.db');
    writeFileSync(mine, '');
    chmodSync(mine, 0o640);
    const again = await openSqliteStore(mine);
    assert.equal(statSync(mine).mode & 0o777, 0o640);
    await again.close();
  } finally {
    process.umask(old);
    rmSync(dir, { recursive: true, force: true });
  }
});
