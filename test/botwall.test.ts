// The bench's bot wall judges handshakes the way it claims: the browser-true transport passes it,
// Node's own TLS under a browser User-Agent does not (bench/botwall-lib.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Executor } from '../src/fetch/executor.ts';
import { WebTransport } from '../src/fetch/impersonate.ts';
import { connectProxy, startWall } from '../bench/botwall-lib.ts';

async function through(t: { after(fn: () => unknown): void }, profile: 'browser' | 'node', n: number) {
  const { wall, stats } = await startWall({ rps: 100, burst: 20, banAfter: 5, bannedAtStart: [] });
  const proxy = await connectProxy('127.0.0.7');
  const ex = new Executor({ allowPrivateTargets: true, fetchProfile: profile, proxyUrls: [proxy.url], retries: 0, timeoutMs: 5000 }, { transport: new WebTransport({ insecure: true, guard: { allowPrivate: true } }) });
  t.after(async () => {
    await ex.close();
    await proxy.close();
    await wall.close();
  });
  const outcomes: string[] = [];
  for (let i = 0; i < n; i++) outcomes.push(await ex.run({ kind: 'page', url: `${wall.url}/search?q=${i}`, expect: 'html' }, `q${i}`).then((r) => (r.body.includes(`data-q="${i}"`) ? 'ok' : 'wrong'), (e) => e.type));
  return { outcomes, stats, wall };
}

test('browser-true identities pass the wall through a loopback proxy, seen from the proxy\'s IP', async (t) => {
  const { outcomes, stats, wall } = await through(t, 'browser', 6);
  assert.deepEqual(outcomes, Array(6).fill('ok'));
  assert.equal(stats.incoherent, 0);
  assert.ok(wall.connections.every((c) => c.remoteAddress.endsWith('127.0.0.7')));
});

test('undici with a browser User-Agent is judged incoherent and soft-blocked, then banned', async (t) => {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  t.after(() => delete process.env.NODE_TLS_REJECT_UNAUTHORIZED);
  const { outcomes, stats } = await through(t, 'node', 8);
  assert.ok(stats.incoherent >= 1);
  assert.ok(outcomes.every((o) => o !== 'ok'), outcomes.join(','));
  assert.ok(outcomes.some((o) => o === 'captcha' || o === 'rate_limited'), `soft blocks: ${outcomes.join(',')}`);
  assert.equal(stats.bans, 1, 'five violations ban the IP');
  assert.ok(outcomes.includes('blocked'), 'the banned IP gets 403s');
  assert.equal(outcomes.at(-1), 'network', 'then its only proxy is benched for the site: not hammered');
});
