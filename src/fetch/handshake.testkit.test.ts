import assert from 'node:assert/strict';
import http2 from 'node:http2';
import tls from 'node:tls';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { akamaiFingerprint, clientHelloMissing, EXT, handshakeListener, isGrease, LOOPBACK_TLS, parseClientHello, parseHttp2Preface, H2_PREFACE } from './handshake.testkit.ts';

/** The raw first bytes a Node TLS client sends, captured on a bare TCP listener. */
async function nodeHello(opts: tls.ConnectionOptions): Promise<Buffer> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const server = net.createServer((s) => {
      s.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        if (clientHelloMissing(buf) === 0) {
          s.destroy();
          server.close();
          resolve(buf);
        }
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as import('node:net').AddressInfo).port;
      tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }).on('error', () => undefined);
    });
    server.on('error', reject);
  });
}

test('isGrease: the sixteen RFC 8701 values only', () => {
  const grease = Array.from({ length: 16 }, (_, i) => (i * 16 + 10) * 257);
  assert.ok(grease.every(isGrease));
  for (const v of [0x1301, 0x0a0b, 0x1a0a, 0x0000, 0x4469]) assert.equal(isGrease(v), false);
});

test('parseClientHello reads Node’s own hello: no GREASE, TLS_AES_256_GCM_SHA384 first, the ALPN and SNI asked for', async () => {
  const bytes = await nodeHello({ servername: 'example.test', ALPNProtocols: ['h2', 'http/1.1'] });
  const h = parseClientHello(bytes);
  assert.equal(h.version, 0x0303);
  assert.equal(h.grease, false);
  assert.equal(h.ciphers[0], 0x1302);
  assert.deepEqual(h.alpn, ['h2', 'http/1.1']);
  assert.equal(h.serverName, 'example.test');
  assert.ok(h.supportedVersions.includes(0x0304));
  assert.ok(h.extensions.includes(EXT.keyShare) && h.keyShares.length > 0);
  assert.deepEqual(h.certCompression, []);
  assert.equal(h.recordSizeLimit, undefined);
  assert.deepEqual(h.alps, []);
  assert.match(h.ja3, /^771,4866-/);
  assert.match(h.ja4, /^t13d\d{4}h2_[0-9a-f]{12}_[0-9a-f]{12}$/);
  // The same hello split over two TLS records reads the same.
  const hs = bytes.subarray(5, 5 + bytes.readUInt16BE(3));
  const rec = (p: Buffer) => Buffer.concat([Buffer.from([0x16, 3, 1, p.length >> 8, p.length & 0xff]), p]);
  const split = Buffer.concat([rec(hs.subarray(0, 40)), rec(hs.subarray(40))]);
  assert.equal(clientHelloMissing(split.subarray(0, 60)) > 0, true);
  assert.deepEqual(parseClientHello(split), h);
});

test('parseClientHello: a truncated hello throws instead of reading garbage; non-TLS bytes are recognised', async () => {
  const bytes = await nodeHello({});
  const cut = Buffer.from(bytes.subarray(0, 80));
  assert.throws(() => parseClientHello(cut), /truncated|not a TLS/);
  assert.equal(clientHelloMissing(Buffer.from('GET / HTTP/1.1\r\n')), -1);
});

test('parseHttp2Preface reads SETTINGS in order, WINDOW_UPDATE, PRIORITY and the HEADERS priority', () => {
  const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
    const h = Buffer.alloc(9);
    h.writeUIntBE(payload.length, 0, 3);
    h[3] = type;
    h[4] = flags;
    h.writeUInt32BE(stream, 5);
    return Buffer.concat([h, payload]);
  };
  const settings = Buffer.alloc(24);
  [[1, 65536], [2, 0], [4, 6291456], [6, 262144]].forEach(([k, v], i) => {
    settings.writeUInt16BE(k, i * 6);
    settings.writeUInt32BE(v, i * 6 + 2);
  });
  const wu = Buffer.alloc(4);
  wu.writeUInt32BE(15663105);
  const prio = Buffer.from([0, 0, 0, 0, 200]);
  const headers = Buffer.concat([Buffer.from([0x80, 0, 0, 0, 255]), Buffer.from([0x82])]);
  const bytes = Buffer.concat([H2_PREFACE, frame(4, 0, 0, settings), frame(8, 0, 0, wu), frame(2, 0, 3, prio), frame(1, 0x25, 1, headers)]);
  const p = parseHttp2Preface(bytes);
  assert.deepEqual(p.settings, [[1, 65536], [2, 0], [4, 6291456], [6, 262144]]);
  assert.equal(p.windowUpdate, 15663105);
  assert.deepEqual(p.priorities, [{ stream: 3, dependsOn: 0, exclusive: false, weight: 201 }]);
  assert.deepEqual(p.headersPriority, { dependsOn: 0, exclusive: true, weight: 256 });
  assert.equal(p.complete, true);
  assert.equal(akamaiFingerprint(p, [':method', ':authority', ':scheme', ':path']), '1:65536;2:0;4:6291456;6:262144|15663105|3:0:0:201|m,a,s,p');
  assert.equal(parseHttp2Preface(bytes.subarray(0, bytes.length - 3)).complete, false);
  assert.deepEqual(parseHttp2Preface(Buffer.from('GET / HTTP/1.1\r\n\r\n')).settings, []);
});

