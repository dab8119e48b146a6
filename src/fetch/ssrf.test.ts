import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { checkUrl, forbiddenReason, guardedAgent, isForbiddenAddress, type Resolver } from './ssrf.ts';
import { parseIPv4, parseIPv6 } from './ip.ts';
import { SourceError } from '../sources/_kit/errors.ts';

const isType = (type: string) => (e: unknown) => e instanceof SourceError && e.type === type;

test('lenient IPv4 spellings parse like inet_aton', () => {
  assert.deepEqual(parseIPv4('127.0.0.1'), [127, 0, 0, 1]);
  assert.deepEqual(parseIPv4('2130706433'), [127, 0, 0, 1]);
  assert.deepEqual(parseIPv4('0x7f000001'), [127, 0, 0, 1]);
  assert.deepEqual(parseIPv4('0177.0.0.1'), [127, 0, 0, 1]);
  assert.deepEqual(parseIPv4('127.1'), [127, 0, 0, 1]);
  assert.deepEqual(parseIPv4('10.1.258'), [10, 1, 1, 2]);
  assert.deepEqual(parseIPv4('0xa9.0xfe.0xa9.0xfe'), [169, 254, 169, 254]);
  assert.equal(parseIPv4('256.0.0.1'), undefined);
  assert.equal(parseIPv4('1.2.3.4.5'), undefined);
  assert.equal(parseIPv4('08.0.0.1'), undefined); // 8 is not an octal digit
  assert.equal(parseIPv4('example.com'), undefined);
  assert.equal(parseIPv4('4294967296'), undefined);
});

test('IPv6 parsing covers ::, embedded IPv4, zones and brackets', () => {
  assert.deepEqual(parseIPv6('::'), new Array(16).fill(0));
  assert.deepEqual(parseIPv6('::1'), [...new Array(15).fill(0), 1]);
  assert.deepEqual(parseIPv6('[::ffff:127.0.0.1]'), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]);
  assert.deepEqual(parseIPv6('fe80::1%eth0')?.slice(0, 2), [0xfe, 0x80]);
  assert.deepEqual(parseIPv6('1:2:3:4:5:6:7:8'), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
  assert.equal(parseIPv6('1:2:3:4:5:6:7:8:9'), undefined);
  assert.equal(parseIPv6('1::2::3'), undefined);
  assert.equal(parseIPv6('12345::'), undefined);
  assert.equal(parseIPv6('::ffff:1.2.3'), undefined);
  assert.equal(parseIPv6('1.2.3.4'), undefined);
});

test('forbidden addresses: every private/special range, in every spelling', () => {
  const forbidden = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.1.1', '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1', '198.18.0.1', '203.0.113.9',
    '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'ff02::1', 'fec0::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '0:0:0:0:0:ffff:10.0.0.1',
    '::127.0.0.1', '::10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::127.0.0.1', '2002:7f00:1::', '2002:c0a8:101::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '100::1', '64:ff9b:1::1',
    '2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '0xa9fea9fe', '[::1]', 'not-an-ip', '',
  ];
  for (const ip of forbidden) assert.equal(isForbiddenAddress(ip), true, `${ip} must be forbidden`);
  const allowed = [
    '8.8.8.8', '1.1.1.1', '142.250.74.46', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1',
    '169.253.255.255', '192.167.1.1', '11.0.0.1', '2a00:1450:4001:80b::200e', '2606:4700::1111',
    '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1',
  ];
  for (const ip of allowed) assert.equal(isForbiddenAddress(ip), false, `${ip} must be allowed`);
  assert.match(forbiddenReason('169.254.169.254')!, /metadata/);
  assert.match(forbiddenReason('::ffff:10.0.0.1')!, /private.*embedded/);
});

