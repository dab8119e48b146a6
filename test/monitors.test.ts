/**
 * Monitors end to end (issue 29) on a world that changes between runs, on the service's fake clock:
 * the first run records, the next reports new / gone / changed with before and after; runs are
 * ordinary requests (in /requests, billed); the run's changes reach the webhook, signed; pause stops
 * runs and resume starts them again; a failed run says why and the next one still comes; changes page
 * through a cursor. Both stores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startHarness, until, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { pgTestUrl, scratchSchema, dropSchema } from '../src/store/postgres/testing.ts';
import { createLogger } from '../src/ops/log.ts';
import type { LocalAdapter } from '../src/sources/_kit/adapter.ts';
import { worldAdapter, type WorldRecord as Rec } from './support/world-adapter.ts';

async function receiver() {
  const calls: { body: any; signature: string | undefined; raw: string }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => { calls.push({ body: JSON.parse(raw), signature: req.headers['x-hub-signature-256'] as string | undefined, raw }); res.end('ok'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const post = (h: Harness, path: string, body: unknown, method = 'POST') =>
  h.json(path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

async function scenario(h: Harness, world: Map<string, Rec>, broken: { on: boolean }, logged: string[]) {
  const hook = await receiver();
  try {
    world.set('a', { place_id: 'a', name: 'Alpha Café', phone: '+1 512 555 0100', rating: 4.5 });
    world.set('b', { place_id: 'b', name: 'Beta Bar', phone: '+1 512 555 0101', rating: 4.0 });
    const created = await post(h, '/monitors', { endpoint: '/maps/search', queries: ['coffee austin'], params: { limit: 50 }, schedule: { every_s: 3600 }, webhook: hook.url, name: 'austin coffee' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id as string;
    assert.deepEqual([created.body.status, created.body.compare.identity], ['active', ['place_id']]);
    const runsDone = (n: number) => until(async () => {
      const r = (await h.json(`/monitors/${id}/runs`)).body.runs as any[];
      return r.filter((x) => x.status === 'done' || x.status === 'failed').length >= n && r;
    }, 20_000, `${n} runs ended`);
    // The first run at once: the baseline, no change reported.
    const [first] = await runsDone(1);
    assert.deepEqual([first.baseline, first.counts.records, first.status], [true, 2, 'done']);
    assert.deepEqual((await h.json(`/monitors/${id}/changes`)).body.changes, []);
    // The world changes; an hour later the next run reports exactly that.
    world.get('a')!.phone = '+1 512 555 0199';
    world.delete('b');
    world.set('c', { place_id: 'c', name: 'Gamma Grill', phone: null, rating: 4.8 });
    h.clock.offset += 3_600_000;
    const runs = await runsDone(2);
    assert.deepEqual([runs[0].baseline, runs[0].counts.new, runs[0].counts.gone, runs[0].counts.changed], [false, 1, 1, 1]);
    const ch = (await h.json(`/monitors/${id}/changes`)).body;
    assert.deepEqual(ch.changes.map((c: any) => [c.kind, c.identity, c.field, c.before, c.after]).sort(),
      [['changed', 'a', 'phone', '+1 512 555 0100', '+1 512 555 0199'], ['gone', 'b', null, null, null], ['new', 'c', null, null, null]]);
    assert.equal(ch.changes.find((c: any) => c.kind === 'new').record.name, 'Gamma Grill');
    // Paged through a cursor, filtered by kind.
    const p1 = (await h.json(`/monitors/${id}/changes?pageSize=2`)).body;
    const p2 = (await h.json(`/monitors/${id}/changes?pageSize=2&cursor=${p1.next_cursor}`)).body;
    assert.deepEqual([p1.changes.length, p1.has_more, p2.changes.length, p2.has_more], [2, true, 1, false]);
    assert.deepEqual((await h.json(`/monitors/${id}/changes?kind=gone`)).body.changes.map((c: any) => c.identity), ['b']);
    assert.equal((await h.json(`/monitors/${id}/changes?kind=moved`)).status, 422);
    // Runs are ordinary requests: listed, billed.
    const req = await h.svc.ctx.store.getRequest(runs[0].request_id);
    assert.deepEqual([req!.endpoint, req!.status, req!.usage], ['/maps/search', 'Success', 2]);
    // The webhook of the second run carries its changes, signed with the account's secret.
    const secret = (await h.json('/profile/webhook-secret')).body.webhook_secret;
    const call = await until(async () => hook.calls.find((c) => c.body.monitor?.run_id === runs[0].id), 15_000, 'the run\'s webhook');
    assert.equal(call.signature, `sha256=${createHmac('sha256', secret).update(call.raw).digest('hex')}`);
    assert.deepEqual([call.body.monitor.monitor_id, call.body.monitor.counts.changed, call.body.monitor.changes.length], [id, 1, 3]);
    // Paused: due times pass, nothing runs. Resumed: the next run comes.
    assert.equal((await post(h, `/monitors/${id}`, { status: 'paused' }, 'PATCH')).body.next_run, null);
    h.clock.offset += 3 * 3_600_000;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await h.json(`/monitors/${id}/runs`)).body.runs.length, 2, 'a paused monitor runs nothing');
    // A run that fails says why; the one after it still comes.
    broken.on = true;
    const resumed = (await post(h, `/monitors/${id}`, { status: 'active' }, 'PATCH')).body;
    assert.ok(resumed.next_run * 1000 > h.svc.ctx.now(), 'resumed: the next run from now');
    h.clock.offset += 3_600_000;
    const afterFail = await runsDone(3);
    assert.equal(afterFail[0].status, 'failed');
    assert.match(afterFail[0].reason, /blocked: test: the site blocks us today/);
    assert.ok(logged.some((l) => l.includes('monitor run failed') && l.includes('the site blocks us today') && l.includes(id)), 'the operator\'s log says why too');
    broken.on = false;
    world.get('c')!.rating = 4.9;
    h.clock.offset += 3_600_000;
    const afterOk = await runsDone(4);
    assert.deepEqual([afterOk[0].status, afterOk[0].counts.changed], ['done', 1]);
    const last = (await h.json(`/monitors/${id}/changes?kind=changed`)).body.changes.at(-1);
    assert.deepEqual([last.identity, last.field, last.before, last.after], ['c', 'rating', 4.8, 4.9]);
    // Another account sees none of it; delete removes it.
    const other = await h.newAccount();
    assert.equal((await h.json(`/monitors/${id}`, { key: other.key })).status, 404);
    assert.equal((await h.json(`/monitors/${id}/changes`, { key: other.key })).status, 404);
    assert.equal((await h.json(`/monitors/${id}`, { method: 'DELETE' })).status, 200);
    assert.equal((await h.json(`/monitors/${id}`)).status, 404);
  } finally { await hook.close(); }
}

for (const kind of ['sqlite', 'postgres'] as const) {
  const pg = pgTestUrl();
  test(`monitors end to end on ${kind}: baseline, new / gone / changed, webhook, pause, a failed run, paging`, { skip: kind === 'postgres' && !pg ? 'PostgreSQL not configured: set TEST_DATABASE_URL' : false, timeout: 90_000 }, async () => {
    const world = new Map<string, Rec>();
    const broken = { on: false };
    const schema = scratchSchema();
    const logged: string[] = [];
    const h = await startHarness({
      log: createLogger('warn', { write: (l: string) => { logged.push(l); } }),
      adapters: registryOfAdapters([worldAdapter(world, broken)]), settings: { monitorTickMs: 40, allowPrivateTargets: true },
      backendEnv: kind === 'postgres' ? { DATABASE_URL: pg!, DATABASE_SCHEMA: schema, QUEUE: 'embedded' } : {},
    });
    try { await scenario(h, world, broken, logged); } finally { await h.close(); if (kind === 'postgres') await dropSchema(pg!, schema); }
  });
}

test('a monitor that could never run is refused, naming the field', async () => {
  const h = await startHarness({ settings: { monitorTickMs: 60_000 } });
  try {
    const bad = async (body: unknown, re: RegExp) => {
      const r = await post(h, '/monitors', body);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.match(r.body.errorMessage, re);
    };
    await bad({ queries: ['x'], schedule: { every_s: 3600 } }, /endpoint is required/);
    await bad({ endpoint: '/nope', queries: ['x'], schedule: { every_s: 3600 } }, /not a data endpoint/);
    await bad({ endpoint: '/maps/search', schedule: { every_s: 3600 } }, /queries is required/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 5 } }, /every_s must be a whole number of seconds from 60/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { cron: '61 * * * *' } }, /schedule.cron/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 }, params: { limitt: 5 } }, /params.limitt is not a parameter/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 }, params: { limit: 'many' } }, /params: /);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 }, name: 'a\u0007b' }, /name has a control character/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 }, name: 'a\u0000b' }, /name: contains a NUL/);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 }, webhook: 'http://169.254.169.254/' }, /webhook .* is refused/);
    await bad({ endpoint: '/directory-phones', queries: ['+1'], schedule: { every_s: 3600 } }, /compare is required/);
    const ok = await post(h, '/monitors', { endpoint: '/maps/search', queries: ['x'], schedule: { cron: '0 9 * * 1', time_zone: 'Europe/Athens' } });
    assert.equal(ok.status, 200);
    const patched = await post(h, `/monitors/${ok.body.id}`, { endpoint: '/other' }, 'PATCH');
    assert.equal(patched.status, 422);
    assert.match(patched.body.errorMessage, /endpoint cannot be changed/);
    // The cap: 200 monitors an account (counted, not read), then a 422 saying so.
    for (let i = 1; i < 200; i++) assert.equal((await post(h, '/monitors', { endpoint: '/maps/search', queries: [`q${i}`], schedule: { every_s: 3600 }, status: 'paused' })).status, 200);
    await bad({ endpoint: '/maps/search', queries: ['x'], schedule: { every_s: 3600 } }, /at most 200 monitors; delete one first/);
  } finally { await h.close(); }
});

test('reviews: after the baseline a run asks only for reviews since the newest seen (cutoff), and reports the new ones', { timeout: 60_000 }, async () => {
  const reviews = new Map<string, { review_id: string; review_timestamp: number }[]>([
    ['p1', [{ review_id: 'a', review_timestamp: 1_000 }, { review_id: 'b', review_timestamp: 2_000 }]],
    ['p2', [{ review_id: 'c', review_timestamp: 1_500 }]],
  ]);
  const asked: Record<string, unknown>[] = [];
  const adapter: LocalAdapter = {
    kind: 'local', endpoint: '/maps/reviews',
    async lookup({ query, params }) {
      asked.push(params);
      const cutoff = typeof params.cutoff === 'number' ? params.cutoff : 0;
      const all = reviews.get(query) ?? [];
      return [{ query, place_id: query, rating: 4, reviews: all.length, reviews_data: all.filter((r) => r.review_timestamp >= cutoff) }];
    },
  };
  const h = await startHarness({ adapters: registryOfAdapters([adapter]), settings: { monitorTickMs: 40 } });
  try {
    const m = (await post(h, '/monitors', { endpoint: '/maps/reviews', queries: ['p1', 'p2'], params: { reviewsLimit: 0 }, schedule: { every_s: 3600 } })).body;
    const ended = (n: number) => until(async () => {
      const r = (await h.json(`/monitors/${m.id}/runs`)).body.runs as any[];
      return r.filter((x) => x.status === 'done').length >= n && r;
    }, 20_000, `${n} runs`);
    await ended(1);
    assert.equal(asked.filter((p) => p.cutoff !== undefined).length, 0, 'the baseline reads everything');
    reviews.get('p2')!.push({ review_id: 'd', review_timestamp: 3_000 });
    reviews.get('p1')!.push({ review_id: 'e', review_timestamp: 2_500 });
    asked.length = 0;
    h.clock.offset += 3_600_000;
    await ended(2);
    assert.deepEqual(asked.map((p) => [p.cutoff, p.sort]), [[1_500, 'newest'], [1_500, 'newest']], 'the oldest of the places\' newest reviews');
    const ch = (await h.json(`/monitors/${m.id}/changes?kind=new_reviews`)).body.changes;
    assert.deepEqual(ch.map((c: any) => [c.identity, c.after, c.record.map((r: any) => r.review_id)]).sort(), [['p1', 1, ['e']], ['p2', 1, ['d']]]);
    const changed = (await h.json(`/monitors/${m.id}/changes?kind=changed`)).body.changes;
    assert.deepEqual(changed.map((c: any) => [c.identity, c.field, c.before, c.after]).sort(), [['p1', 'reviews', 2, 3], ['p2', 'reviews', 1, 2]]);
  } finally { await h.close(); }
});

test('a monitor run\'s webhook that fails is listed in /webhook-calls and retried on the backoff schedule, with the run\'s part', { timeout: 60_000 }, async () => {
  const world = new Map<string, Rec>([['a', { place_id: 'a', name: 'Alpha Café', rating: 4.5 }]]);
  const hits: any[] = [];
  let failNext = 1;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => { hits.push(JSON.parse(raw)); res.statusCode = failNext-- > 0 ? 500 : 200; res.end(); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const h = await startHarness({ adapters: registryOfAdapters([worldAdapter(world, { on: false })]), settings: { monitorTickMs: 40, allowPrivateTargets: true } });
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const m = (await post(h, '/monitors', { endpoint: '/maps/search', queries: ['coffee'], schedule: { every_s: 3600 }, webhook: url })).body;
    const run = await until(async () => (await h.json(`/monitors/${m.id}/runs`)).body.runs.find((r: any) => r.status === 'done'), 15_000, 'the baseline run');
    await until(async () => (await h.json('/webhook-calls')).body.length === 1, 15_000, 'the failed call listed');
    assert.equal((await h.json('/webhook-calls')).body[0].status, 'Status code: 500');
    assert.equal(hits.length, 1);
    assert.equal(hits[0].monitor.run_id, run.id);
    // About a minute later (the service's clock) the same delivery is made again, and succeeds.
    h.clock.offset += 61_000;
    await until(async () => hits.length === 2, 10_000, 'the retry');
    assert.deepEqual([hits[1].id, hits[1].monitor.run_id, hits[1].monitor.monitor_id], [hits[0].id, run.id, m.id]);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await h.json('/webhook-calls')).body.length, 1, 'the successful retry is no failed call');
    assert.equal((await h.json(`/monitors/${m.id}/runs`)).body.runs.length, 1, 'a webhook retry is no new run');
  } finally { await h.close(); await new Promise<void>((r) => server.close(() => r())); }
});

/** A monitor whose account cannot pay pauses itself with the reason, and resumes when the user resumes it after a top-up. */
async function unpaidScenario(h: Harness, world: Map<string, Rec>) {
  for (const id of ['a', 'b', 'c', 'd', 'e']) world.set(id, { place_id: id, name: `Place ${id}`, phone: null, rating: 4 });
  // 0.0075 pays two places at 0.003: the first run stops at the credit limit after two.
  const { account, key } = await h.newAccount({ balance: 0.0075 });
  const call = (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') =>
    h.json(path, { key, method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const created = await call('/monitors', { endpoint: '/maps/search', queries: ['coffee'], schedule: { every_s: 3600 } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.paused_reason, null);
  const id = created.body.id as string;
  const ended = (n: number) => until(async () => {
    const r = (await call(`/monitors/${id}/runs`)).body.runs as any[];
    return r.filter((x) => x.status === 'done' || x.status === 'failed').length >= n && r;
  }, 20_000, `${n} runs ended`);
  const pausedWith = (re: RegExp) => until(async () => {
    const m = (await call(`/monitors/${id}`)).body;
    return m.status === 'paused' && re.test(m.paused_reason ?? '') && m;
  }, 10_000, `paused with ${re}`);
  // 1. A run cut at the credit limit: its records kept and billed, the monitor paused with the reason.
  const [first] = await ended(1);
  assert.deepEqual([first.status, first.counts.records], ['done', 2]);
  assert.match(first.reason, /credit limit/);
  const paused = await pausedWith(/stopped at its account's credit limit.*top up, then resume/);
  assert.equal(paused.next_run, null);
  assert.match((await call('/monitors')).body.monitors[0].paused_reason, /credit limit/, 'the listing shows the reason too');
  assert.ok((await h.svc.ctx.store.getAccount(account.id))!.balanceMicros >= 0, 'never past the limit');
  h.clock.offset += 3 * 3_600_000;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await call(`/monitors/${id}/runs`)).body.runs.length, 1, 'a paused monitor runs nothing');
  // 2. Resumed while the account still cannot pay: a 402, still paused with its reason.
  await h.svc.ctx.store.addBalance(account.id, -(await h.svc.ctx.store.getAccount(account.id))!.balanceMicros);
  const refused = await call(`/monitors/${id}`, { status: 'active' }, 'PATCH');
  assert.equal(refused.status, 402, JSON.stringify(refused.body));
  assert.match((await call(`/monitors/${id}`)).body.paused_reason, /credit limit/);
  // 3. Topped up, resumed: the reason goes, the next run comes and finds the places the cut run missed (none reported gone).
  await h.svc.ctx.store.addBalance(account.id, 1_000_000);
  const resumed = await call(`/monitors/${id}`, { status: 'active' }, 'PATCH');
  assert.deepEqual([resumed.status, resumed.body.status, resumed.body.paused_reason], [200, 'active', null]);
  h.clock.offset += 3_600_000;
  const [second] = await ended(2);
  assert.deepEqual([second.status, second.counts.new, second.counts.gone, second.reason], ['done', 3, 0, null]);
  // 4. The account at zero when a run is due: the run fails at its start (402), the monitor pauses.
  await h.svc.ctx.store.addBalance(account.id, -(await h.svc.ctx.store.getAccount(account.id))!.balanceMicros);
  h.clock.offset += 3_600_000;
  const [third] = await ended(3);
  assert.equal(third.status, 'failed');
  assert.match(third.reason, /the run could not start: please close past due/);
  await pausedWith(/cannot pay a run .*top up, then resume/);
  // The user's own pause replaces the service's reason.
  const userPaused = await call(`/monitors/${id}`, { status: 'paused' }, 'PATCH');
  assert.deepEqual([userPaused.body.status, userPaused.body.paused_reason], ['paused', null]);
}

for (const kind of ['sqlite', 'postgres'] as const) {
  const pg = pgTestUrl();
  test(`a monitor whose account cannot pay pauses itself with the reason and resumes after a top-up, on ${kind}`, { skip: kind === 'postgres' && !pg ? 'PostgreSQL not configured: set TEST_DATABASE_URL' : false, timeout: 90_000 }, async () => {
    const world = new Map<string, Rec>();
    const schema = scratchSchema();
    const h = await startHarness({
      adapters: registryOfAdapters([worldAdapter(world, { on: false })]), settings: { monitorTickMs: 40 },
      backendEnv: kind === 'postgres' ? { DATABASE_URL: pg!, DATABASE_SCHEMA: schema, QUEUE: 'embedded' } : {},
    });
    try { await unpaidScenario(h, world); } finally { await h.close(); if (kind === 'postgres') await dropSchema(pg!, schema); }
  });
}
