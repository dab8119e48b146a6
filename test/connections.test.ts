/**
 * Connection caps (issue 28): one client address holding thousands of slow-loris connections gets
 * MAX_CONNECTIONS_PER_ADDRESS of them, the rest are closed on arrival; the ones it holds are closed at
 * HEADERS_TIMEOUT_MS; `/health` from another address keeps answering throughout. On loopback the
 * other address is 127.0.0.2 (Linux routes 127.0.0.0/8 to lo). The 20,000-connection run is in
 * docs/performance.md (this test's scenario at 2,000, which fits one process's descriptors).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startHarness, until } from './support/harness.ts';
import { offThreadClient } from './support/off-thread-client.ts';
import { connectionsFromEnv } from '../src/config/settings.ts';
import { descriptorLimit } from '../src/config/descriptors.ts';
import { dropSchema, pgTestUrl, scratchSchema } from '../src/store/postgres/testing.ts';

/** SLOW_CONNECTIONS=20000 is the figure: the default caps, clients in child processes of 10,000 connections each. */
const HOLD = Number(process.env.SLOW_CONNECTIONS ?? 2_000);
const MEASURED = process.env.SLOW_CONNECTIONS !== undefined;

/** GET /health from `localAddress`: status and milliseconds, or the error's code. */
function health(url: string, localAddress: string): Promise<{ status: number | string; ms: number }> {
  const u = new URL(url);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get({ host: u.hostname, port: Number(u.port), path: '/health', localAddress, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: e.code ?? 'error', ms: performance.now() - t0 }));
  });
}

test(`${HOLD} slow connections from one address: a few held, the rest closed on arrival, all closed at the headers time-out; /health from another address answers`, async () => {
  const connections = MEASURED ? connectionsFromEnv({}) : { perAddress: 50, total: 0, reserve: 0, headersTimeoutMs: 1_500, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000, backlog: 511 };
  const h = await startHarness({ settings: { workers: false, connections } });
  const clients = await Promise.all(Array.from({ length: Math.ceil(HOLD / 10_000) }, () => offThreadClient({ process: MEASURED })));
  const each = HOLD / clients.length;
  const c = { call: async <T>(op: 'hold' | 'closed' | 'answers', arg?: unknown): Promise<T> => {
    const all = await Promise.all(clients.map((x) => x.call<any>(op, arg)));
    if (op === 'hold') return { connected: all.reduce((n, r) => n + r.connected, 0) } as T;
    if (op === 'closed') return all.reduce((n, r) => n + r, 0) as T;
    return all.reduce((m, r) => { for (const [k, v] of Object.entries(r)) m[k] = (m[k] ?? 0) + (v as number); return m; }, {}) as T;
  }, close: () => Promise.all(clients.map((x) => x.close())) };
  try {
    const t0 = performance.now();
    const holding = c.call<{ connected: number }>('hold', { url: h.url, n: each, localAddress: '127.0.0.1' });
    const probes: { status: number | string; ms: number }[] = [];
    let opening = true;
    void holding.finally(() => { opening = false; });
    while (opening) probes.push(await health(h.url, '127.0.0.2'));
    const { connected } = await holding;
    assert.ok(connected > HOLD * 0.9, `${connected} of ${HOLD} connected`);
    // The server closed all but perAddress of them on arrival (the client sees them close).
    await until(async () => (await c.call<number>('closed')) >= HOLD - connections.perAddress, MEASURED ? 120_000 : 10_000, 'refused connections closed');
    for (let i = 0; i < 5; i++) probes.push(await health(h.url, '127.0.0.2'));
    // The held ones are closed when their headers time-out passes (checked every second).
    await until(async () => (await c.call<number>('closed')) === HOLD, connections.headersTimeoutMs + 4_000, 'held connections closed at the headers time-out');
    const closedAfter = performance.now() - t0;
    const bad = probes.filter((p) => p.status !== 200);
    if (MEASURED) {
      const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
      console.log(`${HOLD} held: ${probes.length} probes, ${bad.length} failed, median ${ms[ms.length >> 1].toFixed(1)} ms, p99 ${ms[Math.floor(ms.length * 0.99)].toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(0)} ms; all closed after ${closedAfter.toFixed(0)} ms`);
    }
    // Each held connection was told why; as they close, later arrivals take their places (a long run
    // has more than perAddress of them).
    const answers = await c.call<Record<string, number>>('answers');
    assert.deepEqual(Object.keys(answers), ['HTTP/1.1 408 Request Timeout'], 'the held ones were told why');
    assert.ok(answers['HTTP/1.1 408 Request Timeout'] >= connections.perAddress);
    probes.push(await health(h.url, '127.0.0.1'));
    const metrics = await (await h.get('/metrics', { key: null })).text();
    const refused = Number(/^trawl_connections_refused_total (\d+)/m.exec(metrics)?.[1]);
    // Every connection that reached the server was either closed on arrival or held and timed out (in
    // the long run some of the client's connects also give up in the kernel's full accept queue).
    if (MEASURED) console.log(`${refused} refused, ${answers['HTTP/1.1 408 Request Timeout']} held and timed out, ${connected} connected`);
    else assert.ok(refused >= HOLD - answers['HTTP/1.1 408 Request Timeout'] - (HOLD - connected), `${refused} refused`);
    const worst = Math.max(...probes.map((p) => p.ms));
    assert.deepEqual(bad, [], 'every /health probe from another address answered');
    // While the attacker's connections arrive, a probe's connection waits its turn in the kernel's
    // accept queue behind them (each is accepted and closed, 0.1-0.5 ms each on this box).
    assert.ok(worst < 3_000, `/health took up to ${worst.toFixed(0)} ms (${probes.length} probes); all closed after ${closedAfter.toFixed(0)} ms`);
  } finally { await c.close(); await h.close(); }
});

