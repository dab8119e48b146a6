import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Step } from '../sources/_kit/adapter.ts';
import { isSourceError } from '../sources/_kit/errors.ts';
import { Executor } from './executor.ts';
import { handshakeListener, isGrease, type SeenConnection, type SeenRequest } from './handshake.testkit.ts';
import { WebTransport } from './impersonate.ts';
import { loopback, socks5Server } from './loopback.testkit.ts';
import type { ExecutorSettings } from './settings.ts';
import type { GuardOptions } from './ssrf.ts';

const CHROME_SETTINGS = [[1, 65536], [2, 0], [4, 6291456], [6, 262144]];
/** Chromium before 117 also announced MAX_CONCURRENT_STREAMS 1000, and some of those versions no
 *  ENABLE_PUSH (wreq's tables follow the browsers; the default mix draws such versions now and then). */
const chromeSettings = (version: number): number[][][] => version >= 117 ? [CHROME_SETTINGS]
  : [[[1, 65536], [2, 0], [3, 1000], [4, 6291456], [6, 262144]], [[1, 65536], [3, 1000], [4, 6291456], [6, 262144]]];
const FIREFOX_SETTINGS = [[1, 65536], [2, 0], [4, 131072], [5, 16384]];
const step = (url: string, extra: Partial<Step> = {}): Step => ({ kind: 'page', url, expect: 'html', ...extra });

/** An executor on the browser-true transport that accepts the loopback listener's certificate. */
function executor(t: { after(fn: () => unknown): void }, settings: Partial<ExecutorSettings>, guard: GuardOptions = { allowPrivate: true }) {
  const ex = new Executor({ allowPrivateTargets: true, retries: 0, timeoutMs: 5000, ...settings }, { transport: new WebTransport({ guard, insecure: true }) });
  t.after(() => ex.close());
  return ex;
}

/** The browser a request's headers name: from the User-Agent, checked against sec-ch-ua when sent. */
function claimed(r: SeenRequest): { browser: 'chrome' | 'edge' | 'firefox'; version: number } {
  const ua = r.headers['user-agent'];
  const m = /Edg\/(\d+)/.exec(ua) ?? /Firefox\/(\d+)/.exec(ua) ?? /Chrome\/(\d+)/.exec(ua);
  assert.ok(m, ua);
  const browser = m[0].startsWith('Edg') ? 'edge' : m[0].startsWith('Firefox') ? 'firefox' : 'chrome';
  const ch = r.headers['sec-ch-ua'];
  if (browser === 'firefox') assert.equal(ch, undefined, 'Firefox sends no client hints');
  else {
    assert.ok(ch, `a ${browser} UA comes with sec-ch-ua`);
    // Chromium's major version is what the handshake follows (Chrome, Brave, Edge all send it).
    assert.match(ch, new RegExp(`"Chromium";v="${m[1]}"`), `sec-ch-ua names the UA's version: ${ch} / ${ua}`);
    if (browser === 'edge') assert.match(ch, /"Microsoft Edge"/);
  }
  return { browser, version: Number(m[1]) };
}

/** `version`: the Chromium major the User-Agent claims (ECH is sent from Chrome 117 on; the older
 *  handshakes of wreq's table send none, as those versions did). */
function assertChromeHandshake(c: SeenConnection, version = Infinity): void {
  const h = c.hello!;
  assert.equal(h.grease, true, 'Chrome always sends GREASE');
  assert.ok(isGrease(h.ciphers[0]));
  assert.equal(h.ciphers[1], 0x1301, 'TLS_AES_128_GCM_SHA256 first');
  assert.deepEqual(h.alpn, ['h2', 'http/1.1']);
  assert.deepEqual(h.alps, ['h2']);
  assert.deepEqual(h.certCompression, [2], 'brotli certificate compression');
  assert.equal(h.recordSizeLimit, undefined);
  if (version >= 117) assert.equal(h.ech, true, `Chrome ${version} sends ECH`);
  assert.equal(c.alpn, 'h2');
  const settings = JSON.stringify(c.http2?.settings);
  assert.ok(chromeSettings(version).some((x) => JSON.stringify(x) === settings), `Chrome ${version}'s HTTP/2 SETTINGS: ${settings}`);
  assert.equal(c.http2?.windowUpdate, 15663105);
}

