/**
 * The n8n community node (integrations/n8n, issue 36) run by n8n's own engine (test/support/n8n.ts)
 * against a real `trawl serve` on loopback: the workflows in integrations/n8n/test/workflows/ executed
 * by WorkflowExecute, the credential's test, and the trigger subscribed, signed deliveries received,
 * a forged one refused, unsubscribed at deactivation. Skips with its reason when the package's
 * node_modules are not installed (`npm ci --prefix integrations/n8n`; .ci/run installs them).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServe, type Served } from './support/serve-real.ts';
import { buildPackage, loadN8n, n8nSkip, workflowJson } from './support/n8n.ts';

let s: Served;
let n8n: Awaited<ReturnType<typeof loadN8n>>;
const opts = { skip: n8nSkip, timeout: 180_000 };

before(async () => {
  if (n8nSkip) return;
  buildPackage();
  // The trigger's receiver is on loopback: the operator allows it, as a self-hosted n8n beside trawl would need.
  [s, n8n] = await Promise.all([startServe({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' }), loadN8n()]);
}, { timeout: 180_000 });
after(async () => {
  await s?.close();
  // Once loaded, n8n's engine keeps the event loop alive by something of its own (no socket or server
  // of ours is left: checked), which held this file open and CI with it: once everything of ours is
  // closed, the file ends with the runner's exit code.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2_000).unref();
});

const creds = () => ({ baseUrl: `${s.url}/`, apiKey: s.key });

test('n8n: the package loads as n8n loads community packages (package.json n8n section), the node usable as a tool', opts, () => {
  assert.deepEqual(Object.keys(n8n.loader.nodeTypes).sort(), ['trawl', 'trawlTrigger']);
  assert.deepEqual(Object.keys(n8n.loader.credentialTypes), ['trawlApi']);
  const d = n8n.loader.nodeTypes.trawl.type.description;
  assert.equal(d.usableAsTool, true);
  const ops = d.properties.filter((p: any) => p.name === 'operation').flatMap((p: any) => p.options.map((o: any) => `${p.displayOptions.show.resource[0]}:${o.value}`));
  for (const op of ['lookups:reverse_geocoding', 'maps:maps_search', 'request:list', 'request:get', 'request:cancel', 'account:balance', 'business:search', 'business:get',
    'monitor:create', 'monitor:list', 'monitor:changes', 'monitor:pause', 'monitor:resume', 'monitor:delete']) assert.ok(ops.includes(op), `${op} in ${ops.join(' ')}`);
});

test('n8n: a lookup with three input items gives each item its own records, paired to it', opts, async () => {
  const r = await n8n.run(workflowJson('lookup-three-items.json'), creds());
  assert.equal(r.error, undefined, r.error?.message);
  const out = r.output('Trawl');
  // Item 0: one point; item 1: two points (two lines, two queries of one request); item 2: one point.
  assert.deepEqual(out.map((x: any) => x.pairedItem), [{ item: 0 }, { item: 1 }, { item: 1 }, { item: 2 }]);
  assert.deepEqual(out.map((x: any) => x.json.query), ['48.8584,2.2945', '40.6892,-74.0445', '51.5007,-0.1246', '41.8902,12.4922']);
  assert.deepEqual(out.map((x: any) => x.json.country_code), ['FR', 'US', 'GB', 'IT']);
  // Three requests, one per input item, each billed as the API call it is.
  const finished = await (await fetch(`${s.url}/requests?type=finished`, { headers: { 'x-api-key': s.key } })).json() as unknown[];
  assert.ok(finished.length >= 3);
});

test('n8n: waiting 0 s answers the request id; Request → Get Records then gives its records; balance', opts, async () => {
  const r = await n8n.run(workflowJson('request-id-at-once.json'), creds());
  assert.equal(r.error, undefined, r.error?.message);
  const [pending] = r.output('Trawl');
  assert.equal(pending.json.status, 'Pending');
  assert.match(pending.json.request_id, /\S/);
  assert.match(pending.json.message, /Get Records/);
  const records = r.output('Records');
  assert.equal(records.length, 1);
  assert.equal(records[0].json.country_code, 'FR');
  assert.deepEqual(records[0].pairedItem, { item: 0 });
  const [balance] = r.output('Balance');
  assert.equal(typeof balance.json.balance, 'number');
});

test('n8n: a refused call fails the node with the interface\'s reason', opts, async () => {
  const json = workflowJson('lookup-three-items.json');
  json.nodes[0].parameters.items = JSON.stringify([{ points: 'not a point' }]);
  const r = await n8n.run(json, creds());
  assert.ok(r.error, 'the run failed');
  const direct = await fetch(`${s.url}/reverse-geocoding?query=not%20a%20point`, { headers: { 'x-api-key': s.key } });
  assert.equal(direct.status, 422);
  const { errorMessage } = await direct.json() as { errorMessage: string };
  assert.equal(r.error.message, errorMessage);
  assert.equal(r.error.httpCode, '422');
});

test('n8n: the credential test passes on a good key and fails clearly on a bad key or address', opts, async () => {
  assert.deepEqual(await n8n.testCredential(creds()), { status: 'OK', message: 'Connection successful!' });
  const bad = await n8n.testCredential({ ...creds(), apiKey: 'trw_not_a_key' });
  assert.equal(bad.status, 'Error');
  assert.match(bad.message, /API key was refused \(401\)/);
  const wrongPlace = await n8n.testCredential({ ...creds(), baseUrl: `${s.url}/some/path` });
  assert.equal(wrongPlace.status, 'Error');
  assert.match(wrongPlace.message, /No trawl answers at this Base URL/);
});

test('n8n: the trigger subscribes on activation, receives a signed request.finished, refuses a forged one, unsubscribes on deactivation', opts, async () => {
  const key = { 'x-api-key': s.key };
  const deliveries: { status: number; result: any; body: any }[] = [];
  let t: ReturnType<typeof n8n.trigger>;
  // The n8n webhook server's part: the raw bytes and headers handed to the node's webhook().
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let status = 200;
      const response = { status(n: number) { status = n; return response; }, send() { return response; } };
      const result = req.url?.endsWith(t.path) ? await t.deliver(raw, req.headers as Record<string, string>, response) : (status = 404, undefined);
      deliveries.push({ status, result, body: JSON.parse(raw.toString() || '{}') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    t = n8n.trigger(workflowJson('trigger.json'), creds(), `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/`);
    await t.activate();
    const subs = (await (await fetch(`${s.url}/webhooks`, { headers: key })).json() as { webhooks: any[] }).webhooks;
    const mine = subs.find((w) => w.url.endsWith(t.path));
    assert.ok(mine, JSON.stringify(subs));
    assert.deepEqual(mine.events, ['request.finished']);
    // Activating again (n8n restarts) keeps the one subscription.
    await t.activate();
    assert.equal((await (await fetch(`${s.url}/webhooks`, { headers: key })).json() as { webhooks: any[] }).webhooks.length, subs.length);

    const id = ((await (await fetch(`${s.url}/reverse-geocoding?query=48.8584,2.2945`, { headers: key })).json()) as { id: string }).id;
    const deadline = Date.now() + 30_000;
    while (!deliveries.some((d) => d.body.id === id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const got = deliveries.find((d) => d.body.id === id);
    assert.ok(got, 'request.finished delivered');
    assert.equal(got.status, 200);
    const items = got.result.workflowData[0];
    assert.equal(items.length, 1);
    assert.equal(items[0].json.event, 'request.finished');
    assert.equal(items[0].json.subscription_id, mine.id);
    assert.equal(items[0].json.status, 'SUCCESS');

    // A forged delivery (the right shape, a wrong signature) starts nothing and is answered 401.
    const forged = Buffer.from(JSON.stringify({ ...got.body, id: 'forged' }));
    const answer = await fetch(mine.url, {
      method: 'POST', body: forged, headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    });
    assert.equal(answer.status, 401);
    assert.equal(deliveries.find((d) => d.body.id === 'forged')?.result?.workflowData, undefined);

    await t.deactivate();
    const left = (await (await fetch(`${s.url}/webhooks`, { headers: key })).json() as { webhooks: any[] }).webhooks;
    assert.equal(left.find((w) => w.id === mine.id), undefined);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
