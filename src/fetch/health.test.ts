import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyHealth } from './proxy-health.ts';
import { HostTiers } from './tiers.ts';
import { ProxyPool } from './proxy.ts';
import { incoherentClientHints, SessionPool, type IdentitySource } from './session.ts';
import { ProxyChoice } from './proxy-choice.ts';
import { SourceError } from '../sources/_kit/errors.ts';
import { parseProxyTiers, executorSettingsFromEnv } from './settings.ts';

function clock() {
  const c = { t: 0, now: () => c.t };
  return c;
}

test('proxy health: benched after N network failures in a row, doubling, probation, cleared by a success', () => {
  const c = clock();
  const h = new ProxyHealth({ failThreshold: 3, benchBaseMs: 1000, benchMaxMs: 5000, now: c.now });
  assert.equal(h.fail('p', 'h', 'network'), 0);
  assert.equal(h.fail('p', 'h', 'network'), 0);
  assert.ok(h.available('p', 'h'));
  assert.equal(h.fail('p', 'h', 'network'), 1000, 'third failure in a row benches');
  assert.ok(!h.available('p', 'other-host'), 'a dead proxy is benched for every host');
  assert.equal(h.benchedCount(), 1);
  c.t = 1000;
  assert.ok(h.available('p', 'h'), 'back after the bench');
  assert.equal(h.fail('p', 'h', 'network'), 2000, 'on probation: the next failure benches again, doubled');
  c.t = 3000;
  assert.equal(h.fail('p', 'h', 'network'), 4000);
  c.t = 7000;
  assert.equal(h.fail('p', 'h', 'network'), 5000, 'capped');
  c.t = 12_000;
  h.ok('p', 'h');
  assert.equal(h.fail('p', 'h', 'network'), 0, 'a success clears the record');
});

test('proxy health: a block benches the proxy for that site only, at once', () => {
  const c = clock();
  const h = new ProxyHealth({ failThreshold: 3, benchBaseMs: 1000, benchMaxMs: 60_000, now: c.now });
  assert.equal(h.fail('p', 'site-a', 'blocked'), 1000);
  assert.ok(!h.available('p', 'site-a'));
  assert.ok(h.available('p', 'site-b'));
  assert.equal(h.availableAt('p', 'site-a'), 1000);
});

test('tiers: a host escalates when blocks dominate, probes back down, and a probe success moves it down', () => {
  const c = clock();
  const t = new HostTiers({ tiers: 2, probeEveryMs: 10_000, now: c.now });
  for (let i = 0; i < 20; i++) t.record('h', 0, i % 5 === 0 ? 'blocked' : 'ok');
  assert.equal(t.current('h'), 0, 'one answer in five blocked: stays on the cheap tier');
  for (let i = 0; i < 6; i++) t.record('g', 0, 'blocked');
  assert.equal(t.current('g'), 0, 'six blocks from a clean start are not yet a verdict');
  t.record('g', 0, 'blocked');
  assert.equal(t.current('g'), 1);
  for (let i = 0; i < 7; i++) t.record('h', 0, 'blocked');
  assert.equal(t.current('h'), 1, 'seven blocks in a row move the host up');
  t.record('h', 2, 'blocked');
  assert.deepEqual(t.choose('h'), { tier: 1, probe: false }, 'no probe before probeEveryMs');
  c.t = 10_000;
  assert.deepEqual(t.choose('h'), { tier: 0, probe: true });
  assert.deepEqual(t.choose('h'), { tier: 1, probe: false }, 'one probe at a time');
  t.record('h', 0, 'blocked');
  assert.equal(t.current('h'), 1, 'a blocked probe keeps the host up');
  c.t = 15_000;
  assert.equal(t.choose('h').probe, false, 'and the next probe waits a full period');
  c.t = 20_000;
  assert.equal(t.choose('h').probe, true);
  t.record('h', 0, 'ok');
  assert.equal(t.current('h'), 0, 'a successful probe moves the host back down');
  for (let i = 0; i < 30; i++) t.record('h', 0, 'blocked');
  assert.equal(t.current('h'), 1, 'never beyond the last tier');
});

function pools(tierUrls: string[][], limits = { poolSize: 2, maxUses: 3, maxAgeMs: 10_000, maxErrorScore: 3, errorScoreDecrement: 0.5 }) {
  const c = clock();
  const proxies = new ProxyPool(tierUrls.map((urls, i) => ({ name: `t${i}`, urls })), 'round_robin');
  const health = new ProxyHealth({ failThreshold: 1, benchBaseMs: 1000, benchMaxMs: 60_000, now: c.now });
  const tiers = new HostTiers({ tiers: tierUrls.length, probeEveryMs: 10_000, now: c.now });
  const busy = new Map<string, number>();
  const choice: IdentitySource = new ProxyChoice(proxies, health, tiers, (_h, p) => busy.get(p.label) ?? c.t, Infinity, c.now);
  const pool = new SessionPool({ proxies, locales: ['en-US'], maxSessions: 100, limits, identities: choice, now: c.now });
  return { c, proxies, health, tiers, pool, busy };
}