function assertFirefoxHandshake(c: SeenConnection): void {
  const h = c.hello!;
  assert.equal(h.grease, false, 'Firefox sends no GREASE');
  assert.deepEqual(h.ciphers.slice(0, 3), [0x1301, 0x1303, 0x1302], "Firefox's TLS 1.3 order");
  assert.equal(h.recordSizeLimit, 16385);
  assert.deepEqual(h.alpn, ['h2', 'http/1.1']);
  assert.deepEqual(h.alps, []);
  assert.ok(h.delegatedCredentials.length > 0);
  assert.equal(c.alpn, 'h2');
  assert.deepEqual(c.http2?.settings, FIREFOX_SETTINGS);
  assert.equal(c.http2?.windowUpdate, 12517377);
}

test('Chrome profile: GREASE, TLS_AES_128_GCM_SHA256 first, ALPN h2 + http/1.1, cert compression, Chrome SETTINGS and order; UA and sec-ch-ua say Chrome', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const ex = executor(t, { fetchProfile: 'chrome' });
  const session = ex.sessionFor('q1');
  const res = await ex.run(step(`${wall.url}/page`), session);
  assert.equal(res.status, 200);
  assert.equal(res.body, 'ok');
  assert.equal(session.fingerprint?.browser, 'chrome');
  const c = wall.connections[0];
  assertChromeHandshake(c);
  const r = c.requests[0];
  assert.deepEqual(r.pseudoHeaderOrder, [':method', ':authority', ':scheme', ':path']);
  // The generated browser's own header order reaches the wire, then Chrome's priority, nothing else.
  assert.deepEqual(r.headerOrder, [...Object.keys(session.headers), 'priority']);
  assert.equal(r.headers.priority, 'u=0, i');
  await ex.run(step(`${wall.url}/api`, { expect: 'json' }), session);
  assert.equal(c.requests[1].headers.priority, 'u=1, i');
  assert.equal(r.headerOrder[0], 'sec-ch-ua');
  const who = claimed(r);
  assert.equal(who.browser, 'chrome');
  assert.equal(session.fingerprint?.handshake.startsWith('chrome_'), true);
  assert.ok(Number(session.fingerprint?.handshake.split('_')[1]) <= who.version, 'never a newer handshake than the UA');
});

test('Firefox profile: its own cipher order, record size limit, delegated credentials, Firefox SETTINGS and m,p,a,s; no client hints', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const ex = executor(t, { fetchProfile: 'firefox' });
  const session = ex.sessionFor('q1');
  await ex.run(step(`${wall.url}/`), session);
  await ex.run(step(`${wall.url}/again`, { expect: 'json' }), session);
  assert.equal(wall.connections.length, 1, 'one connection, kept alive');
  const c = wall.connections[0];
  assertFirefoxHandshake(c);
  assert.deepEqual(c.requests[0].pseudoHeaderOrder, [':method', ':path', ':authority', ':scheme']);
  for (const r of c.requests) assert.equal(claimed(r).browser, 'firefox');
  assert.equal(c.requests[1].headers.accept, '*/*', 'XHR-style headers still apply');
});

test('the default mix: every connection’s handshake names the same browser as the User-Agent and sec-ch-ua it carries', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const ex = executor(t, {});
  assert.equal(ex.settings.fetchProfile, 'browser');
  for (let i = 0; i < 40; i++) await ex.run(step(`${wall.url}/${i}`), ex.sessionFor(`q${i}`));
  const families = new Set<string>();
  let requests = 0;
  for (const c of wall.connections) {
    for (const r of c.requests) {
      requests++;
      const who = claimed(r);
      families.add(who.browser);
      if (who.browser === 'firefox') assertFirefoxHandshake(c);
      else assertChromeHandshake(c, who.version);
    }
  }
  assert.equal(requests, 40);
  assert.ok(families.has('chrome'), [...families].join());
});

test('FETCH_PROFILE=node and steps with transport "node" go out on undici (Node’s handshake, no GREASE)', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const ex = executor(t, { fetchProfile: 'node' });
  const s = ex.sessionFor('q');
  assert.equal(s.fingerprint, undefined);
  await assert.rejects(ex.run(step(`${wall.url}/`), s), (e) => isSourceError(e) && /certificate|self.signed|TLS/i.test(e.message));
  assert.equal(wall.connections[0].hello?.grease, false);
  assert.equal(wall.connections[0].hello?.ciphers[0], 0x1302);
  const chrome = executor(t, { fetchProfile: 'chrome' });
  await assert.rejects(chrome.run(step(`${wall.url}/api`, { transport: 'node' }), chrome.sessionFor('q')));
  assert.equal(wall.connections[1].hello?.grease, false, 'a step that asks for undici gets it');
});

