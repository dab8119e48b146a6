/**
 * Garbage in every declared parameter of every operation (wrong types, huge values, unknown enums,
 * 100 KB strings, invalid UTF-8) answers 422 naming the parameter, never 500.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rawExchange } from './support/raw-http.ts';
import { startHarness, type Harness } from './support/harness.ts';
import { dataEndpoints } from '../src/contract/endpoints/index.ts';
import { accountOperations } from '../src/contract/account.ts';
import { shared } from '../src/contract/shared.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

const huge = 'x'.repeat(100_000);

function garbageFor(schema: any): string[] {
  const s = schema.type === 'array' ? schema.items : schema;
  if (s.enum) return ['not-a-value', huge.slice(0, 5000), '%FF'];
  switch (s.type) {
    case 'integer': return ['abc', '1.5', '-99999999999999999999', '1e400', huge.slice(0, 300), '%FF'];
    case 'boolean': return ['maybe', '2', huge.slice(0, 300), '%FF'];
    default: return [huge, '%FF%FE'];
  }
}

test('every data endpoint parameter', { timeout: 120_000 }, async () => {
  for (const e of dataEndpoints) {
    const decls: Record<string, any> = { ...shared, ...e.params };
    for (const [name, schema] of Object.entries(decls)) {
      const base = e.required?.includes('shorts') && name !== 'shorts' ? 'query=n=1&shorts=true' : 'query=n=1';
      for (const g of garbageFor(schema)) {
        const value = g.startsWith('%') ? g : encodeURIComponent(g);
        const r = await h.json(`${e.path}?${base}&${name}=${value}`);
        assert.equal(r.status, 422, `${e.path} ${name}=${g.slice(0, 30)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        assert.ok(r.body.errorMessage.startsWith('422 Unprocessable Entity: '), r.body.errorMessage);
        assert.ok(r.body.errorMessage.includes(name), `${e.path}: message names ${name}: ${r.body.errorMessage.slice(0, 200)}`);
      }
    }
  }
});

test('every account operation query parameter and body', { timeout: 60_000 }, async () => {
  for (const o of accountOperations.filter((x) => !x.public)) {
    const path = o.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
    const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [name, schema] of Object.entries(o.params ?? {}).filter(([n]) => !pathParams.includes(n))) {
      if ((schema as any).type === 'string' && !(schema as any).pattern && !(schema as any).maxLength) continue;
      for (const g of garbageFor(schema)) {
        const r = await h.json(`${path}?${name}=${g.startsWith('%') ? g : encodeURIComponent(g)}`, { method: o.method });
        assert.ok(r.status === 422 || (r.status === 404 && o.path.includes('{')), `${o.method} ${o.path} ${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        assert.equal(r.body.error, true);
      }
    }
    if (o.body) {
      for (const body of ['{', '"str"', 'null', '[]', '{"limit":"ten"}', '{"queries":[1,2]}', '{"filters":{"geo_filters":[{"type":"square"}]}}', `{"query":"${huge}"}`]) {
        const r = await h.json(path, { method: o.method, body, headers: { 'content-type': 'application/json' } });
        // An operation on one thing (PATCH /monitors/{id}) may answer 404 for the made-up id first.
        assert.ok([422, 200, 501].includes(r.status) || (r.status === 404 && o.path.includes('{')), `${o.method} ${o.path} body ${body.slice(0, 40)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        assert.notEqual(r.status, 500);
      }
    }
  }
});

test('prototype names as values (__proto__, constructor, toString) are 422 or accepted, never 500', { timeout: 60_000 }, async () => {
  for (const v of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const region = await h.json(`/maps/search?query=n=1&region=${v}`);
    assert.equal(region.status, 422, `region=${v}: ${region.status} ${JSON.stringify(region.body)}`);
    assert.match(region.body.errorMessage, /^422 Unprocessable Entity: region/);
    for (const e of dataEndpoints) {
      for (const name of Object.keys({ ...shared, ...e.params })) {
        const r = await h.json(`${e.path}?query=n=1&${name}=${v}`);
        assert.ok(r.status < 500, `${e.path} ${name}=${v}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
  }
});

test('a NUL byte anywhere is 422: query string names and values, JSON bodies', async () => {
  for (const path of ['/maps/search?query=a%00b', '/maps/search?query=n=1&region=u%00s', '/maps/search?query=n=1&x%00y=1']) {
    const r = await h.json(path);
    assert.equal(r.status, 422, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.match(r.body.errorMessage, /NUL/);
  }
  const body = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ queries: ['a\u0000b'] }), headers: { 'content-type': 'application/json' } });
  assert.equal(body.status, 422, JSON.stringify(body.body));
  assert.match(body.body.errorMessage, /queries\[0\]: contains a NUL/);
});

test("the framework's own refusals are the interface's JSON: bad percent-encoding, long path parameter, no Host", async () => {
  for (const [path, status] of [['/requests/%E0%A4%A', 400], ['/%ZZ', 400], ['/tasks/files/%ZZ', 400], [`/requests/${'a'.repeat(600)}`, 414]] as const) {
    const r = await h.json(path);
    assert.equal(r.status, status, `${path.slice(0, 40)}: ${r.status}`);
    assert.equal(r.body.error, true);
    assert.ok(r.body.errorMessage.startsWith(`${status} `), r.body.errorMessage);
    assert.ok(!('code' in r.body), 'no FST_ERR_* shape');
  }
  const noHost = await rawExchange(h.url, 'GET /profile/balance HTTP/1.1\r\nConnection: close\r\n\r\n');
  assert.equal(noHost.status, 400);
  assert.match(noHost.headers, /content-type: application\/json/i);
  assert.equal(JSON.parse(noHost.body).errorMessage, '400 Bad Request: the Host header is required in HTTP/1.1');
});