test('connection settings: defaults from the descriptor limit, and settings that cannot hold stop the start', () => {
  assert.deepEqual(connectionsFromEnv({}, 20_000), { perAddress: 256, total: 16_000, reserve: 800, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000, backlog: 4_096 });
  assert.deepEqual(connectionsFromEnv({}, null), { perAddress: 256, total: 8_000, reserve: 400, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000, backlog: 4_096 });
  assert.equal(connectionsFromEnv({ MAX_CONNECTIONS: '1000' }, 20_000).reserve, 50);
  assert.equal(connectionsFromEnv({}, 1024).total, 819);
  assert.equal(descriptorLimit(() => 'Max open files            20000                20000                files\n'), 20_000);
  assert.equal(descriptorLimit(() => 'Max open files            unlimited            unlimited            files\n'), null);
  assert.equal(connectionsFromEnv({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).perAddress, 0);
  assert.throws(() => connectionsFromEnv({ HEADERS_TIMEOUT_MS: '70000' }), /HEADERS_TIMEOUT_MS \(70000\) must not be longer than REQUEST_TIMEOUT_MS \(60000\)/);
  assert.throws(() => connectionsFromEnv({ MAX_CONNECTIONS: '100', CONNECTION_RESERVE: '100' }, 20_000), /CONNECTION_RESERVE \(100\) must be below MAX_CONNECTIONS \(100\)/);
  assert.throws(() => connectionsFromEnv({ MAX_CONNECTIONS: '30000' }, 20_000), /MAX_CONNECTIONS \(30000\) must be below the process's open-file limit \(20000/);
});

/** SLOW_ADDRESSES=100 is the figure (100 addresses × 200 connections, the default caps, clients in child processes). */
const ADDRESSES = Number(process.env.SLOW_ADDRESSES ?? 20);
const SPREAD = process.env.SLOW_ADDRESSES !== undefined;

test(`${ADDRESSES} addresses × ${SPREAD ? 200 : 100} slow connections, each address under its cap: the total cap holds and /health from a new address answers`, { timeout: 300_000 }, async () => {
  const each = SPREAD ? 200 : 100;
  const connections = SPREAD ? connectionsFromEnv({}) : { perAddress: 256, total: 1_000, reserve: 100, headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, backlog: 4_096 };
  // SLOW_STORE=postgres measures it on PostgreSQL (the figure was taken on both stores).
  const pg = process.env.SLOW_STORE === 'postgres' ? { url: pgTestUrl()!, schema: scratchSchema() } : null;
  const h = await startHarness({ settings: { workers: false, connections }, backendEnv: pg ? { DATABASE_URL: pg.url, DATABASE_SCHEMA: pg.schema, QUEUE: 'embedded' } : {} });
  const clients = await Promise.all(Array.from({ length: SPREAD ? 2 : 1 }, () => offThreadClient({ process: SPREAD })));
  let most = 0;
  const server = h.svc.server.server;
  const count = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
  try {
    const holding = Promise.all(Array.from({ length: ADDRESSES }, (_, a) =>
      clients[a % clients.length].call<{ connected: number }>('hold', { url: h.url, n: each, localAddress: `127.0.1.${a + 1}` })));
    const probes: { status: number | string; ms: number }[] = [];
    let opening = true;
    void holding.finally(() => { opening = false; });
    while (opening) {
      probes.push(await health(h.url, '127.0.0.2'));
      most = Math.max(most, await count());
    }
    for (let i = 0; i < 20; i++) {
      probes.push(await health(h.url, '127.0.0.2'));
      most = Math.max(most, await count());
    }
    const bad = probes.filter((p) => p.status !== 200);
    const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
    if (SPREAD) console.log(`${process.env.SLOW_STORE ?? 'sqlite'}: ${ADDRESSES} × ${each} held: ${probes.length} probes, ${bad.length} failed ${JSON.stringify(bad)}, median ${ms[ms.length >> 1].toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(0)} ms; at most ${most} open (cap ${connections.total})`);
    assert.deepEqual(bad, [], 'every /health probe from a new address answered');
    assert.ok(most <= connections.total, `${most} open, over the cap of ${connections.total}`);
    const metrics = await (await h.get('/metrics', { key: null })).text();
    const refused = Number(/^trawl_connections_refused_total (\d+)/m.exec(metrics)?.[1]);
    assert.ok(refused >= ADDRESSES * each - connections.total, `${refused} refused`);
  } finally {
    await Promise.all(clients.map((c) => c.call('release'))); await Promise.all(clients.map((c) => c.close())); await h.close();
    if (pg) await dropSchema(pg.url, pg.schema);
  }
});
