/**
 * Answers that say what happened (issue 27 item 4): unknown parameters named (header, log; 422 in
 * strict mode), DELETE of a finished request, POST /tasks errors in the body's own field names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { startHarness, until } from './support/harness.ts';
import { createLogger } from '../src/ops/log.ts';
import { unknownParams } from '../src/http/unknown-params.ts';
import { parseQueryString } from '../src/contract/params.ts';
import { attempts } from './support/test-adapter.ts';

test('unknownParams: names what the operation does not read, with the nearest known name', () => {
  assert.deepEqual(unknownParams(parseQueryString('query=a&limitt=5&apiKey=k&zzz=1'), ['query', 'limit', 'language']), [
    { name: 'limitt', near: 'limit' }, { name: 'zzz', near: undefined },
  ]);
  assert.deepEqual(unknownParams(parseQueryString('query=a&limit=5'), ['query', 'limit']), []);
});

test('a typo is named in X-Unknown-Parameters and the log, and the call still runs (lenient by default)', async () => {
  const lines: string[] = [];
  const h = await startHarness();
  (h.svc.ctx as any).log = createLogger('info', new Writable({ write(c, _e, cb) { lines.push(String(c)); cb(); } }));
  try {
    const r = await h.json('/maps/search?query=n=1&limitt=5&organizationsPerQueryLimit=2&async=false');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-unknown-parameters'), 'limitt', 'aliases are known names');
    const clean = await h.json('/maps/search?query=n=1&limit=5&async=false');
    assert.equal(clean.headers.get('x-unknown-parameters'), null);
    const acct = await h.json('/requests?type=finished&pagesize=3');
    assert.equal(acct.status, 200);
    assert.equal(acct.headers.get('x-unknown-parameters'), 'pagesize');
    await new Promise((r) => setTimeout(r, 20));
    const warn = lines.map((l) => JSON.parse(l)).filter((l) => l.unknown);
    assert.deepEqual(warn.map((l) => l.unknown), [['limitt'], ['pagesize']]);
    assert.match(warn[0].msg, /limitt \(did you mean limit\?\)/);
  } finally { await h.close(); }
});

test('STRICT_PARAMS refuses an unknown parameter with 422 before anything is stored', async () => {
  const h = await startHarness({ settings: { strictParams: true } });
  try {
    const r = await h.json('/maps/search?query=n=1&limitt=5');
    assert.equal(r.status, 422);
    assert.match(r.body.errorMessage, /unknown parameter limitt \(did you mean limit\?\).*STRICT_PARAMS/);
    assert.equal((await h.svc.ctx.store.listRequests(h.account.id, { finished: false, since: 0, skip: 0, limit: 10 })).length, 0);
    assert.equal((await h.json('/maps/search?query=n=1&limit=5&async=false')).status, 200);
  } finally { await h.close(); }
});

test('DELETE of a finished request says it had already finished; of a running one, terminated', async () => {
  const h = await startHarness();
  try {
    const { id } = (await h.json('/maps/search?query=n=1')).body;
    await until(async () => (await h.svc.ctx.store.getRequest(id))?.status === 'Success', 10_000, 'the request to finish');
    const d = await h.get(`/requests/${id}`, { method: 'DELETE' });
    assert.equal(d.status, 200);
    assert.equal(await d.text(), `Request ${id} had already finished (Success); nothing was terminated`);
    const slow = await h.json('/engine-places-by-domain?query=sleep=20000');
    const c = await h.get(`/requests/${slow.body.id}`, { method: 'DELETE' });
    assert.equal(await c.text(), `Request ${slow.body.id} terminated`);
  } finally { await h.close(); }
});

test('POST /tasks without queries names the body field, not the query string', async () => {
  const h = await startHarness();
  try {
    const post = (body: unknown) => h.json('/tasks', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const r = await post({});
    assert.equal(r.status, 422);
    assert.match(r.body.errorMessage, /: queries is required: .*"queries" array/);
    assert.doesNotMatch(r.body.errorMessage, /query=/);
  } finally { await h.close(); }
});

test('a name that does not resolve fails its query at once with the reason; a transient DNS error is retried', { timeout: 60_000 }, async () => {
  const h = await startHarness({ settings: { retryBaseMs: 100 } });
  try {
    const t0 = Date.now();
    const r = await h.json('/maps/search?query=dns=ENOTFOUND&async=false');
    assert.ok(Date.now() - t0 < 2_000, `failed in ${Date.now() - t0} ms`);
    assert.equal(r.headers.get('x-request-status'), 'Failure');
    assert.deepEqual(r.body.errors[0].error, { type: 'network', message: 'ENOTFOUND fetching maps.test: getaddrinfo ENOTFOUND maps.test (the name does not resolve)' });
    assert.equal(attempts.get('/maps/search|dns=ENOTFOUND'), 1, 'not retried');
    const again = await h.json('/maps/search?query=dns=EAI_AGAIN&async=false');
    assert.equal(again.headers.get('x-request-status'), 'Failure');
    assert.equal(attempts.get('/maps/search|dns=EAI_AGAIN'), h.svc.ctx.settings.maxAttempts, 'retried up to the attempts allowed');
  } finally { await h.close(); }
});

test('task CSV: a phone survives by default; settings.escape_formulas true escapes it, a non-boolean is refused', { timeout: 60_000 }, async () => {
  const h = await startHarness();
  try {
    const post = (settings: Record<string, unknown>) => h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', queries: ['n=1;phone=+14153127128'], settings: { output_extension: 'csv', ...settings } }), headers: { 'content-type': 'application/json' } });
    const fileOf = async (settings: Record<string, unknown>) => {
      const { body } = await post(settings);
      const t = await until(async () => { const x = await h.svc.ctx.store.getTask(body.id); return x?.status === 'SUCCESS' ? x : null; }, 30_000, 'the task file');
      return readFileSync(t.filePath!, 'utf8');
    };
    assert.match(await fileOf({}), /,"\+14153127128"/);
    assert.match(await fileOf({ escape_formulas: true }), /,"'\+14153127128"/);
    const bad = await post({ escape_formulas: 'yes' });
    assert.equal(bad.status, 422);
    assert.match(bad.body.errorMessage, /settings\.escape_formulas must be true .* or false/);
  } finally { await h.close(); }
});