test('through an authenticated SOCKS5 proxy the tunnelled handshake is still Chrome’s', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const socks = await socks5Server('u:p w');
  t.after(() => socks.close());
  const ex = executor(t, { fetchProfile: 'chrome', proxyUrls: [`socks5://u:p%20w@127.0.0.1:${socks.port}`] });
  const res = await ex.run(step(`${wall.url}/via`), ex.sessionFor('q'));
  assert.equal(res.status, 200);
  assert.deepEqual(socks.auths, ['u:p w']);
  assert.deepEqual(socks.targets, [`127.0.0.1:${wall.port}`]);
  assertChromeHandshake(wall.connections[0]);
});

test('SSRF guard: direct connections go only to checked addresses, pinned (a name resolving to loopback is refused; an allowed one reaches it)', async (t) => {
  const srv = await loopback((_req, res) => res.end('inside'));
  t.after(() => srv.close());
  const resolver = async (h: string) => (h === 'inside.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]);
  const strict = executor(t, { allowPrivateTargets: false, fetchProfile: 'chrome' }, { resolver });
  await assert.rejects(strict.run(step(`http://inside.test:${srv.port}/`), strict.sessionFor('a')), (e) => isSourceError(e) && e.type === 'forbidden_target');
  await assert.rejects(strict.run(step(`${srv.url}/`), strict.sessionFor('a')), (e) => isSourceError(e) && e.type === 'forbidden_target');
  await assert.rejects(strict.run(step(`http://localhost:${srv.port}/`), strict.sessionFor('a')), (e) => isSourceError(e) && e.type === 'forbidden_target');
  assert.equal(srv.hits.size, 0);
  // Allowed by the operator: the name the system DNS does not know reaches the address we checked.
  const allowed = executor(t, { allowPrivateTargets: false, allowedTargets: ['127.0.0.0/8'], fetchProfile: 'chrome' }, { allow: ['127.0.0.0/8'], resolver });
  const res = await allowed.run(step(`http://inside.test:${srv.port}/`), allowed.sessionFor('b'));
  assert.equal(res.body, 'inside');
  assert.equal(srv.seen[0].headers.host, `inside.test:${srv.port}`);
});

test('a body that stalls after a declared length still ends at the attempt’s time limit', async (t) => {
  const srv = await loopback((_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('x'.repeat(10));
  });
  t.after(() => srv.close());
  const ex = executor(t, { fetchProfile: 'chrome', timeoutMs: 300 });
  const t0 = performance.now();
  await assert.rejects(ex.run(step(`${srv.url}/stall`), ex.sessionFor('q')), (e) => isSourceError(e) && e.type === 'network' && /timed out after 300 ms/.test(e.message));
  assert.ok(performance.now() - t0 < 2000);
});

test('a proxied request whose pool has no open connection is expected later at the site (the pacer gives it a longer place); one through an open pool is not', async (t) => {
  const wall = await handshakeListener();
  t.after(() => wall.close());
  const socks = await socks5Server('u:p w');
  t.after(() => socks.close());
  const proxyUrl = `socks5://u:p%20w@127.0.0.1:${socks.port}`;
  const fingerprint = executor(t, { fetchProfile: 'chrome' }).sessionFor('q').fingerprint;
  assert.ok(fingerprint);
  const tr = new WebTransport({ guard: { allowPrivate: true }, insecure: true });
  t.after(() => tr.close());
  const req = { url: `${wall.url}/a`, proxyUrl, fingerprint };
  assert.ok(tr.connectDelayMs(req) > 0, 'nothing opened yet: a connection to open');
  assert.equal(tr.connectDelayMs(req), 0, 'a request queued behind the one that opens it finds it open');
  assert.equal(tr.connectDelayMs({ ...req, proxyUrl: undefined }), 0, 'direct requests are not paced per IP');
  const res = await tr.send({ ...req, method: 'GET', headers: {}, signal: AbortSignal.timeout(5000), maxBytes: 1e6 });
  assert.equal(res.status, 200);
  assert.equal(tr.connectDelayMs(req), 0, 'the pool is open');
  const measured = tr.connectDelayMs({ ...req, proxyUrl: `${proxyUrl}0` });
  assert.ok(measured > 0 && measured < 5000, `another proxy's pool: what opening the last one took (${Math.round(measured)} ms)`);
});