const resolverOf = (map: Record<string, string[]>): Resolver => async (host) => {
  const a = map[host];
  if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

test('checkUrl refuses bad schemes, credentials and IP literals in any spelling', async () => {
  const resolver = resolverOf({});
  for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,x', 'not a url']) {
    await assert.rejects(checkUrl(url, { resolver }), isType('forbidden_target'), url);
  }
  await assert.rejects(checkUrl('http://user:pw@example.com/', { resolver }), /credentials/);
  for (const url of [
    'http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://127.1/',
    'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/', 'http://[fd00::1]:8080/', 'http://0.0.0.0:22/', 'http://10.0.0.1/', 'http://100.64.1.1/',
    'http://localhost/', 'http://LOCALHOST./', 'http://api.localhost/', 'https://192.168.0.1:443/',
  ]) {
    await assert.rejects(checkUrl(url, { resolver }), isType('forbidden_target'), url);
  }
});

test('checkUrl checks every resolved address', async () => {
  const resolver = resolverOf({
    'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'mixed.test': ['93.184.215.14', '10.1.2.3'],
    'rebind-v6.test': ['::ffff:127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'empty.test': [],
  });
  await checkUrl('https://public.test/path?q=1', { resolver });
  // The refusal names what the user wrote, never how it resolved; the resolution is in `detail` (logs).
  const refused = await checkUrl('https://mixed.test/', { resolver }).then(() => null, (e: SourceError) => e);
  assert.ok(refused instanceof SourceError && refused.type === 'forbidden_target');
  assert.equal(refused.message, 'refused target mixed.test: not an allowed target');
  assert.doesNotMatch(refused.message, /10\.1\.2\.3|private/);
  assert.match(refused.detail ?? '', /mixed\.test \(10\.1\.2\.3\): private/);
  await assert.rejects(checkUrl('http://rebind-v6.test/', { resolver }), isType('forbidden_target'));
  await assert.rejects(checkUrl('http://metadata.test/', { resolver }), /metadata/);
  await assert.rejects(checkUrl('http://missing.test/', { resolver }), isType('network'));
  await assert.rejects(checkUrl('http://empty.test/', { resolver }), isType('network'));
});

test('operator switches: allowPrivate, allow list, credentials, no-resolve', async () => {
  const resolver = resolverOf({ 'geo.internal': ['10.0.0.7'] });
  await checkUrl('http://10.0.0.1/', { allowPrivate: true, resolver });
  await checkUrl('http://geo.internal/', { allow: ['10.0.0.0/24'], resolver });
  await checkUrl('http://geo.internal/', { allow: ['geo.internal'], resolver });
  await assert.rejects(checkUrl('http://geo.internal/', { allow: ['10.0.1.0/24'], resolver }), isType('forbidden_target'));
  await checkUrl('http://[::ffff:10.0.0.9]/', { allow: ['10.0.0.0/24'] });
  await checkUrl('http://localhost:8080/', { allow: ['127.0.0.1'] });
  await checkUrl('https://u:p@hooks.test/', { allowCredentials: true, resolve: false });
  await checkUrl('https://unresolvable.test/', { resolve: false });
  await assert.rejects(checkUrl('http://127.0.0.1/', { resolve: false }), isType('forbidden_target'));
});

test('guardedAgent refuses loopback at connect time (names and literals), allow list opens it', async (t) => {
  const server = http.createServer((_req, res) => res.end('secret'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const port = (server.address() as AddressInfo).port;

  const agent = guardedAgent({});
  t.after(() => agent.close());
  // 'localhost' goes through the connect-time lookup, never through checkUrl: the DNS-rebinding path.
  await assert.rejects(request(`http://localhost:${port}/`, { dispatcher: agent }), isType('forbidden_target'));
  await assert.rejects(request(`http://127.0.0.1:${port}/`, { dispatcher: agent }), isType('forbidden_target'));

  const open = guardedAgent({ allow: ['127.0.0.0/8'] });
  t.after(() => open.close());
  const res = await request(`http://127.0.0.1:${port}/`, { dispatcher: open });
  assert.equal(await res.body.text(), 'secret');
});
