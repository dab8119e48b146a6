/**
 * Webhooks (decision 15) against a loopback receiver that verifies the signature: body, signature,
 * retries with backoff (driven by the test clock), the failed-call log, the SSRF guard and its
 * operator switch, and the account integration webhook.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startHarness, until, type Harness } from './support/harness.ts';
import { settingsFromEnv } from '../src/config/settings.ts';

interface Hit { body: string; signature: string; contentType: string }
let receiver: Server;
let receiverUrl = '';
const hits: Hit[] = [];
let failNext = 0;

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      hits.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-hub-signature-256']), contentType: String(req.headers['content-type']) });
      if (failNext > 0) { failNext--; res.writeHead(500).end('no'); } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as any).port}/hook`;
});
after(() => new Promise<void>((r) => receiver.close(() => r())));

function verify(h: Hit, secret: string): boolean {
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(h.body).digest('hex')}`);
  const got = Buffer.from(h.signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

let h: Harness;
before(async () => { h = await startHarness({ settings: { allowPrivateTargets: true } }); });
after(async () => { await h.close(); });

test('a finished request POSTs the signed body once', async () => {
  hits.length = 0;
  const secret = (await h.json('/profile/webhook-secret')).body.webhook_secret;
  const r = await h.json(`/maps/search?query=n=2&query=empty&webhook=${encodeURIComponent(receiverUrl)}`);
  const hit = await until(async () => hits[0]);
  assert.equal(hit.contentType, 'application/json');
  assert.ok(verify(hit, secret), 'signature verifies with the account secret');
  assert.ok(!verify(hit, 'whsec_other'));
  assert.deepEqual(JSON.parse(hit.body), {
    id: r.body.id, user_id: h.account.id, status: 'SUCCESS', api_task: true, results_location: `${h.url}/requests/${r.body.id}`,
    quota_usage: [{ product_name: 'engine_maps_service_v2', quantity: 3 }],
  });
  await new Promise((res) => setTimeout(res, 1_300));
  assert.equal(hits.length, 1, 'delivered once');
  assert.deepEqual((await h.json('/webhook-calls')).body, []);
});

test('failed deliveries are logged and retried on the backoff schedule; FAILURE status for failed requests', async () => {
  hits.length = 0;
  failNext = 2;
  await h.json(`/maps/search?query=fail&webhook=${encodeURIComponent(receiverUrl)}`);
  await until(async () => hits.length === 1);
  await until(async () => (await h.json('/webhook-calls')).body.length === 1);
  const calls = (await h.json('/webhook-calls')).body;
  assert.equal(calls[0].status, 'Status code: 500');
  assert.ok(Math.abs(calls[0].date - Date.now() / 1000) < 5);
  await new Promise((res) => setTimeout(res, 1_300));
  assert.equal(hits.length, 1, 'no retry before the first backoff (about 1 minute)');
  h.clock.offset += 61_000;
  await until(async () => hits.length === 2, 5_000, 'second attempt');
  h.clock.offset += 5 * 60_000 + 1_000;
  await until(async () => hits.length === 3, 5_000, 'third attempt');
  assert.equal(JSON.parse(hits[2].body).status, 'FAILURE');
  assert.deepEqual(JSON.parse(hits[2].body).errors, [{ query: 'fail', error: { type: 'layout_changed', message: 'test: no expected data' } }], 'a failed request says why');
  await new Promise((res) => setTimeout(res, 1_300));
  assert.equal((await h.json('/webhook-calls')).body.length, 2, 'the successful third attempt is not a failed call');
  h.clock.offset = 0;
});

test('a refused connection reads Status code: 0; the integration webhook serves requests without one', async () => {
  const acct = await h.newAccount();
  await h.svc.ctx.store.updateAccount(acct.account.id, { webhookUrl: 'http://127.0.0.1:9/nothing-listens' });
  await h.json('/maps/search?query=n=1', { key: acct.key });
  await until(async () => (await h.json('/webhook-calls', { key: acct.key })).body.length === 1, 8_000, 'failed call');
  assert.equal((await h.json('/webhook-calls', { key: acct.key })).body[0].status, 'Status code: 0');
  assert.deepEqual((await h.json('/webhook-calls')).body.length, 2, 'accounts see only their own calls');
});

test('without the operator switch, private and metadata targets are refused with 422', async () => {
  const strict = await startHarness();
  try {
    for (const target of ['http://127.0.0.1:8080/x', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/', 'http://[::1]/', 'http://2130706433/', 'http://localhost/']) {
      const r = await strict.json(`/maps/search?query=n=1&webhook=${encodeURIComponent(target)}`);
      assert.equal(r.status, 422, target);
      assert.match(r.body.errorMessage, /^422 Unprocessable Entity: webhook .* is refused/);
    }
  } finally { await strict.close(); }
});

test('with SECRET_KEY the signing secret is sealed at rest; the API and the signatures use it in clear', async () => {
  const sealed = await startHarness({ settings: { allowPrivateTargets: true, secretKey: 'operator-secret-key-of-some-length' } });
  try {
    hits.length = 0;
    const stored = (await sealed.svc.ctx.store.getAccount(sealed.account.id))!.webhookSecret;
    const secret = (await sealed.json('/profile/webhook-secret')).body.webhook_secret;
    assert.match(secret, /^whsec_/);
    assert.match(stored, /^enc1:/);
    assert.ok(!stored.includes(secret.slice(6)), 'the stored form does not contain the secret');
    await sealed.json(`/maps/search?query=n=1&webhook=${encodeURIComponent(receiverUrl)}`);
    assert.ok(verify(await until(async () => hits[0]), secret), 'signature verifies with the secret in clear');
    const rotated = (await sealed.json('/profile/webhook-secret', { method: 'POST' })).body.webhook_secret;
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    assert.match((await sealed.svc.ctx.store.getAccount(sealed.account.id))!.webhookSecret, /^enc1:/);
    assert.equal((await sealed.json('/profile/webhook-secret')).body.webhook_secret, rotated);
  } finally { await sealed.close(); }
});

test('ALLOW_PRIVATE_TARGETS as a list: a listed private address gets webhooks, an unlisted one is refused at submit and at delivery', async () => {
  const fromEnv = settingsFromEnv({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32, hooks.internal' });
  assert.deepEqual(fromEnv.allowedTargets, ['127.0.0.1/32', 'hooks.internal']);
  const listed = await startHarness({ settings: { allowPrivateTargets: fromEnv.allowPrivateTargets, allowedTargets: fromEnv.allowedTargets } });
  // A receiver on another loopback address (Linux routes 127.0.0.0/8 to lo): reachable, but not listed.
  const other = createServer((req, res) => { otherHits++; req.resume(); res.writeHead(204).end(); });
  let otherHits = 0;
  await new Promise<void>((r) => other.listen(0, '127.0.0.2', r));
  const otherUrl = `http://127.0.0.2:${(other.address() as any).port}/hook`;
  try {
    assert.equal(listed.svc.ctx.settings.allowPrivateTargets, false);
    hits.length = 0;
    const r = await listed.json(`/maps/search?query=n=1&webhook=${encodeURIComponent(receiverUrl)}`);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(JSON.parse((await until(async () => hits[0], 8_000, 'delivery to the listed address')).body).id, r.body.id);
    for (const target of [otherUrl, 'http://10.0.0.7/', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data']) {
      const refused = await listed.json(`/maps/search?query=n=1&webhook=${encodeURIComponent(target)}`);
      assert.equal(refused.status, 422, target);
      assert.match(refused.body.errorMessage, /^422 Unprocessable Entity: webhook .* is refused/);
    }
    // The account's integration webhook is not checked at submit: the dispatcher's guard refuses it.
    const acct = await listed.newAccount();
    await listed.svc.ctx.store.updateAccount(acct.account.id, { webhookUrl: otherUrl });
    await listed.json('/maps/search?query=n=1', { key: acct.key });
    await until(async () => (await listed.json('/webhook-calls', { key: acct.key })).body.length === 1, 8_000, 'refused call logged');
    assert.equal((await listed.json('/webhook-calls', { key: acct.key })).body[0].status, 'Status code: 0');
    assert.equal(otherHits, 0, 'nothing reached the unlisted address');
  } finally {
    await listed.close();
    await new Promise<void>((r) => other.close(() => r()));
  }
});
