// The executor with pooled identities, proxy health, tiers and pacing, against loopback sites and proxies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { CAP_MARGIN, Executor } from './executor.ts';
import type { ExecutorSettings } from './settings.ts';
import type { FetchEvent, ProxyEvent } from './events.ts';
import { forwardProxy, loopback, type ForwardProxy } from './loopback.testkit.ts';
import type { Step } from '../sources/_kit/adapter.ts';

const base: Partial<ExecutorSettings> = { allowPrivateTargets: true, retries: 2, retryBaseMs: 5, retryMaxMs: 10, timeoutMs: 5000 };
const step = (url: string): Step => ({ kind: 'test', url, expect: 'html' });

async function proxies(t: { after(fn: () => unknown): void }, n: number): Promise<ForwardProxy[]> {
  const ps = await Promise.all(Array.from({ length: n }, () => forwardProxy()));
  ps.forEach((p, i) => p.server.prependListener('request', (req: http.IncomingMessage) => (req.headers['x-from-proxy'] = String(i))));
  t.after(() => Promise.all(ps.map((p) => p.close())));
  return ps;
}

async function site(t: { after(fn: () => unknown): void }, handler: http.RequestListener) {
  const srv = await loopback(handler);
  t.after(() => srv.close());
  return srv;
}

test('work items share a host\'s identities; a proxy the site blocks is benched and never used again', async (t) => {
  const srv = await site(t, (req, res) => {
    res.writeHead(req.headers['x-from-proxy'] === '0' ? 403 : 200, { 'content-type': 'text/html', 'set-cookie': 'sid=1; Path=/' });
    res.end(`<p>${req.headers.cookie ?? 'no cookie'}</p>`);
  });
  const ps = await proxies(t, 3);
  const events: FetchEvent[] = [];
  const ex = new Executor({ ...base, proxyUrls: ps.map((p) => `http://127.0.0.1:${p.port}`), sessionPoolSize: 2 }, { onEvent: (e) => events.push(e) });
  t.after(() => ex.close());
  const bodies: string[] = [];
  for (let i = 0; i < 12; i++) bodies.push((await ex.run(step(`${srv.url}/q${i}`), `item-${i}`)).body);
  assert.equal(ps[0]!.targets.length, 1, 'one block, then proxy 0 is benched for this site');
  assert.equal(ps[1]!.targets.length + ps[2]!.targets.length, 12, 'every item answered through the others');
  assert.ok(bodies.filter((b) => b.includes('sid=1')).length >= 9, 'identities are reused: their cookies travel with them');
  const proxyEvents = events.filter((e): e is ProxyEvent => e.type === 'proxy');
  assert.equal(proxyEvents.filter((e) => e.outcome === 'blocked').length, 1);
  assert.equal(proxyEvents.filter((e) => e.outcome === 'ok').length, 12);
  assert.ok(proxyEvents.every((e) => e.tier === 'default' && e.host.startsWith('127.0.0.1:')));
});

test('PROXY_TIERS: a host its cheap tier cannot reach moves to the next tier and stays there', async (t) => {
  const srv = await site(t, (req, res) => {
    res.writeHead(req.headers['x-from-proxy'] === '2' ? 200 : 403, { 'content-type': 'text/html' });
    res.end('page');
  });
  const ps = await proxies(t, 3);
  const url = (p: ForwardProxy) => `http://127.0.0.1:${p.port}`;
  const ex = new Executor({ ...base, retries: 3, proxyTiers: [{ name: 'datacenter', urls: [url(ps[0]!), url(ps[1]!)] }, { name: 'residential', urls: [url(ps[2]!)] }] });
  t.after(() => ex.close());
  for (let i = 0; i < 10; i++) assert.equal((await ex.run(step(`${srv.url}/q${i}`), `item-${i}`)).status, 200);
  assert.equal(ps[0]!.targets.length + ps[1]!.targets.length, 2, 'each datacenter proxy was tried once, then benched for the site');
  assert.equal(ps[2]!.targets.length, 10);
});

test('a proxy that keeps failing is benched, not hammered', async (t) => {
  const srv = await site(t, (_req, res) => res.end('ok'));
  const ps = await proxies(t, 1);
  const dead = 'http://127.0.0.1:9'; // discard port: connection refused
  const ex = new Executor({ ...base, retries: 1, proxyFailThreshold: 2, proxyBenchMs: 60_000, proxyUrls: [dead, `http://127.0.0.1:${ps[0]!.port}`] });
  t.after(() => ex.close());
  const events: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await ex.run(step(`${srv.url}/q${i}`), `item-${i}`).then(() => 'ok', (e) => e.type);
    events.push(r);
  }
  assert.ok(events.every((e) => e === 'ok'), `a failed proxy's retry takes another: ${events.join(',')}`);
  assert.equal(ps[0]!.targets.length, 20);
});

test('PER_PROXY_RPS is never exceeded, however many items wait', async (t) => {
  const starts: number[] = [];
  const srv = await site(t, (_req, res) => res.end('ok'));
  const ps = await proxies(t, 1);
  // Arrivals at the proxy (the site's side of it forwards over a pool that may bunch them).
  ps[0]!.server.prependListener('request', () => starts.push(performance.now()));
  // undici: the browser-true transport's own connection set-up would blur arrival times.
  const ex = new Executor({ ...base, fetchProfile: 'node', perProxyRps: 20, perHostConcurrency: 50, proxyUrls: [`http://127.0.0.1:${ps[0]!.port}`] });
  t.after(() => ex.close());
  await ex.run(step(`${srv.url}/warm`), 'warm');
  const t0 = performance.now();
  starts.length = 0;
  await Promise.all(Array.from({ length: 8 }, (_, i) => ex.run(step(`${srv.url}/q${i}`), `item-${i}`)));
  // The warm-up started a gap before the first of these: the eighth starts at least 7 gaps after t0
  // (only a lower bound: a busy box can delay an arrival at the proxy, never bring one forward;
  // without pacing all eight arrive within a few ms).
  const last = Math.max(...starts) - t0;
  assert.equal(starts.length, 8);
  assert.ok(last >= (7 * 50) / (1 - CAP_MARGIN), `the eighth request arrived ${last.toFixed(0)} ms after t0 (5 % under the cap)`);
});

test('an identity\'s first request goes alone: the others sharing it wait for its answer, then run together', async (t) => {
  const arrivals: number[] = [];
  let firstAnswered = 0;
  let inFlight = 0;
  let most = 0;
  const srv = await site(t, (_req, res) => {
    arrivals.push(performance.now());
    most = Math.max(most, ++inFlight);
    setTimeout(() => {
      firstAnswered ||= performance.now();
      inFlight--;
      res.end('ok');
    }, 100);
  });
  // One pooled identity for every item: without the warm-up all five would leave at once, queued
  // behind its connection.
  const ex = new Executor({ ...base, fetchProfile: 'node', sessionPoolSize: 1 });
  t.after(() => ex.close());
  await Promise.all(Array.from({ length: 5 }, (_, i) => ex.run(step(`${srv.url}/q${i}`), `item-${i}`)));
  assert.equal(arrivals.length, 5);
  assert.ok(arrivals[1]! >= firstAnswered, 'nothing started beside the first request');
  assert.ok(most > 1, 'once answered, the identity is shared as before');
});
