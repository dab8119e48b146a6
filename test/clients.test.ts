/**
 * The typed clients end to end: clients/typescript (types regenerated here from the served
 * /openapi.json, so a document no generator can read fails this test) and clients/python (run with
 * the machine's python3) against a real `trawl serve`, plus the test adapter's server for failed
 * queries and a request that ends in Failure.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type Served } from './support/serve-real.ts';
import { startTrawl, stopTrawl, type TrawlProc } from './support/cluster.ts';
import { TrawlClient, TrawlError, type Progress } from '../clients/typescript/src/client.ts';
import { clientTypes } from '../scripts/client-types.ts';

const python = spawnSync('python3', ['--version']).status === 0;

let s: Served;
let t: TrawlProc;
const tdir = mkdtempSync(join(tmpdir(), 'trawl-clients-'));
before(async () => {
  [s, t] = await Promise.all([startServe(), startTrawl({ DATA_DIR: tdir, PORT: '0' })]);
});
after(async () => {
  await Promise.all([s?.close(), t && stopTrawl(t)]);
  rmSync(tdir, { recursive: true, force: true });
});

describe('TypeScript client', () => {
  test('its types generate from the served /openapi.json', async () => {
    const doc = await (await fetch(`${s.url}/openapi.json`)).json();
    const types = await clientTypes(doc);
    assert.match(types, /"\/reverse-geocoding": \{/);
    assert.match(types, /"\/profile\/keys": \{/);
  });

  test('run: 200 queries, progress to 100 %, typed records', { timeout: 120_000 }, async () => {
    const c = new TrawlClient({ apiKey: s.key, baseUrl: s.url });
    const seen: Progress[] = [];
    const queries = Array.from({ length: 200 }, (_, i) => `${(40 + i / 1000).toFixed(4)} ${(-74 + i / 1000).toFixed(4)}`);
    const r = await c.run('/reverse-geocoding', queries, {}, { onProgress: (p) => seen.push(p) });
    assert.equal(r.status, 'Success');
    if (r.status !== 'Success') return;
    assert.equal(r.data.length, 200);
    const city: string | null = r.data[0][0].city; // typed from the contract
    assert.ok(city);
    assert.equal(r.data[0][0].country_code, 'US');
    assert.deepEqual(seen.map((p) => p.queries_done), seen.map((p) => p.queries_done).sort((a, b) => a - b), 'progress never goes back');
    assert.deepEqual(seen.at(-1), { ...seen.at(-1), queries_done: 200, queries_total: 200, records: 200 });
  });

  test('params, task files, account operations, errors', { timeout: 60_000 }, async () => {
    const c = new TrawlClient({ apiKey: s.key, baseUrl: s.url });
    const f = await c.run('/reverse-geocoding', ['48.8584,2.2945'], { fields: 'query,city' });
    assert.deepEqual(f.status === 'Success' && f.data, [[{ query: '48.8584,2.2945', city: 'Paris' }]]);
    const { id } = await c.submit('/directory-phones', ['+12125551234'], { format: ['parquet'] });
    const file = Buffer.from(await (await c.taskFile(id)).arrayBuffer());
    assert.equal(file.subarray(0, 4).toString('latin1'), 'PAR1');
    const k = await c.createKey();
    const other = new TrawlClient({ apiKey: k.api_key, baseUrl: s.url });
    assert.equal((await other.balance()).id, (await c.balance()).id);
    await c.revokeKey(k.id);
    assert.ok((await c.keys()).find((x) => x.id === k.id)?.revoked);
    assert.equal((await c.usage(2)).days.length, 2);
    await assert.rejects(new TrawlClient({ apiKey: 'trw_wrong', baseUrl: s.url }).balance(), (e: TrawlError) => e.status === 401 && /^401 Unauthorized/.test(e.message));
    await assert.rejects(c.submit('/reverse-geocoding', ['not a point']), (e: TrawlError) => e.status === 422);
    const none = [];
    for await (const b of c.businesses({ filters: { name: 'no such business' }, limit: 2 })) none.push(b);
    assert.deepEqual(none, []);
    await assert.rejects(c.business('bz_000000000000000000000000'), (e: TrawlError) => e.status === 404 && /^404 Not Found: no business/.test(e.message));
  });

  test('failed queries are named; a Failure (204) is a result, not an exception', { timeout: 60_000 }, async () => {
    const c = new TrawlClient({ apiKey: t.key, baseUrl: t.url });
    const r = await c.run('/maps/search', ['n=2', 'fail']);
    assert.equal(r.status, 'Success');
    assert.deepEqual(r.errors.map((e) => [e.query, e.error.type]), [['fail', 'layout_changed']]);
    const { id } = await c.submit('/engine-places-by-domain', ['sleep=20000']);
    assert.ok((await c.requests({ type: 'running' })).some((x) => x.id === id));
    assert.equal(await c.cancel(id), `Request ${id} terminated`);
    const end = await c.wait(id);
    assert.equal(end.status, 'Failure');
  });

  test('businesses: places a search found, page after page, and one by its id', { timeout: 60_000 }, async () => {
    const c = new TrawlClient({ apiKey: t.key, baseUrl: t.url });
    assert.equal((await c.run('/maps/search', ['keys=ts1,ts2,ts3'])).status, 'Success');
    let items: Awaited<ReturnType<TrawlClient['business']>>[] = [];
    for (let i = 0; i < 100 && items.length < 3; i++) { // captured shortly after the request ends
      items = [];
      for await (const b of c.businesses({ filters: { name: 'place ts' }, limit: 2 })) items.push(b);
      if (items.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(items.map((b) => b.name).sort(), ['place ts1', 'place ts2', 'place ts3']);
    assert.deepEqual(await c.business(items[0].os_id, ['name', 'os_id']), { name: items[0].name, os_id: items[0].os_id });
  });

  test('a 429 waits for its Retry-After, then retries', async () => {
    const at: number[] = [];
    const srv = createServer((_req, res) => {
      at.push(Date.now());
      if (at.length === 1) res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":true,"errorMessage":"429 Too Many Requests"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":1}');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const c = new TrawlClient({ apiKey: 'k', baseUrl: `http://127.0.0.1:${(srv.address() as { port: number }).port}` });
      assert.deepEqual(await c.balance(), { balance: 1 });
      assert.equal(at.length, 2);
      assert.ok(at[1] - at[0] >= 950, `${at[1] - at[0]} ms`);
    } finally { srv.close(); }
  });
});

test('Python client (standard library only) against the same servers', { skip: python ? false : 'python3 is not installed', timeout: 180_000 }, () => {
  const r = spawnSync('python3', ['-m', 'unittest', '-v', 'test_trawl_client'], {
    cwd: 'clients/python', encoding: 'utf8', timeout: 170_000,
    env: { ...process.env, TRAWL_URL: s.url, TRAWL_API_KEY: s.key, TRAWL_TEST_URL: t.url, TRAWL_TEST_KEY: t.key, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /Ran 9 tests/);
  assert.match(r.stderr, /\nOK\n?$/);
});

test('both clients read TRAWL_URL and TRAWL_API_KEY when not given (README)', () => {
  const saved = { url: process.env.TRAWL_URL, key: process.env.TRAWL_API_KEY };
  try {
    process.env.TRAWL_URL = 'http://trawl.test:9090/';
    process.env.TRAWL_API_KEY = 'trw_env';
    assert.equal(new TrawlClient().baseUrl, 'http://trawl.test:9090');
    assert.equal(new TrawlClient({ baseUrl: 'http://x.test' }).baseUrl, 'http://x.test', 'an explicit URL wins');
    delete process.env.TRAWL_URL;
    assert.equal(new TrawlClient().baseUrl, 'http://127.0.0.1:8080');
    delete process.env.TRAWL_API_KEY;
    assert.throws(() => new TrawlClient(), /give apiKey or set TRAWL_API_KEY/);
    // The Python client, run as the README says (PYTHONPATH=clients/python).
    const py = spawnSync('python3', ['-c', 'from trawl_client import TrawlClient; c = TrawlClient(); print(c.base_url, c.api_key)'],
      { env: { ...process.env, PYTHONPATH: 'clients/python', TRAWL_URL: 'http://trawl.test:9090/', TRAWL_API_KEY: 'trw_env' }, encoding: 'utf8' });
    if (py.error) return; // no python3 here: the Python client's own test skips likewise
    assert.equal(py.stdout.trim(), 'http://trawl.test:9090 trw_env', py.stderr);
  } finally {
    if (saved.url === undefined) delete process.env.TRAWL_URL; else process.env.TRAWL_URL = saved.url;
    if (saved.key === undefined) delete process.env.TRAWL_API_KEY; else process.env.TRAWL_API_KEY = saved.key;
  }
});
