/**
 * The MCP server (issue 36) with the official SDK's client against a real service on loopback, over
 * Streamable HTTP (`/mcp`, the key as a bearer token) and over stdio (`npx trawl mcp` on TRAWL_URL):
 * tools/list (one tool per served endpoint and per account tool, every input schema valid JSON
 * Schema, annotations); a lookup answering records, billed and listed like the API call; a map search
 * that goes async, then its records through requests_get; a monitor created and its changes read; a
 * bad argument and a refused query as tool errors naming why; a result over the token budget paged
 * to its end; a call past the cap answering the request id (the cap set low: the default is 45 s).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startHarness, until, type Harness } from './support/harness.ts';
import { testRegistry } from './support/test-adapter.ts';
import { worldAdapter, type WorldRecord } from './support/world-adapter.ts';

type Result = { content: { type: string; text: string }[]; structuredContent?: any; isError?: boolean };

const world = new Map<string, WorldRecord>([['a', { place_id: 'a', name: 'Alpha Café' }]]);
let h: Harness;
let client: Client;

before(async () => {
  h = await startHarness({
    adapters: testRegistry(undefined, [worldAdapter(world, { on: false })]),
    settings: { monitorTickMs: 40, mcp: { capMs: 1_500, budget: 2_000, pollMs: 50 } },
  });
  client = new Client({ name: 'trawl-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.key}` } } }));
});
after(async () => { await client.close(); await h.close(); });

const call = async (name: string, args: Record<string, unknown>) => await client.callTool({ name, arguments: args }) as Result;
const json = (r: Result) => JSON.parse(r.content[0].text);

test('tools/list: a tool per served data endpoint and per account tool, each input a valid JSON Schema with annotations', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const path of h.svc.ctx.adapters.endpoints()) assert.ok(names.includes(path.slice(1).replace(/[^A-Za-z0-9]+/g, '_')), path);
  for (const n of ['requests_list', 'requests_get', 'requests_cancel', 'balance', 'businesses_search', 'businesses_get', 'monitors_create', 'monitors_list',
    'monitors_changes', 'monitors_pause', 'monitors_resume', 'monitors_delete']) assert.ok(names.includes(n), n);
  assert.equal(new Set(names).size, names.length, 'names are unique');
  const ajv = new Ajv2020({ strict: false });
  for (const t of tools) {
    assert.ok(ajv.compile(t.inputSchema), `${t.name}: its input schema compiles`);
    assert.equal(t.inputSchema.type, 'object');
    assert.ok(t.description && t.description.length > 40, `${t.name}: a description a model can act on`);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', `${t.name}: annotations`);
  }
  const search = tools.find((t) => t.name === 'maps_search')!;
  assert.deepEqual(search.inputSchema.required, ['query']);
  assert.deepEqual((search.inputSchema.properties as any).execution.enum, ['auto', 'sync', 'async']);
  assert.equal(tools.find((t) => t.name === 'monitors_delete')!.annotations?.destructiveHint, true);
});

test('a lookup answers its records and is billed and listed like the API call', async () => {
  const before = (await h.json('/profile/balance')).body;
  const r = await call('directory_phones', { query: ['n=3'] });
  assert.equal(r.isError, undefined, r.content[0].text);
  const body = json(r);
  assert.deepEqual([body.status, body.records_total, body.records.length, body.next_offset], ['Success', 3, 3, null]);
  const finished = (await h.json('/requests?type=finished')).body as any[];
  assert.ok(finished.some((x) => x.id === body.request_id), 'in the account\'s requests');
  const afterBalance = (await h.json('/profile/balance')).body;
  assert.notDeepEqual(afterBalance, before, 'the balance moved: billed');
});

test('a map search that goes async, then its records through requests_get', async () => {
  const r = json(await call('maps_search', { query: ['coffee'], execution: 'async' }));
  assert.equal(r.status, 'Pending');
  assert.match(r.next, /requests_get/);
  const done = await until(async () => { const p = json(await call('requests_get', { requestId: r.request_id })); return p.status === 'Success' && p; }, 10_000, 'records');
  assert.deepEqual(done.records.map((x: any) => x.name), ['Alpha Café']);
});

test('a monitor created and its changes read', async () => {
  const m = json(await call('monitors_create', { endpoint: '/maps/search', queries: ['coffee'], schedule: { every_s: 3600 } }));
  assert.match(m.id, /./);
  const runs = (n: number) => until(async () => ((await h.json(`/monitors/${m.id}/runs`)).body.runs as any[]).filter((x) => x.status === 'done').length >= n, 20_000, `${n} runs`);
  await runs(1);
  world.set('b', { place_id: 'b', name: 'Beta Bar' });
  h.clock.offset += 3_600_000;
  await runs(2);
  const changes = json(await call('monitors_changes', { monitorId: m.id }));
  assert.deepEqual(changes.changes.map((c: any) => [c.kind, c.identity]), [['new', 'b']]);
  assert.equal(json(await call('monitors_pause', { monitorId: m.id })).status, 'paused');
  assert.equal(json(await call('monitors_list', {})).monitors[0].id, m.id);
  assert.equal((await call('monitors_delete', { monitorId: m.id })).isError, undefined);
});

test('a bad argument, an unknown one and a refused query are tool errors naming why', async () => {
  const typed = await call('maps_search', { query: ['coffee'], limit: 'many' });
  assert.equal(typed.isError, true);
  assert.match(typed.content[0].text, /limit/);
  const unknown = await call('directory_phones', { query: ['n=1'], bogus: 1 });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0].text, /unknown argument "bogus"/);
  const refused = await call('directory_phones', { query: ['bad one'] });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /422.*refused by the test adapter/);
  const missing = await call('requests_get', { requestId: '00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /404/);
});

test('a result over the token budget comes in pages, each saying where the next starts', async () => {
  const first = json(await call('directory_phones', { query: ['n=300'] }));
  assert.equal(first.records_total, 300);
  assert.ok(first.records.length < 300 && first.next_offset === first.records.length, 'cut to the budget');
  assert.match(first.more, /requests_get/);
  let seen = first.records.length;
  let next = first.next_offset;
  while (next !== null) {
    const r = await call('requests_get', { requestId: first.request_id, offset: next });
    assert.ok(r.content[0].text.length / 4 <= 2_100, 'each page within the budget');
    const page = json(r);
    assert.equal(page.offset, next);
    seen += page.records.length;
    next = page.next_offset;
  }
  assert.equal(seen, 300, 'every record, once');
});

test('a call past the cap answers the request id, not a timeout', async () => {
  const r = json(await call('directory_phones', { query: ['sleep=5000;n=1'], execution: 'sync' }));
  assert.equal(r.status, 'Pending');
  assert.match(r.message, /still running after 2 s/);
  await call('requests_cancel', { requestId: r.request_id });
});

test('without a key /mcp is a 401', async () => {
  const res = await fetch(`${h.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) });
  assert.equal(res.status, 401);
});

test('`npx trawl mcp` answers tools/list and calls a tool over stdio', { timeout: 120_000 }, async () => {
  const stdio = new Client({ name: 'trawl-test', version: '1.0.0' });
  await stdio.connect(new StdioClientTransport({ command: 'npx', args: ['trawl', 'mcp'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TRAWL_URL: h.url, TRAWL_API_KEY: h.key } }));
  try {
    const { tools } = await stdio.listTools();
    assert.ok(tools.some((t) => t.name === 'maps_search') && tools.some((t) => t.name === 'requests_get'));
    const r = await stdio.callTool({ name: 'directory_phones', arguments: { query: ['n=2'] } }) as Result;
    assert.equal(JSON.parse(r.content[0].text).records_total, 2);
  } finally {
    await stdio.close();
  }
});
