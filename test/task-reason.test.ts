/**
 * A failed task says why (issue 38): its request's reason ("type: message" of its first failed query)
 * is in `results[0].error` of `GET /tasks/{id}` (which answers every task of the account, a 404 for
 * another's or none) and of `GET /tasks`, and `trawl tasks` prints it where the file would be.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startHarness, until } from './support/harness.ts';

const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('GET /tasks/{id}: a failed task gives its request\'s reason; the list and the CLI show it', { timeout: 60_000 }, async () => {
  const h = await startHarness();
  try {
    // The test adapter's `fail` query ends in a layout_changed error that is not tried again.
    const bad = await h.json('/tasks', post({ service_name: 'engine_maps_service_v2', queries: ['fail'] }));
    assert.equal(bad.status, 200, JSON.stringify(bad.body));
    const good = await h.json('/tasks', post({ service_name: 'engine_maps_service_v2', queries: ['n=2'] }));
    const task = await until(async () => {
      const r = await h.json(`/tasks/${bad.body.id}`);
      return r.body.status === 'FAILURE' ? r : null;
    }, 30_000, 'the task ends');
    assert.equal(task.status, 200);
    assert.equal(task.body.id, bad.body.id);
    assert.deepEqual(task.body.metadata.queries, ['fail']);
    assert.match(task.body.results[0].error, /^layout_changed: test: no expected data/);
    const done = await until(async () => {
      const r = await h.json(`/tasks/${good.body.id}`);
      return r.body.status === 'SUCCESS' ? r : null;
    }, 30_000, 'the other task ends');
    assert.equal(done.body.results[0].error, undefined);
    assert.match(done.body.results[0].file_url, /\/tasks\/files\//);
    // Listed with the same reason.
    const listed = (await h.json('/tasks')).body.tasks.find((t: any) => t.id === bad.body.id);
    assert.equal(listed.results[0].error, task.body.results[0].error);
    // Another account's task, or none: 404 with the error body.
    const other = await h.newAccount();
    const theirs = await h.json(`/tasks/${bad.body.id}`, { key: other.key });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error, true);
    assert.equal((await h.json('/tasks/nope')).status, 404);
    // The CLI prints the reason in the task's row (a child process: the server runs in this one).
    const cli = await promisify(execFile)(process.execPath, ['bin/trawl.js', 'tasks'], { env: { ...process.env, TRAWL_API_KEY: h.key, TRAWL_URL: h.url }, encoding: 'utf8' });
    const row = cli.stdout.split('\n').find((l) => l.startsWith(bad.body.id));
    assert.match(row ?? '', /FAILURE.*layout_changed: test: no expected data/, cli.stdout);
  } finally { await h.close(); }
});
