// Worker processes as one polite client (issue 35): executors linked to one cluster store (Redis
// under a key prefix of its own, PostgreSQL in a schema of its own) share back-offs, proxy benches
// and pace slots; a killed process holds its slots no longer than its lease; a store that stops
// leaves every process pacing at 1/N, so the rate one IP sends stays at or under the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type http from 'node:http';
import { CAP_MARGIN, Executor } from '../src/fetch/executor.ts';
import type { ExecutorSettings } from '../src/fetch/settings.ts';
import { redactProxy } from '../src/fetch/proxy.ts';
import { forwardProxy, loopback, type ForwardProxy } from '../src/fetch/loopback.testkit.ts';
import { ClusterLink } from '../src/fetch/cluster/link.ts';
import { RedisClusterStore } from '../src/fetch/cluster/redis.ts';
import { PostgresClusterStore } from '../src/fetch/cluster/postgres.ts';
import type { ClusterStore } from '../src/fetch/cluster/store.ts';
import { REDIS_SKIP, deleteKeys, privateRedisUnavailable, redisTestUrl, startPrivateRedis, uniquePrefix } from '../src/engine/backends/redis-testing.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../src/store/postgres/testing.ts';
import type { Step } from '../src/sources/_kit/adapter.ts';

type T = { after(fn: () => unknown): void };
const redisUrl = redisTestUrl();
const pgUrl = pgTestUrl();
const base: Partial<ExecutorSettings> = { allowPrivateTargets: true, retries: 0, timeoutMs: 5000 };
const step = (url: string): Step => ({ kind: 'test', url, expect: 'html' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<V>(fn: () => V | undefined | false, what: string, ms = 10_000): Promise<V> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Opens linked stores of one cluster ("processes"), all closed after the test. */
async function cluster(t: T, kind: 'redis' | 'postgres'): Promise<() => Promise<ClusterLink>> {
  let open: () => Promise<ClusterStore>;
  if (kind === 'redis') {
    const prefix = uniquePrefix('clpace');
    open = async () => {
      const s = new RedisClusterStore({ url: redisUrl!, prefix });
      await s.ready();
      return s;
    };
    t.after(() => deleteKeys(redisUrl!, prefix));
  } else {
    const store = await openScratchPostgresStore(pgUrl!);
    t.after(() => store.close());
    open = async () => new PostgresClusterStore(store.clientConfig());
  }
  return async () => {
    const store = await open();
    const link = new ClusterLink(store, { pollMs: 100 });
    await link.start();
    t.after(async () => {
      await link.close();
      await store.close();
    });
    return link;
  };
}

async function proxies(t: T, n: number): Promise<ForwardProxy[]> {
  const ps = await Promise.all(Array.from({ length: n }, () => forwardProxy()));
  ps.forEach((p, i) => p.server.prependListener('request', (req: http.IncomingMessage) => (req.headers['x-from-proxy'] = String(i))));
  t.after(() => Promise.all(ps.map((p) => p.close())));
  return ps;
}

for (const kind of ['redis', 'postgres'] as const) {
  const skip = kind === 'redis' ? !redisUrl && REDIS_SKIP : !pgUrl && PG_SKIP;

  test(`${kind}: a 429 seen by one worker pauses the key in the other`, { skip, timeout: 30_000 }, async (t) => {
    const arrivals: number[] = [];
    const srv = await loopback((_req, res) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1) {
        res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '2' });
        return void res.end('slow down');
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>ok</p>');
    });
    t.after(() => srv.close());
    const [p] = await proxies(t, 1);
    const link = await cluster(t, kind);
    const [la, lb] = [await link(), await link()];
    const settings = { ...base, proxyUrls: [`http://127.0.0.1:${p!.port}`], perProxyRps: 20 };
    const a = new Executor(settings, { cluster: la });
    const b = new Executor(settings, { cluster: lb });
    t.after(() => Promise.all([a.close(), b.close()]));

    await assert.rejects(a.run(step(`${srv.url}/a`), 'a'), (e: { type?: string }) => e.type === 'rate_limited');
    const key = `127.0.0.1:${srv.port}|${redactProxy(`http://127.0.0.1:${p!.port}`)}`;
    // The other process hears of the back-off from the store's feed...
    await until(() => lb.get('pause', key), 'the pause to reach the other worker');
    // ...and sends nothing on the key before the 429's Retry-After is over.
    const res = await b.run(step(`${srv.url}/b`), 'b');
    assert.equal(res.status, 200);
    assert.equal(arrivals.length, 2);
    assert.ok(arrivals[1]! - arrivals[0]! >= 1900, `the other worker sent ${Math.round(arrivals[1]! - arrivals[0]!)} ms after the 429 (Retry-After 2 s)`);
  });

  test(`${kind}: a proxy benched by one worker is skipped by the other`, { skip, timeout: 30_000 }, async (t) => {
    const srv = await loopback((req, res) => {
      res.writeHead(req.headers['x-from-proxy'] === '0' ? 403 : 200, { 'content-type': 'text/html' });
      res.end('<title>page</title>');
    });
    t.after(() => srv.close());
    const ps = await proxies(t, 2);
    const link = await cluster(t, kind);
    const [la, lb] = [await link(), await link()];
    const settings = { ...base, proxyUrls: ps.map((p) => `http://127.0.0.1:${p.port}`) };
    const a = new Executor(settings, { cluster: la });
    const b = new Executor(settings, { cluster: lb });
    t.after(() => Promise.all([a.close(), b.close()]));

    // Worker A meets the block through proxy 0 (the site refuses that IP): benched for the site.
    for (let i = 0; ps[0]!.targets.length === 0; i++) await a.run(step(`${srv.url}/a${i}`), `a${i}`).catch(() => undefined);
    const key = `127.0.0.1:${srv.port}|${redactProxy(`http://127.0.0.1:${ps[0]!.port}`)}`;
    await until(() => lb.get('proxy', key), 'the bench to reach the other worker');
    for (let i = 0; i < 10; i++) assert.equal((await b.run(step(`${srv.url}/b${i}`), `b${i}`)).status, 200);
    assert.equal(ps[0]!.targets.length, 1, 'worker B never sent through the proxy A benched');
    assert.ok(ps[1]!.targets.length >= 10);
  });

  test(`${kind}: a signed-in identity benched by one worker is skipped by the other`, { skip, timeout: 30_000 }, async (t) => {
    // The site signs out account 1 (its cookie answers 403); account 2 stays signed in.
    const cookies: string[] = [];
    const srv = await loopback((req, res) => {
      cookies.push(String(req.headers.cookie ?? ''));
      res.writeHead(req.headers.cookie === 'SID=one' ? 403 : 200, { 'content-type': 'text/html' });
      res.end('<title>page</title>');
    });
    t.after(() => srv.close());
    const link = await cluster(t, kind);
    const [la, lb] = [await link(), await link()];
    const settings = { ...base, retries: 1, signedIn: { hosts: [`127.0.0.1:${srv.port}`], benchMs: 60_000,
      accounts: [{ label: 'account-1', cookie: 'SID=one' }, { label: 'account-2', cookie: 'SID=two' }] } };
    const a = new Executor(settings, { cluster: la });
    const b = new Executor(settings, { cluster: lb });
    t.after(() => Promise.all([a.close(), b.close()]));

    await a.run(step(`${srv.url}/a`), 'a').catch(() => undefined);
    assert.ok(cookies.includes('SID=one'), 'worker A met the signed-out account');
    await until(() => lb.get('identity', 'maps/account-1'), 'the bench to reach the other worker');
    const before = cookies.length;
    for (let i = 0; i < 6; i++) assert.equal((await b.run(step(`${srv.url}/b${i}`), `b${i}`)).status, 200);
    assert.deepEqual(new Set(cookies.slice(before)), new Set(['SID=two']), 'worker B never sent the cookie A benched');
  });
}

