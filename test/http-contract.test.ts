/**
 * HTTP contract: every status each operation can answer, the exact error body prefixes, leniency,
 * 0 and 1001 queries, expiry, DELETE, history paging, tasks paging, fields/flat shaping.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { dataEndpoints } from '../src/contract/endpoints/index.ts';
import { accountOperations } from '../src/contract/account.ts';
import { LANGUAGES } from '../src/contract/enums.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

const PREFIX = { 401: '401 Unauthorized', 402: '402 Payment Required', 404: '404 Not Found', 422: '422 Unprocessable Entity', 429: '429 Too Many Requests' };
function isError(r: { status: number; body: any }, status: keyof typeof PREFIX, also?: RegExp) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error, true);
  assert.ok(r.body.errorMessage.startsWith(PREFIX[status]), r.body.errorMessage);
  if (also) assert.match(r.body.errorMessage, also);
}

async function finished(id: string) {
  return until(async () => {
    const r = await h.json(`/requests/${id}`);
    return r.status === 204 || (r.status === 200 && r.body.status !== 'Pending') ? r : null;
  }, 30_000, `request ${id}`);
}

describe('authentication', () => {
  test('missing, wrong and revoked keys are 401 with the interface prefix on every operation', async () => {
    for (const e of dataEndpoints) isError(await h.json(`${e.path}?query=n=1`, { key: null }), 401);
    for (const o of accountOperations.filter((x) => !x.public)) {
      isError(await h.json(o.path.replace(/\{\w+\}/g, 'x'), { method: o.method, key: 'trw_wrong' }), 401);
    }
    const other = await h.newAccount();
    const keys = await h.svc.ctx.store.listApiKeys(other.account.id);
    await h.svc.ctx.store.revokeApiKey(keys[0].id, Date.now());
    isError(await h.json('/profile/balance', { key: other.key }), 401);
  });

  test('the apiKey query parameter works too', async () => {
    const r = await h.json(`/profile/balance?apiKey=${encodeURIComponent(h.key)}`, { key: null });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, h.account.id);
  });
});

describe('submit and fetch', () => {
  test('async: 202 with id, Pending and results_location; then 200 with one array per query', async () => {
    const r = await h.json('/maps/search?query=n=2&query=n=1');
    assert.equal(r.status, 202);
    assert.match(r.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'UUID v4');
    assert.equal(r.body.status, 'Pending');
    assert.equal(r.body.results_location, `${h.url}/requests/${r.body.id}`);
    const done = await finished(r.body.id);
    assert.equal(done.status, 200);
    assert.equal(done.body.status, 'Success');
    assert.equal(done.body.data.length, 2);
    assert.equal(done.body.data[0].length, 2);
    assert.equal(done.body.data[0][0].query, 'n=2');
    assert.equal(done.body.data[1].length, 1);
  });

  test('sync: 200 with data at once', async () => {
    const r = await h.json('/maps/search?query=n=3&async=false');
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'Success');
    assert.equal(r.body.data[0].length, 3);
  });

  test('while running: Pending with progress', async () => {
    const r = await h.json('/maps/search?query=sleep=600&query=n=1');
    const p = await until(async () => {
      const x = await h.json(`/requests/${r.body.id}`);
      return x.body.progress?.queries_done === 1 ? x : null;
    });
    assert.equal(p.status, 200);
    assert.deepEqual(p.body, { id: r.body.id, status: 'Pending', progress: { queries_total: 2, queries_done: 1, records: 1 } });
    await finished(r.body.id);
  });

  test('a request whose every query failed: 204 without body, with status headers; sync too on 204 endpoints', async () => {
    const r = await h.json('/maps/search?query=fail');
    const res = await until(async () => {
      const x = await h.get(`/requests/${r.body.id}`);
      return x.status === 204 ? x : null;
    });
    assert.equal(await res.text(), '');
    assert.equal(res.headers.get('x-request-id'), r.body.id);
    assert.equal(res.headers.get('x-request-status'), 'Failure');
    assert.equal(res.headers.get('x-request-error'), 'layout_changed: test: no expected data', 'the first reason, in a header');
    const sync = await h.get('/engine-places-by-domain?query=fail&async=false');
    assert.equal(sync.status, 204);
    assert.equal(sync.headers.get('x-request-status'), 'Failure');
    assert.equal(sync.headers.get('x-request-error'), 'layout_changed: test: no expected data');
  });

  test('some queries failed: Success with their data, failed queries named', async () => {
    const r = await h.json('/maps/search?query=n=1&query=fail&async=false');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data[1], []);
    assert.deepEqual(r.body.errors, [{ query: 'fail', error: { type: 'layout_changed', message: 'test: no expected data' } }]);
  });

  test('retryable source errors are retried with backoff until they succeed', async () => {
    const r = await h.json('/maps/search?query=flaky=2;n=1&async=false');
    assert.equal(r.status, 200);
    assert.equal(r.body.data[0].length, 1);
  });

  test('unknown request id, malformed id and another account\'s request are the same 404', async () => {
    isError(await h.json('/requests/00000000-0000-4000-8000-000000000000'), 404, /no request 00000000-0000-4000-8000-000000000000/);
    isError(await h.json(`/requests/${'x'.repeat(300)}`), 404);
    const mine = await h.json('/maps/search?query=n=1&async=false');
    const other = await h.newAccount();
    const r = await h.json(`/requests/${mine.body.id}`, { key: other.key });
    isError(r, 404, new RegExp(`no request ${mine.body.id}`));
    isError(await h.json(`/requests/${mine.body.id}`, { method: 'DELETE', key: other.key }), 404);
  });
});

describe('shaping', () => {
  test('flat combines all queries; fields keeps only the named fields', async () => {
    const r = await h.json('/maps/search?query=n=2&query=n=1&async=false&fields=name,rating');
    assert.deepEqual(r.body.data[0][0], { name: 'record 0', rating: 4.5 });
    const flat = await h.json(`/requests/${r.body.id}?flat=true`);
    assert.equal(flat.body.data.length, 3);
    assert.deepEqual(Object.keys(flat.body.data[0]).sort(), ['name', 'rating']);
    const f2 = await h.json(`/requests/${r.body.id}?flat=1&fields=query,%20i`);
    assert.deepEqual(f2.body.data[2], { query: 'n=1', i: 0 });
  });

  test('dropDuplicates: one flat array without equal organisations, billed only once each', async () => {
    const micros = async () => (await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros;
    const before = await micros();
    const r = await h.json('/maps/search?query=keys=a,b&query=keys=b,c&dropDuplicates=true&async=false');
    assert.deepEqual(r.body.data.map((x: any) => x.engine_id), ['a', 'b', 'c']);
    const history = await h.json('/requests?type=finished&pageSize=100');
    assert.equal(history.body.find((x: any) => x.id === r.body.id).usage, '3');
    assert.equal(before - await micros(), 3 * 3_000);
  });
});

describe('totalLimit', () => {
  test('records across all queries stop at totalLimit, exactly, and only those are billed', async () => {
    const acct = await h.newAccount();
    const r = await h.json('/maps/search?query=n=3&query=n=3&query=n=3&totalLimit=5&async=false', { key: acct.key });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.flat().length, 5);
    const hist = (await h.json('/requests?type=finished', { key: acct.key })).body;
    assert.equal(hist[0].usage, '5');
  });
});

describe('validation and leniency', () => {
  test('0 and 1001 queries are 422', async () => {
    isError(await h.json('/maps/search'), 422, /query is required/);
    isError(await h.json('/maps/search?query='), 422, /query is required/);
    const many = Array.from({ length: 1001 }, (_, i) => `query=q${i}`).join('&');
    isError(await h.json(`/maps/search?${many}`), 422, /at most 1000/);
    const thousand = Array.from({ length: 1000 }, () => 'query=empty').join('&');
    assert.equal((await h.json(`/reverse-geocoding?${thousand}`)).status, 202);
  });

  test('garbage in parameters names the parameter, never 500', async () => {
    const cases: [string, RegExp][] = [
      ['/maps/search?query=a&limit=most_relevant', /limit must be an integer from 1 to 1000000, got "most_relevant"/],
      ['/maps/search?query=a&limit=0', /limit must be an integer from 1 to 1000000/],
      ['/maps/search?query=a&limit=501', /limit is 501; a query holds at most 500 places unless it has an area/],
      ['/maps/search?query=a&area=XX%3EFoo', /area "XX>Foo" is not a location/],
      ['/maps/search?query=a&area=-170,0,20,10', /area box spans 190° of longitude/],
      ['/maps/search?query=a&limit=1e3', /limit must be an integer/],
      ['/maps/search?query=a&async=maybe', /async must be a boolean/],
      ['/maps/search?query=a&language=klingon', /language must be one of/],
      ['/maps/search?query=a&region=ZZ', /region must be one of/],
      ['/maps/search?query=a&format=docx', /format must be one of xlsx, csv, json, parquet, got "docx"/],
      ['/maps/search?query=a&enrichment=nope', /enrichment must be one of/],
      ['/maps/search?query=a&enrichment=domains_service', /enrichment must be one of .*got "domains_service"/],
      ['/maps/search?query=a&coordinates=nowhere', /coordinates must match/],
      ['/maps/reviews?query=a&sort=best', /sort must be one of most_relevant, newest, highest_rating, lowest_rating/],
      ['/maps/reviews?query=a&cutoffRating=3', /cutoffRating needs sort highest_rating or lowest_rating/],
      ['/videosite-videos?query=a', /shorts is required/],
      ['/requests?type=all', /type must be one of running, finished/],
      ['/requests?pageSize=-1', /pageSize must be an integer/],
      ['/tasks?pageSize=abc', /pageSize must be an integer/],
      ['/maps/search?query=%FF', /query is not valid percent-encoded UTF-8/],
      [`/maps/search?query=a&webhook=${'x'.repeat(100_000)}`, /webhook must be at most 2048 characters/],
      ['/maps/search?query=a&webhook=ftp://example.com/x', /webhook must be an http\(s\) URL/],
      ['/maps/search?query=a&webhook=not a url', /webhook must be an absolute/],
      ['/maps/search?query=bad-one', /refused by the test adapter/],
      ['/locations?country=QQ', /country must be a two-letter country code/],
      ['/locations', /country is required/],
    ];
    for (const [path, re] of cases) isError(await h.json(path), 422, re);
  });

  test('bad JSON bodies and wrong body types are 422; huge bodies 413; all JSON', async () => {
    const post = (path: string, body: string, type = 'application/json') => h.json(path, { method: 'POST', body, headers: { 'content-type': type } });
    isError(await post('/tasks', '{"queries": ['), 422, /not valid JSON/);
    isError(await post('/tasks', '[1,2]'), 422, /body must be a JSON object/);
    isError(await post('/tasks', '{"queries": "pizza"}'), 422, /queries/);
    isError(await post('/tasks', '{"service_name": "nope"}'), 422, /service_name must be one of/);
    isError(await post('/businesses', '{"limit": 5000}'), 422, /limit/);
    isError(await post('/businesses', '{"filters": {"business_statuses": ["open"]}}'), 422, /business_statuses/);
    const big = await post('/tasks', JSON.stringify({ queries: ['x'.repeat(2_000_000)] }));
    assert.equal(big.status, 413);
    assert.equal(big.body.error, true);
  });

  test('lenient forms: key[], True/1, empty = absent, cutoff=0, region case, comma enum, synonyms, unknown params', async () => {
    const r = await h.json('/maps/search?query[]=n=1&query[]=n=2&async=False&region=us&cursor=&fields=&enrichment=leads_n_contacts,phones_enricher_service&unknown=1&language=');
    // The synonym was read: contacts_n_leads ran (its fields are there), beside the phone enrichment.
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(r.body.data.map((q: unknown[]) => q.length), [1, 2]);
    for (const rec of r.body.data.flat()) assert.ok('site_status' in rec && 'phone_carrier_name' in rec, JSON.stringify(rec));
    const ok = await h.json('/maps/reviews?query=n=1&async=0&cutoff=0&cutoffRating=0&ignoreEmpty=True&region=gb&lastPaginationId=');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data[0].length, 1);
  });

  test('404 and 405 are JSON', async () => {
    isError(await h.json('/no/such/thing'), 404, /no operation GET \/no\/such\/thing/);
    const r = await h.json('/maps/search?query=a', { method: 'POST' });
    assert.equal(r.status, 405);
    assert.equal(r.body.error, true);
  });
});

describe('endpoints without an adapter', () => {
  test('answer 501 naming the endpoint, after authentication', async () => {
    const h2 = await startHarness({ adapters: (await import('./support/test-adapter.ts')).testRegistry(['/maps/search']) });
    try {
      const r = await h2.json('/bizdir-reviews?query=x');
      assert.equal(r.status, 501);
      assert.equal(r.body.error, true);
      assert.match(r.body.errorMessage, /^501 Not Implemented: \/bizdir-reviews has no source adapter/);
      assert.match(r.body.errorMessage, /it serves \/maps\/search$/, 'the 501 answer names what this deployment serves');
      const page = await (await h2.get('/docs', { key: null })).text();
      // Its paths: the endpoint and the versioned paths hosted clients call it by.
      assert.match(page, /Serves 3 data endpoints: <a href="#get\/maps\/search"><code>\/maps\/search<\/code><\/a>, <a href="#get\/maps\/search-v2">/);
      assert.match(page, /<code>\/bizdir-reviews<\/code><\/a>,/, 'the endpoints answering 501 are listed');
      const doc = (await h2.json('/openapi.json', { key: null })).body;
      assert.equal(doc.paths['/maps/search'].get['x-served'], true);
      assert.equal(doc.paths['/bizdir-reviews'].get['x-served'], false);
      // The business database needs no adapter: an empty database is an empty page.
      assert.equal((await h2.json('/businesses', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status, 200);
    } finally { await h2.close(); }
  });
});

describe('402 and 429', () => {
  test('402 when balance plus credit is at or below zero, or past due', async () => {
    const broke = await h.newAccount({ balance: 0 });
    isError(await h.json('/maps/search?query=n=1', { key: broke.key }), 402, /please close past due invoices or verify your card data/);
    const credit = await h.newAccount({ balance: 0, creditLimit: 5 });
    assert.equal((await h.json('/maps/search?query=n=1', { key: credit.key })).status, 202);
    const late = await h.newAccount({ balance: 50 });
    await h.svc.ctx.store.updateAccount(late.account.id, { pastDue: true });
    isError(await h.json('/reverse-geocoding?query=n=1', { key: late.key }), 402);
    isError(await h.json('/tasks', { method: 'POST', key: late.key, body: '{"queries":["a"]}', headers: { 'content-type': 'application/json' } }), 402);
  });

  test('429 with Retry-After past the per-account burst; other accounts unaffected', async () => {
    const slow = await h.newAccount({ ratePerSec: 1, burst: 3 });
    const codes: number[] = [];
    let last: any;
    for (let i = 0; i < 5; i++) {
      last = await h.get('/profile/balance', { key: slow.key });
      codes.push(last.status);
    }
    assert.deepEqual(codes, [200, 200, 200, 429, 429]);
    assert.equal(last.headers.get('retry-after'), '1');
    const body = await last.json();
    assert.ok(body.errorMessage.startsWith('429 Too Many Requests'));
    assert.equal((await h.json('/profile/balance')).status, 200);
  });
});

describe('DELETE, history and expiry', () => {
  test('DELETE cancels what is not finished: plain-text confirmation, Failure, only extracted items billed and still readable', async () => {
    const r = await h.json('/maps/search?query=n=2&query=sleep=5000&query=sleep=5000');
    await until(async () => (await h.json(`/requests/${r.body.id}`)).body.progress?.queries_done === 1);
    const res = await h.get(`/requests/${r.body.id}`, { method: 'DELETE' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await res.text(), `Request ${r.body.id} terminated`);
    // What finished (and was billed) before the DELETE stays readable: a partial result.
    const partial = await h.json(`/requests/${r.body.id}`);
    assert.equal(partial.status, 200, JSON.stringify(partial.body));
    assert.equal(partial.body.status, 'Failure');
    assert.equal(partial.body.cancelled, true);
    assert.equal((partial.body.data as unknown[][]).flat().length, 2, 'the finished query\'s records');
    assert.ok(partial.body.errors.some((e: any) => e.error.type === 'cancelled'));
    const hist = await h.json('/requests?type=finished&pageSize=100');
    assert.equal(hist.body.find((x: any) => x.id === r.body.id).usage, '2');
  });

  test('history: running vs finished, skip and pageSize, at most 100, items {id, usage} plus endpoint, status, progress', async () => {
    const acct = await h.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.json('/maps/search?query=n=1&async=false', { key: acct.key })).body.id);
    const running = (await h.json('/maps/search?query=sleep=3000', { key: acct.key })).body.id;
    const fin = await h.json('/requests?type=finished', { key: acct.key });
    assert.deepEqual(fin.body.map((x: any) => x.id), ids.reverse());
    const { id, usage, endpoint, status, progress } = fin.body[0];
    assert.deepEqual({ id, usage, endpoint, status, progress }, { id: ids[0], usage: '1', endpoint: '/maps/search', status: 'Success', progress: { queries_total: 1, queries_done: 1, records: 1 } });
    const page = await h.json('/requests?type=finished&skip=1&pageSize=2', { key: acct.key });
    assert.deepEqual(page.body.map((x: any) => x.id), ids.slice(1, 3));
    const run = await h.json('/requests', { key: acct.key });
    assert.deepEqual(run.body.map((x: any) => x.id), [running]);
    assert.deepEqual((await h.json('/requests?type=finished&skip=100', { key: acct.key })).body, []);
    await h.get(`/requests/${running}`, { method: 'DELETE', key: acct.key });
  });

  test('history: a request that ended in Failure carries the reason of its first failed query, or says it was cancelled', async () => {
    const acct = await h.newAccount();
    const ok = (await h.json('/maps/search?query=n=1&async=false', { key: acct.key })).body.id;
    const failed = (await h.json('/maps/search?query=fail&query=fail&async=false', { key: acct.key })).body.id;
    const cancelled = (await h.json('/maps/search?query=sleep=5000', { key: acct.key })).body.id;
    await h.get(`/requests/${cancelled}`, { method: 'DELETE', key: acct.key });
    const fin = (await h.json('/requests?type=finished', { key: acct.key })).body as { id: string; status: string; reason?: string }[];
    const of = (id: string) => fin.find((x) => x.id === id)!;
    assert.equal(of(ok).reason, undefined);
    assert.equal(of(failed).status, 'Failure');
    assert.match(of(failed).reason!, /^layout_changed: /);
    assert.equal(of(cancelled).status, 'Failure');
    assert.match(of(cancelled).reason!, /^cancelled: /);
  });

  test('4 hours after completion the result reads Pending with expired: true; history forgets after 24 h', async () => {
    const acct = await h.newAccount();
    const r = await h.json('/maps/search?query=n=1&async=false', { key: acct.key });
    h.clock.offset = 4 * 3600_000 - 60_000;
    assert.equal((await h.json(`/requests/${r.body.id}`, { key: acct.key })).body.status, 'Success');
    h.clock.offset = 4 * 3600_000 + 1_000;
    const exp = await h.json(`/requests/${r.body.id}`, { key: acct.key });
    assert.equal(exp.status, 200);
    assert.deepEqual(exp.body, { id: r.body.id, status: 'Pending', expired: true });
    h.clock.offset = 25 * 3600_000;
    assert.deepEqual((await h.json('/requests?type=finished', { key: acct.key })).body, []);
    h.clock.offset = 0;
  });
});

describe('tasks and files', () => {
  test('ui/format run as tasks whose file downloads at file_url; convertFileResult=false gives the link', async () => {
    const r = await h.json('/maps/search?query=n=2&query=n=1&format=csv');
    assert.equal(r.status, 202, 'format forces ui, ui forces async');
    const done = await finished(r.body.id);
    assert.equal(done.body.data.length, 2);
    const task = await until(async () => {
      const t = (await h.json('/tasks')).body.tasks.find((x: any) => x.metadata.queries.includes('n=2') && x.status === 'SUCCESS');
      return t ?? null;
    }, 30_000, 'the task file'); // the first export starts the export thread (seconds on a loaded box)
    assert.match(task.id, /^\d{14}[0-9a-f]{4}$/);
    assert.match(task.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    assert.equal(task.user_id, h.account.id);
    assert.equal(task.results[0].product_name, 'engine_maps_service_v2');
    assert.equal(task.results[0].quantity, 3);
    const url: string = task.results[0].file_url;
    assert.ok(url.startsWith(`${h.url}/tasks/files/`) && url.endsWith('.csv'));
    const file = await fetch(url);
    assert.equal(file.status, 200, 'no API key needed: the URL is the credential');
    const csv = await file.text();
    assert.equal(csv.trim().split(/\r?\n/).length, 4, csv);
    assert.match(csv.split(/\r?\n/)[0], /query/);
    const link = await h.json(`/requests/${r.body.id}?convertFileResult=false`);
    assert.deepEqual(link.body.data, [url]);
    assert.equal((await fetch(`${h.url}/tasks/files/nope/x.csv`)).status, 404);
  });

  test('POST /tasks builds queries from categories x locations; GET /tasks searches tags and pages with lastId', async () => {
    const acct = await h.newAccount();
    const post = (body: unknown) => h.json('/tasks', { method: 'POST', key: acct.key, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const a = await post({ service_name: 'engine_maps_service_v2', categories: ['n=1'], locations: ['US>New York'], tags: ['alpha'], settings: { output_extension: 'json' } });
    assert.equal(a.status, 200);
    assert.match(a.body.id, /^\d{14}[0-9a-f]{4}$/);
    const b = await post({ queries: ['n=2'], tags: ['beta'] });
    const c = await post({ queries: ['n=1'], tags: ['alpha'] });
    const all = await h.json('/tasks?pageSize=2', { key: acct.key });
    assert.deepEqual(all.body.tasks.map((t: any) => t.id), [c.body.id, b.body.id]);
    assert.equal(all.body.has_more, true);
    const next = await h.json(`/tasks?pageSize=2&lastId=${b.body.id}`, { key: acct.key });
    assert.deepEqual(next.body.tasks.map((t: any) => t.id), [a.body.id]);
    assert.equal(next.body.has_more, false);
    const tagged = await h.json('/tasks?query=alpha', { key: acct.key });
    assert.deepEqual(tagged.body.tasks.map((t: any) => t.id).sort(), [a.body.id, c.body.id].sort());
    const ta = tagged.body.tasks.find((t: any) => t.id === a.body.id);
    assert.deepEqual(ta.metadata.queries, ['n=1 in US>New York']);
    const other = await h.newAccount();
    assert.deepEqual((await h.json('/tasks', { key: other.key })).body.tasks, []);
  });
});

describe('account operations', () => {
  test('balance with the whole upcoming invoice computed from usage lines', async () => {
    const acct = await h.newAccount({ balance: 10 });
    await h.json('/maps/search?query=n=3&async=false', { key: acct.key });
    await h.json('/reverse-geocoding?query=n=2&async=false', { key: acct.key });
    const b = (await h.json('/profile/balance', { key: acct.key })).body;
    // 10 - 3 x 0.003 - 2 x 0.001 = 9.989, shown to the cent.
    assert.equal(b.balance, 9.99);
    assert.equal(b.account_status, 'valid');
    assert.equal(b.id, acct.account.id);
    assert.deepEqual(b.coupon, {});
    const inv = b.upcoming_invoice;
    assert.equal(inv.currency, 'usd');
    assert.equal(inv.collection_method, 'charge_automatically');
    assert.ok(inv.period_start < Date.now() / 1000 && inv.period_end > Date.now() / 1000);
    // 0.011 and 0.009 shown to the cent; the unit price exact.
    assert.equal(inv.subtotal, 0.01);
    assert.equal(inv.total, 0.01);
    assert.equal(inv.applied_balance, 0.01);
    assert.equal(inv.amount_due, 0);
    const maps = inv.products_lines.find((l: any) => l.product_name === 'engine_maps_service_v2');
    assert.deepEqual(maps, { product_name: 'engine_maps_service_v2', unit: 'place', quantity: 3, amount: 0.01, amount_micros: 9_000, lines: [{ quantity: 3, amount: 0.01, amount_micros: 9_000, currency: 'usd', unit_price: '0.003' }] });
    // The lines add up to the total: 0.01 + 0.00 (exact: 0.009 + 0.002 = 0.011).
    const geo = inv.products_lines.find((l: any) => l.product_name !== 'engine_maps_service_v2');
    assert.deepEqual([geo.amount, geo.amount_micros, inv.total_micros, b.balance_micros], [0, 2_000, 11_000, 9_989_000]);
  });

  test('webhook secret can be read and rotated', async () => {
    const a = (await h.json('/profile/webhook-secret')).body.webhook_secret;
    const b = (await h.json('/profile/webhook-secret', { method: 'POST' })).body.webhook_secret;
    assert.match(a, /^whsec_/);
    assert.notEqual(a, b);
    assert.equal((await h.json('/profile/webhook-secret')).body.webhook_secret, b);
  });

  test('/webhook-calls starts empty; openapi and docs are served', async () => {
    assert.deepEqual((await h.json('/webhook-calls')).body, []);
    const doc = (await h.json('/openapi.json', { key: null })).body;
    assert.equal(doc.openapi, '3.1.0');
    for (const e of dataEndpoints) assert.ok(doc.paths[e.path]?.get, e.path);
    const limit = doc.paths['/maps/search'].get.parameters.find((p: any) => p.name === 'limit');
    assert.deepEqual([limit.schema.minimum, limit.schema.maximum, limit.schema.default], [1, 1_000_000, 500]); // above 500 only with an area (422 otherwise)
    const lang = doc.paths['/maps/search'].get.parameters.find((p: any) => p.name === 'language');
    assert.equal(lang.schema.enum.length, LANGUAGES.length);
    assert.ok(lang.schema.enum.includes('chr') && lang.schema.enum.includes('xx-pirate'));
    assert.ok(doc.components.schemas.Place && doc.components.schemas.EngineSearchEventRecord && doc.components.schemas.WebhookBody, 'components named by $id');
    assert.equal(doc.paths['/maps/search'].get.responses['200'].content['application/json'].schema.properties.data.items.items.$ref, '#/components/schemas/Place');
    assert.doesNotMatch(JSON.stringify(doc), /\b(decisions?|interface) \d/i, 'no citation of a document the reader cannot open');
    const page = await (await h.get('/docs', { key: null })).text();
    assert.match(page, /<code>\/maps\/search<\/code>/);
    assert.match(page, /<code>reviews_data\[\]\.review_id<\/code>/, 'record fields, nested ones too');
    assert.doesNotMatch(page, /`/, 'markdown is rendered: no raw backticks');
    assert.doesNotMatch(page, /\b(decisions?|interface) \d/i);
  });
});
