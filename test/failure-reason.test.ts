/**
 * Every failure says why (issue 9, part 3): `/maps/search` on a machine that cannot reach the site
 * (the real adapter and executor, replaying an archive with no matching entry) ends as Failure, and
 * the reason is in `GET /requests/{id}` (204: header X-Request-Error), in the synchronous answer's
 * `errors`, and in the server log as one warn line per failed attempt plus an info line for the
 * finished request — never with the API key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startHarness, until } from './support/harness.ts';
import { defaultRegistry } from '../src/sources/registry.ts';
import { createLogger } from '../src/ops/log.ts';

test('a failed /maps/search shows its reason in the answer, the 204 header and the log', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-reason-'));
  const har = join(dir, 'empty.har');
  writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries: [] } }));
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const h = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: har }, settings: { maxAttempts: 2 }, log: createLogger('info', sink) });
  try {
    const sub = await h.json('/maps/search?query=coffee%20athens');
    assert.equal(sub.status, 202);
    const id = sub.body.id as string;
    const res = await until(async () => {
      const r = await h.get(`/requests/${id}`);
      return r.status === 204 ? r : null;
    }, 30_000, 'the request to fail');
    assert.equal(res.headers.get('x-request-status'), 'Failure');
    assert.match(res.headers.get('x-request-error') ?? '', /^network: no recorded response for GET https:\/\/www\.google\.com\/search/);

    const sync = await h.json('/maps/search?query=coffee%20athens&query=tea&async=false');
    assert.equal(sync.status, 200);
    assert.equal(sync.body.status, 'Failure');
    assert.deepEqual(sync.body.data, []);
    assert.deepEqual(sync.body.errors.map((e: any) => [e.query, e.error.type]), [['coffee athens', 'network'], ['tea', 'network']]);
    assert.match(sync.body.errors[0].error.message, /^no recorded response for GET /);

    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('');
    assert.ok(!all.includes(h.key), 'the API key never appears');
    const log = lines.map((l) => JSON.parse(l));
    const warns = log.filter((l) => l.msg === 'query attempt failed' && l.requestId === id);
    // A replay miss is final (retrying cannot find a response the archive lacks): one attempt of the two allowed.
    assert.deepEqual(warns.map((w) => [w.level, w.query, w.type, w.attempt, w.retry]), [[40, 'coffee athens', 'network', 1, false]],
      'one warn line per failed attempt');
    assert.match(warns[0].message, /^no recorded response for GET /);
    const done = log.filter((l) => l.msg === 'request finished' && l.requestId === id);
    assert.equal(done.length, 1);
    assert.equal(done[0].level, 30);
    assert.equal(done[0].status, 'Failure');
    assert.deepEqual([done[0].records, done[0].units], [0, 0]);
    assert.ok(done[0].ms >= 0);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