test('sessions per host: leased per work item, shared up to the pool size, retired by uses, age and score', async () => {
  const { c, pool, proxies, busy } = pools([['http://10.0.0.1:1', 'http://10.0.0.2:1']]);
  const a = pool.get('item-a', 'site:443');
  assert.equal(pool.get('item-a', 'site:443'), a, 'a work item keeps its identity on a host');
  const b = pool.get('item-b', 'site:443');
  assert.notEqual(a, b, 'a new identity while the pool is not full');
  assert.notEqual(a.proxy?.label, b.proxy?.label, 'new identities rotate proxies');
  busy.set(a.proxy!.label, 500); // a's proxy can start its next request later than b's
  const c3 = pool.get('item-c', 'site:443');
  assert.equal(c3, b, 'pool full: the identity whose proxy is free soonest is shared');
  assert.equal(pool.pooled('site:443').length, 2);
  assert.notEqual(pool.get('item-a', 'other:443'), a, 'identities are per host');

  // Uses.
  a.uses = 3;
  const a2 = pool.get('item-a', 'site:443');
  assert.notEqual(a2, a, 'used up: the lease moves to another identity');
  assert.ok(a.retired);
  // Score: a 429 and a soft block heal with successes; a block retires at once.
  pool.markBad(b, 'rate_limited');
  pool.markBad(b, 'soft_block');
  pool.markGood(b);
  assert.equal(b.errorScore, 1.5);
  assert.ok(!b.retired);
  pool.markBad(b, 'rate_limited');
  assert.ok(!b.retired);
  pool.markBad(b, 'soft_block');
  assert.ok(b.retired, 'score reached 3');
  const fresh = pool.get('item-b', 'site:443');
  pool.markBad(fresh, 'captcha');
  assert.ok(fresh.retired, 'a captcha retires at once');
  // Age.
  const young = pool.get('item-d', 'site:443');
  c.t = 10_000;
  assert.notEqual(pool.get('item-d', 'site:443'), young, 'too old');
  pool.release('item-d');
  assert.ok(proxies.size === 2);
});

test('identities avoid benched proxies and follow the host up a tier; all benched is a clear retryable error', () => {
  const { c, pool, health, tiers } = pools([['http://10.0.0.1:1', 'http://10.0.0.2:1'], ['http://10.9.0.1:1']]);
  const a = pool.get('a', 'site:443');
  health.fail(a.proxy!.label, 'site:443', 'blocked');
  const a2 = pool.get('a', 'site:443');
  assert.notEqual(a2, a, 'the proxy was benched for the site: the identity went with it');
  assert.notEqual(a2.proxy?.label, a.proxy?.label);
  health.fail(a2.proxy!.label, 'site:443', 'blocked');
  const up = pool.get('a', 'site:443');
  assert.equal(up.tier, 1, 'tier 0 all benched for this site: the next tier serves it');
  assert.equal(up.proxy?.tierName, 't1');
  health.fail(up.proxy!.label, 'site:443', 'blocked');
  assert.throws(() => pool.get('a', 'site:443'), (e: unknown) => e instanceof SourceError && e.type === 'network' && /benched/.test(e.message) && e.retryAfterMs === 1000);
  c.t = 1000;
  assert.ok(pool.get('a', 'site:443').proxy, 'back after the bench');
  // Escalation invalidates identities of the old tier.
  const { pool: p2, tiers: t2 } = pools([['http://10.0.0.1:1'], ['http://10.9.0.1:1']]);
  const low = p2.get('x', 'h:443');
  assert.equal(low.tier, 0);
  for (let i = 0; i < 7; i++) t2.record('h:443', 0, 'blocked');
  const high = p2.get('x', 'h:443');
  assert.equal(high.tier, 1);
  assert.ok(low.retired);
  void tiers;
});

test('a new identity takes the proxy free soonest; one still waiting for its first answer is lent last', () => {
  const { pool, busy } = pools([['http://10.0.0.1:1', 'http://10.0.0.2:1', 'http://10.0.0.3:1']]);
  busy.set('http://10.0.0.1:1', 500);
  const a = pool.get('a', 'site:443');
  assert.equal(a.proxy?.label, 'http://10.0.0.2:1', 'the busy first proxy is passed over');
  const b = pool.get('b', 'site:443');
  assert.equal(b.proxy?.label, 'http://10.0.0.3:1', 'then rotation among the idle ones');
  b.answered = true;
  busy.set(b.proxy!.label, 100); // a's proxy is free sooner, but a's first request is still out
  assert.equal(pool.get('c', 'site:443'), b, 'the pool is full: the answered identity is lent');
  a.answered = true;
  assert.equal(pool.get('d', 'site:443'), a, 'then the one whose proxy is free soonest');
});

