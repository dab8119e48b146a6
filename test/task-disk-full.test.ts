/**
 * A task whose file meets a full disk (issue 28): it stays PENDING while the disk is full (its
 * request Success, its results readable), and the recovery sweep writes the file once there is
 * room; a cause that does not pass ends the task FAILURE with the reason, its results still readable.
 * The full disk is real: a 64 KiB tmpfs mounted on DATA_DIR/files (needs root), filled by a file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, until, type Harness } from './support/harness.ts';

const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Mounts a 64 KiB tmpfs on `dir`; false when this process may not mount (not root). */
function mountTiny(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
}
const canMount = (() => {
  const probe = join('/tmp', `trawl-mount-probe-${process.pid}`);
  const ok = mountTiny(probe) && spawnSync('umount', [probe]).status === 0;
  rmSync(probe, { recursive: true, force: true });
  return ok;
})();

/** Fills the file system of `dir` with one file; returns its path. */
function fill(dir: string): string {
  const filler = join(dir, 'filler');
  writeFileSync(filler, '');
  for (;;) {
    try { appendFileSync(filler, Buffer.alloc(1024)); } catch (e) { assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC'); return filler; }
  }
}

async function taskOf(h: Harness, id: string) {
  return (await h.json('/tasks')).body.tasks.find((t: { id: string }) => t.id === id);
}

test('a full disk during the export: the task waits PENDING, then gets its file once there is room', { skip: canMount ? false : 'mounting a tmpfs needs root (CAP_SYS_ADMIN)', timeout: 60_000 }, async () => {
  const h = await startHarness({ settings: { taskRetryMs: 200 } });
  const files = join(h.dir, 'files');
  assert.ok(mountTiny(files));
  try {
    const filler = fill(files);
    const created = await h.json('/tasks', post({ queries: ['n=300'], settings: { output_extension: 'csv' } }));
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const task = await until(async () => { const t = await h.svc.ctx.store.getTask(created.body.id); return t?.requestId ? t : null; });
    const done = await until(async () => { const r = await h.json(`/requests/${task.requestId}`); return r.body.status === 'Success' && r; }, 20_000, 'the request');
    assert.equal(done.body.data[0].length, 300);
    // Several sweeps (every 200 ms) meet the full disk: still PENDING, no file, nothing left behind.
    await new Promise((r) => setTimeout(r, 1_200));
    const waiting = await taskOf(h, task.id);
    assert.equal(waiting.status, 'PENDING');
    assert.equal(waiting.results.length, 0);
    assert.equal(existsSync(join(files, `${task.id}.csv`)), false);
    assert.equal((await h.json(`/requests/${task.requestId}`)).body.data[0].length, 300, 'the results stay readable');

    rmSync(filler);
    const ended = await until(async () => { const t = await taskOf(h, task.id); return t.status !== 'PENDING' && t; }, 10_000, 'the task to end');
    assert.equal(ended.status, 'SUCCESS');
    // Connection: close, so that closing the harness does not wait on an idle keep-alive connection.
    const file = await fetch(ended.results[0].file_url, { headers: { connection: 'close' }, signal: AbortSignal.timeout(10_000) });
    assert.equal(file.status, 200);
    const body = await file.text();
    assert.equal(body.trim().split('\n').length, 301, 'a header and 300 rows');
  } finally {
    spawnSync('umount', ['-l', files]);
    await h.close();
  }
});

test('a cause that does not pass: the task ends FAILURE with the reason, its request\'s results stay readable', async () => {
  const h = await startHarness({ settings: { taskRetryMs: 200 } });
  try {
    // DATA_DIR/files is a plain file: no file can be written under it, now or later.
    writeFileSync(join(h.dir, 'files'), 'not a directory');
    const created = await h.json('/tasks', post({ queries: ['n=3'], settings: { output_extension: 'csv' } }));
    assert.equal(created.status, 200);
    const ended = await until(async () => { const t = await taskOf(h, created.body.id); return t?.status !== 'PENDING' && t; }, 20_000, 'the task to end');
    assert.equal(ended.status, 'FAILURE');
    assert.match(ended.results[0].error, /^the file could not be written: .*(EEXIST|ENOTDIR)/);
    assert.equal(ended.results[0].quantity, 3);
    const row = (await h.svc.ctx.store.getTask(created.body.id))!;
    const results = await h.json(`/requests/${row.requestId}`);
    assert.equal(results.status, 200);
    assert.equal(results.body.data[0].length, 3);
  } finally { await h.close(); }
});
