/**
 * Webhook subscriptions (issue 36, `/webhooks`) end to end on both stores, against a loopback
 * receiver that checks the signature: the SSRF guard at create (422) and at every delivery (a refused
 * call in /webhook-calls), clear 422s for bad bodies, one account never sees, deletes or receives
 * another's, and each event arrives signed with its name: request.finished, task.file_ready (its file
 * downloadable), monitor.changes (a baseline run that found nothing sends none). A deleted
 * subscription receives nothing more.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startHarness, until, type Harness } from './support/harness.ts';
import { bothStores } from './support/stores.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { worldAdapter, type WorldRecord } from './support/world-adapter.ts';

interface Hit { event: string | undefined; body: any; raw: string; signature: string }

async function receiver() {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      hits.push({ event: req.headers['x-webhook-event'] as string | undefined, body: JSON.parse(raw), raw, signature: String(req.headers['x-hub-signature-256']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const send = (h: Harness, path: string, body: unknown, key?: string) =>
  h.json(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, key });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const [name, skip, open] of bothStores()) {
  test(`webhook subscriptions [${name}]: guarded, per account, every event signed; deleted means silent`, { skip, timeout: 120_000 }, async () => {
    const db = open();
    const world = new Map<string, WorldRecord>([['a', { place_id: 'a', name: 'Alpha Café', phone: '+1 512 555 0100' }]]);
    const hook = await receiver();
    // Private targets refused, except the loopback receiver the operator allowed.
    const h = await startHarness({ backendEnv: db.env, adapters: registryOfAdapters([worldAdapter(world, { on: false })]),
      settings: { monitorTickMs: 40, allowPrivateTargets: false, allowedTargets: ['127.0.0.1/32'] } });
    try {
      const other = await h.newAccount();
      const secret = (await h.json('/profile/webhook-secret')).body.webhook_secret as string;
      const signed = (x: Hit) => x.signature === `sha256=${createHmac('sha256', secret).update(x.raw).digest('hex')}`;

      // Refused at create, each with its reason.
      const refused = await send(h, '/webhooks', { url: 'http://10.0.0.5/hook', events: ['request.finished'] });
      assert.equal(refused.status, 422);
      assert.match(refused.body.errorMessage, /refused/);
      for (const [body, why] of [
        [{ url: hook.url, events: ['request.done'] }, /unknown event "request\.done"/],
        [{ url: hook.url, events: [] }, /events is required/],
        [{ events: ['request.finished'] }, /url is required/],
        [{ url: 'ftp://example.com/x', events: ['request.finished'] }, /http\(s\)/],
        [{ url: hook.url, events: ['request.finished'], secret: 'x' }, /unknown field "secret"/],
      ] as const) {
        const r = await send(h, '/webhooks', body);
        assert.equal(r.status, 422, JSON.stringify(body));
        assert.match(r.body.errorMessage, why);
      }

      const created = await send(h, '/webhooks', { url: hook.url, events: ['request.finished', 'task.file_ready', 'monitor.changes'], description: 'test' });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const sub = created.body;
      assert.match(sub.id, /^whs_[0-9a-f]{24}$/);
      assert.deepEqual((await h.json('/webhooks')).body, { webhooks: [sub] });
      // Another account neither sees nor deletes it, and its requests are not sent to it.
      assert.deepEqual((await h.json('/webhooks', { key: other.key })).body, { webhooks: [] });
      assert.equal((await h.json(`/webhooks/${sub.id}`, { method: 'DELETE', key: other.key })).status, 404);
      const foreign = (await h.json('/maps/search?query=theirs', { key: other.key })).body.id as string;

      // request.finished
      const mine = (await h.json('/maps/search?query=coffee')).body.id as string;
      const finished = await until(async () => hook.hits.find((x) => x.event === 'request.finished' && x.body.id === mine), 10_000, 'request.finished');
      assert.ok(signed(finished), 'signed with the account secret');
      assert.deepEqual(finished.body, {
        event: 'request.finished', subscription_id: sub.id, id: mine, user_id: h.account.id, status: 'SUCCESS', api_task: true,
        results_location: `${h.url}/requests/${mine}`, quota_usage: [{ product_name: 'engine_maps_service_v2', quantity: 1 }],
      });

      // task.file_ready, with a file that downloads.
      const task = await send(h, '/tasks', { service_name: 'engine_maps_service_v2', queries: ['coffee'], settings: { output_extension: 'csv' } });
      assert.equal(task.status, 200, JSON.stringify(task.body));
      const ready = await until(async () => hook.hits.find((x) => x.event === 'task.file_ready'), 15_000, 'task.file_ready');
      assert.ok(signed(ready));
      assert.deepEqual([ready.body.subscription_id, ready.body.id, ready.body.status], [sub.id, task.body.id, 'SUCCESS']);
      const file = await fetch(ready.body.file_url);
      assert.equal(file.status, 200);
      assert.match(await file.text(), /Alpha Café/);

      // monitor.changes: not for the baseline, then once with what changed.
      const m = await send(h, '/monitors', { endpoint: '/maps/search', queries: ['coffee'], schedule: { every_s: 3600 } });
      assert.equal(m.status, 200, JSON.stringify(m.body));
      const runsEnded = (n: number) => until(async () => ((await h.json(`/monitors/${m.body.id}/runs`)).body.runs as any[]).filter((r) => r.status === 'done').length >= n, 20_000, `${n} runs`);
      await runsEnded(1);
      world.set('b', { place_id: 'b', name: 'Beta Bar', phone: null });
      h.clock.offset += 3_600_000;
      await runsEnded(2);
      const changes = await until(async () => hook.hits.find((x) => x.event === 'monitor.changes'), 10_000, 'monitor.changes');
      assert.ok(signed(changes));
      assert.deepEqual([changes.body.monitor.monitor_id, changes.body.monitor.counts.new, changes.body.monitor.changes.map((c: any) => c.identity)], [m.body.id, 1, ['b']]);
      await pause(1_300);
      assert.equal(hook.hits.filter((x) => x.event === 'monitor.changes').length, 1, 'the baseline run sent no monitor.changes');
      assert.ok(!hook.hits.some((x) => x.body.id === foreign || x.body.request_id === foreign), 'another account\'s request never reaches this subscription');

      // The SSRF guard at delivery: the operator withdrew the receiver; the call is refused and logged.
      h.svc.ctx.settings.allowedTargets = [];
      const before = hook.hits.length;
      await h.json('/maps/search?query=refused');
      await until(async () => ((await h.json('/webhook-calls')).body as any[]).some((c) => c.status === 'Status code: 0'), 10_000, 'refused call logged');
      assert.equal(hook.hits.length, before, 'nothing reached the receiver');
      h.svc.ctx.settings.allowedTargets = ['127.0.0.1/32'];

      // Deleted: nothing more.
      const del = await h.json(`/webhooks/${sub.id}`, { method: 'DELETE' });
      assert.equal(del.status, 200);
      assert.deepEqual((await h.json('/webhooks')).body, { webhooks: [] });
      assert.equal((await h.json(`/webhooks/${sub.id}`, { method: 'DELETE' })).status, 404);
      const after = (await h.json('/maps/search?query=after')).body.id as string;
      await until(async () => (await h.json(`/requests/${after}`)).status === 200, 10_000, 'request ended');
      await pause(1_300);
      assert.ok(!hook.hits.some((x) => x.body.id === after), 'a deleted subscription receives nothing');
    } finally {
      await h.close();
      await hook.close();
      await db.drop();
    }
  });
}