test('kill -9 of a worker: its starts on a key are gone within its lease, and it drops out of the members', { skip: !redisUrl && REDIS_SKIP, timeout: 60_000 }, async (t) => {
  const prefix = uniquePrefix('clkill');
  t.after(() => deleteKeys(redisUrl!, prefix));
  const key = 'site.example:443|proxy-1';
  const gap = 100;
  // 20 requests waiting on the key in the child: without a bound it would hold 20 starts (2 s) ahead.
  const child = spawn(process.execPath, ['bin/run-ts.js', 'test/support/pacing-child.ts', redisUrl!, prefix, key, String(gap), '20'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  t.after(() => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    child.once('exit', (c) => reject(new Error(`the child exited (${c}) before leasing`)));
  });
  const store = new RedisClusterStore({ url: redisUrl!, prefix });
  await store.ready();
  t.after(() => store.close());
  assert.equal(await store.heartbeat('parent', 60_000), 2, 'the child is a member');
  await sleep(500); // the child leases on, a lease at a time
  child.kill('SIGKILL');
  await exited;
  // One lease is at most 4 starts (400 ms here); the child asked for its next only once its last had begun.
  const lease = await store.lease(key, 1, gap);
  assert.ok(lease.firstInMs <= 2 * 4 * gap + 100, `the killed worker's starts held the key ${Math.round(lease.firstInMs)} ms more`);
  const end = Date.now() + 10_000;
  let members = 2;
  while (members > 1 && Date.now() < end) {
    await sleep(250);
    members = await store.heartbeat('parent', 60_000);
  }
  assert.equal(members, 1, 'the killed worker stopped counting after its heartbeat time');
});

test('the store stopped mid-run: each worker paces alone at 1/N, and the rate the IP sends stays under the cap (measured at the site)', { skip: privateRedisUnavailable() ?? false, timeout: 60_000 }, async (t) => {
  const rps = 10;
  // The site's token bucket at the cap, as a site keeps it per IP: a request beyond it is a violation.
  // A burst of 10, as the bench's wall: arrivals jitter (a new connection through the proxy each
  // time, a loaded box). Twice the rate (each worker at the whole cap) drains it within a second.
  const burst = 10;
  let tokens = burst;
  let at = performance.now();
  let violations = 0;
  const arrivals: number[] = [];
  const t0 = performance.now();
  const srv = await loopback((_req, res) => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * rps);
    at = now;
    arrivals.push(now);
    if (tokens < 1) {
      violations++;
      if (process.env.CLUSTER_DEBUG) console.error(`violation at ${Math.round(now - t0)} ms`);
    }
    else tokens -= 1;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>ok</p>');
  });
  t.after(() => srv.close());
  const [p] = await proxies(t, 1);
  const redis = await startPrivateRedis();
  t.after(() => redis.destroy());
  const links: ClusterLink[] = [];
  for (let i = 0; i < 2; i++) {
    const s = new RedisClusterStore({ url: redis.url, prefix: 'clout' });
    await s.ready();
    const l = new ClusterLink(s, { pollMs: 100, heartbeatMs: 200 });
    await l.start();
    links.push(l);
    t.after(async () => {
      await l.close();
      await s.close();
    });
  }
  await until(() => links.every((l) => l.members === 2), 'both workers to count each other');
  const exs = links.map((cluster) => new Executor({ ...base, proxyUrls: [`http://127.0.0.1:${p!.port}`], perProxyRps: rps }, { cluster }));
  t.after(() => Promise.all(exs.map((e) => e.close())));
  let stop = false;
  let n = 0;
  const work = async (ex: Executor) => {
    while (!stop) {
      const i = n++;
      await ex.run(step(`${srv.url}/q${i}`), `q${i}`).catch(() => undefined);
    }
  };
  const runs = exs.flatMap((ex) => Array.from({ length: 6 }, () => work(ex)));
  await sleep(2000);
  const shared = links.map((l) => l.stats.leases);
  await redis.kill();
  const killedAt = performance.now();
  if (process.env.CLUSTER_DEBUG) console.error(`killed at ${Math.round(killedAt - t0)} ms`);
  await sleep(3000);
  stop = true;
  await Promise.all(runs);
  assert.ok(shared.every((x) => x > 0), `both workers leased starts from the store before it stopped (${shared})`);
  assert.ok(links.every((l) => l.degraded), 'both noticed the store is gone');
  assert.ok(links.every((l) => l.stats.localStarts > 0), 'and paced alone');
  if (process.env.CLUSTER_DEBUG) console.error(arrivals.map((x) => Math.round(x - t0)).join(' '));
  assert.equal(violations, 0, `${violations} requests over the site's per-IP rate`);
  const after = arrivals.filter((x) => x > killedAt + 500 && x <= killedAt + 3000).length;
  assert.ok(after <= rps * 2.5 + burst, `${after} requests in the 2.5 s after the outage began: at most the cap (${rps}/s)`);
  assert.ok(after >= rps * (1 - CAP_MARGIN) * 2.5 * 0.3, `the workers went on (${after} requests)`);
});