test('PROXY_TIERS: parsed by name, checked, exclusive with PROXY_URLS', () => {
  assert.deepEqual(parseProxyTiers('datacenter=http://10.0.0.2:3128, http://10.0.0.3:3128 ; residential=socks5://u:p@res.example:1080'), [
    { name: 'datacenter', urls: ['http://10.0.0.2:3128', 'http://10.0.0.3:3128'] },
    { name: 'residential', urls: ['socks5://u:p@res.example:1080'] },
  ]);
  assert.throws(() => parseProxyTiers('http://10.0.0.2:3128'), /name=url/);
  assert.throws(() => parseProxyTiers('dc='), /no proxy URL/);
  assert.throws(() => parseProxyTiers('dc=ftp://x:1'), /scheme ftp:/);
  assert.throws(() => executorSettingsFromEnv({ PROXY_URLS: 'http://a:1', PROXY_TIERS: 'dc=http://b:1' }), /both set/);
  const s = executorSettingsFromEnv({ PROXY_TIERS: 'dc=http://b:1;res=http://c:1', PER_PROXY_RPS: '2.5', SESSION_MAX_AGE_S: '60' });
  assert.deepEqual(s.proxyUrls, ['http://b:1'], 'the browser and per-key rotation use the cheapest tier');
  assert.equal(s.perProxyRps, 2.5);
  assert.equal(s.sessionMaxAgeMs, 60_000);
  assert.throws(() => executorSettingsFromEnv({ SESSION_POOL_SIZE: '0' }), /SESSION_POOL_SIZE/);
});

test('a proxy paused past the wait (Retry-After) is passed over for new identities and leases', () => {
  const c = clock();
  const proxies = new ProxyPool([{ name: 't0', urls: ['http://10.0.0.1:1', 'http://10.0.0.2:1'] }], 'round_robin');
  const health = new ProxyHealth({ failThreshold: 1, benchBaseMs: 1000, benchMaxMs: 60_000, now: c.now });
  const tiers = new HostTiers({ tiers: 1, probeEveryMs: 10_000, now: c.now });
  const pausedUntil = new Map<string, number>();
  const choice = new ProxyChoice(proxies, health, tiers, (_h, p) => pausedUntil.get(p.label) ?? c.t, 30_000, c.now);
  const pool = new SessionPool({ proxies, locales: ['en-US'], maxSessions: 100, identities: choice, now: c.now });
  const a = pool.get('a', 'site:443');
  pausedUntil.set(a.proxy!.label, 120_000);
  const a2 = pool.get('a', 'site:443');
  assert.notEqual(a2.proxy?.label, a.proxy?.label, 'the lease left the paused IP');
  assert.notEqual(pool.get('b', 'site:443').proxy?.label, a.proxy?.label, 'and new identities avoid it');
});

test('header sets of a Chromium UA whose client hints are missing or contradict it are never used', () => {
  assert.equal(incoherentClientHints({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/101.0.4951.54 Safari/537.36' }), true);
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
  assert.equal(incoherentClientHints({ 'user-agent': firefox }), false);
  assert.equal(incoherentClientHints({ 'user-agent': firefox, 'sec-ch-ua': '"HeadlessChrome";v="147", "Not.A/Brand";v="8", "Chromium";v="147"' }), true, 'Firefox with client hints');
  const chrome125 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36';
  assert.equal(incoherentClientHints({ 'user-agent': chrome125, 'sec-ch-ua': '"Google Chrome";v="147", "Not.A/Brand";v="8", "Chromium";v="147"' }), true, 'another version');
  assert.equal(incoherentClientHints({ 'user-agent': chrome125, 'sec-ch-ua': '"Not:A-Brand";v="99", "HeadlessChrome";v="125", "Chromium";v="125"' }), true, 'headless');
  assert.equal(incoherentClientHints({ 'user-agent': chrome125, 'sec-ch-ua': '"Google Chrome";v="125", "Not.A/Brand";v="8", "Chromium";v="125"' }), false);
  const pool = new SessionPool({ proxies: new ProxyPool([], 'round_robin'), locales: ['en-US'], maxSessions: 10 });
  for (let i = 0; i < 300; i++) assert.equal(incoherentClientHints(pool.generateHeaders()), false);
});

test('a stub answer moves the work item to another identity of the host; the one left takes a soft block', () => {
  const { pool } = pools([['http://10.0.0.1:1', 'http://10.0.0.2:1']]);
  const a = pool.get('item-a', 'site:443');
  pool.moveOn('item-a', 'site:443');
  const b = pool.get('item-a', 'site:443');
  assert.notEqual(b, a, 'another identity');
  assert.equal(a.errorScore, 1, 'a soft block\'s weight on the one left');
  assert.equal(pool.get('item-a', 'site:443'), b, 'the item keeps its new identity');
  // A full pool of one: the item gets a new identity, never the one it left.
  const one = new SessionPool({ proxies: new ProxyPool([], 'round_robin'), locales: ['en-US'], maxSessions: 10, limits: { poolSize: 1, maxUses: 50, maxAgeMs: 1e9, maxErrorScore: 3, errorScoreDecrement: 0.5 } });
  const x = one.get('k', 'site:443');
  one.moveOn('k', 'site:443');
  assert.notEqual(one.get('k', 'site:443'), x);
  assert.equal(one.pooled('site:443').length, 1, 'the pool stays at its size');
  pool.moveOn('never-leased', 'site:443'); // nothing held: nothing to do
});