test('handshakeListener: an HTTP/1.1 client over TLS, its hello and its header order', async (t) => {
  const wall = await handshakeListener((_req, res, conn) => res.end(`alpn=${conn.alpn}`));
  t.after(() => wall.close());
  const agent = new Agent({ connect: { ca: LOOPBACK_TLS.cert } });
  t.after(() => agent.close());
  const res = await request(`${wall.url}/a?b=1`, { dispatcher: agent, headers: { 'x-first': '1', 'user-agent': 'ua-test', 'x-last': '2' } });
  assert.equal(await res.body.text(), 'alpn=http/1.1');
  assert.equal(wall.connections.length, 1);
  const c = wall.connections[0];
  assert.equal(c.hello?.grease, false);
  assert.deepEqual(c.hello?.alpn, ['http/1.1']);
  assert.equal(c.http2, undefined);
  assert.equal(c.remoteAddress, '127.0.0.1');
  assert.deepEqual(c.requests[0].path, '/a?b=1');
  const order = c.requests[0].headerOrder;
  assert.ok(order.indexOf('x-first') < order.indexOf('user-agent') && order.indexOf('user-agent') < order.indexOf('x-last'), order.join(','));
  assert.deepEqual(c.requests[0].pseudoHeaderOrder, []);
});

test('handshakeListener: an HTTP/2 client, its SETTINGS in order, window update, pseudo-header and header order', async (t) => {
  const wall = await handshakeListener((req, res) => res.end(`${req.httpVersion}`));
  t.after(() => wall.close());
  const client = http2.connect(wall.url, {
    ca: LOOPBACK_TLS.cert,
    settings: { headerTableSize: 65536, enablePush: false, initialWindowSize: 6291456, maxHeaderListSize: 262144 },
  });
  t.after(() => client.close());
  client.on('connect', () => client.setLocalWindowSize(15728640));
  const body = await new Promise<string>((resolve, reject) => {
    const req = client.request({ ':method': 'GET', ':path': '/x', 'user-agent': 'ua-h2', accept: '*/*', 'x-z': '1' });
    let out = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (out += d));
    req.on('end', () => resolve(out));
    req.on('error', reject);
    req.end();
  });
  assert.equal(body, '2.0');
  const c = wall.connections[0];
  assert.equal(c.alpn, 'h2');
  assert.deepEqual(c.hello?.alpn, ['h2']);
  const settings = new Map(c.http2!.settings);
  assert.equal(settings.get(1), 65536);
  assert.equal(settings.get(2), 0);
  assert.equal(settings.get(4), 6291456);
  assert.equal(settings.get(6), 262144);
  assert.equal(c.http2!.complete, true);
  assert.equal(c.requests[0].pseudoHeaderOrder[0], ':method');
  assert.deepEqual(c.requests[0].pseudoHeaderOrder.slice().sort(), [':authority', ':method', ':path', ':scheme']);
  assert.deepEqual(c.requests[0].headerOrder, ['user-agent', 'accept', 'x-z']);
  assert.equal(c.requests[0].headers['user-agent'], 'ua-h2');
});

test('handshakeListener: plain HTTP on the same port has no hello', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const res = await request(`http://127.0.0.1:${wall.port}/p`);
  assert.equal(await res.body.text(), 'ok');
  assert.equal(wall.connections[0].hello, undefined);
  assert.equal(wall.connections[0].requests[0].path, '/p');
});
