import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MailDns } from './dns.ts';
import { startLoopbackDns, type LoopbackDns } from './testing/loopback.ts';

let dns: LoopbackDns;
before(async () => {
  dns = await startLoopbackDns({
    'example.test': { MX: [{ exchange: 'mx2.example.test', priority: 20 }, { exchange: 'MX1.example.test', priority: 10 }] },
    'mx1.example.test': { A: ['127.0.0.1', '127.0.0.4'] },
    'v6only.example.test': { AAAA: ['::1'] },
    'implicit.test': { A: ['127.0.0.1'] },
    'implicit6.test': { AAAA: ['::1'] },
    'nullmx.test': { MX: [{ exchange: '', priority: 0 }] },
    'mixednull.test': { MX: [{ exchange: '', priority: 0 }, { exchange: 'mx1.example.test', priority: 10 }] },
    'empty.test': {},
    'silent.test': { silent: true },
    'servfail.test': { servfail: true },
  });
});
after(() => dns.close());

const make = (cacheTtlMs = 60_000) => new MailDns({ servers: [dns.server], timeoutMs: 800, cacheTtlMs });

test('MX records come back sorted by priority, names lower-cased', async () => {
  assert.deepEqual(await make().route('example.test'), {
    kind: 'mx',
    hosts: [
      { exchange: 'mx1.example.test', priority: 10 },
      { exchange: 'mx2.example.test', priority: 20 },
    ],
  });
});

test('no MX but an address record: the domain is its own mail host (RFC 5321 5.1)', async () => {
  const d = make();
  assert.deepEqual(await d.route('implicit.test'), { kind: 'implicit', hosts: [{ exchange: 'implicit.test', priority: 0 }] });
  assert.deepEqual(await d.route('implicit6.test'), { kind: 'implicit', hosts: [{ exchange: 'implicit6.test', priority: 0 }] });
});

test('null MX, NXDOMAIN, no records at all', async () => {
  const d = make();
  assert.deepEqual(await d.route('nullmx.test'), { kind: 'null_mx' });
  assert.deepEqual(await d.route('nope.test'), { kind: 'nxdomain' });
  assert.deepEqual(await d.route('empty.test'), { kind: 'no_mail_host' });
  // A null MX beside real ones is ignored (RFC 7505 says it must stand alone).
  assert.deepEqual(await d.route('mixednull.test'), { kind: 'mx', hosts: [{ exchange: 'mx1.example.test', priority: 10 }] });
});

test('a server that never answers is a timeout, SERVFAIL a DNS error; neither is cached', async () => {
  const d = make();
  const t = Date.now();
  const r = await d.route('silent.test');
  assert.equal(r.kind, 'dns_error');
  assert.equal(r.kind === 'dns_error' && r.code, 'ETIMEOUT');
  assert.ok(Date.now() - t < 4000, `took ${Date.now() - t} ms`);
  const sf = await d.route('servfail.test');
  assert.equal(sf.kind, 'dns_error');
  const before = dns.queries.filter((q) => q === 'servfail.test MX').length;
  await d.route('servfail.test');
  assert.equal(dns.queries.filter((q) => q === 'servfail.test MX').length, before + 1);
});

test('answers are cached for the TTL and shared by concurrent callers', async () => {
  const d = make();
  const count = () => dns.queries.filter((q) => q === 'example.test MX').length;
  const before = count();
  await Promise.all([d.route('example.test'), d.route('EXAMPLE.test'), d.route('example.test')]);
  await d.route('example.test');
  assert.equal(count() - before, 1);
  const noCache = make(0);
  await noCache.route('example.test');
  await noCache.route('example.test');
  assert.equal(count() - before, 3);
});

test('host addresses: IPv4 then IPv6, IP literals as is, NXDOMAIN throws ENOTFOUND', async () => {
  const d = make();
  assert.deepEqual(await d.hostAddresses('mx1.example.test'), ['127.0.0.1', '127.0.0.4']);
  assert.deepEqual(await d.hostAddresses('v6only.example.test'), ['::1']);
  assert.deepEqual(await d.hostAddresses('192.0.2.7'), ['192.0.2.7']);
  assert.deepEqual(await d.hostAddresses('empty.test'), []);
  await assert.rejects(d.hostAddresses('gone.test'), (e: { code?: string }) => e.code === 'ENOTFOUND');
});
