import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type http from 'node:http';
import { Executor } from './executor.ts';
import type { ExecutorSettings } from './settings.ts';
import type { FetchEvent } from './events.ts';
import { reportLayoutChange, setFetchLogger } from './events.ts';
import { forwardProxy, loopback, socks5Server } from './loopback.testkit.ts';
import { SourceError } from '../sources/_kit/errors.ts';
import { undecoded } from './lazy-body.ts';
import type { Step } from '../sources/_kit/adapter.ts';

const base: Partial<ExecutorSettings> = { allowPrivateTargets: true, retries: 0, retryBaseMs: 10, retryMaxMs: 40, timeoutMs: 5000 };
const step = (url: string, extra: Partial<Step> = {}): Step => ({ kind: 'test', url, expect: 'html', ...extra });
const rejectsWith = (type: string, msg?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof SourceError, `expected SourceError, got ${e}`);
  assert.equal(e.type, type, e.message);
  if (msg) assert.match(e.message, msg);
  return true;
};

async function setup(t: { after(fn: () => unknown): void }, handler: http.RequestListener, settings: Partial<ExecutorSettings> = {}, events?: FetchEvent[]) {
  const srv = await loopback(handler);
  const ex = new Executor({ ...base, ...settings }, { onEvent: events ? (e) => events.push(e) : undefined, random: () => 0.5 });
  t.after(async () => {
    await ex.close();
    await srv.close();
  });
  return { srv, ex };
}

test('plain 200: body, final URL, browser-like headers stable within a session', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<p>hello ü</p>');
  });
  const s1 = ex.sessionFor('item-1');
  const r1 = await ex.run(step(`${srv.url}/a`), s1);
  const r2 = await ex.run(step(`${srv.url}/b`), s1);
  assert.equal(r1.status, 200);
  assert.equal(r1.body, '<p>hello ü</p>');
  assert.equal(r1.url, `${srv.url}/a`);
  const [h1, h2] = srv.seen.map((x) => x.headers);
  assert.match(String(h1['user-agent']), /^Mozilla\/5\.0 /);
  assert.ok(h1['accept-language'], 'accept-language sent');
  assert.equal(h1['accept-encoding'], 'gzip, deflate, br');
  assert.equal(h1['user-agent'], h2['user-agent'], 'same session, same identity');
  assert.equal(ex.sessionFor('item-1'), s1);
  // Different sessions draw their own identities. The mix weights a few profiles heavily, so eight
  // draws all came out alike once in CI; 64 make that chance negligible while a fixed identity still fails.
  const agents = new Set<string>();
  for (let i = 0; i < 64; i++) agents.add(JSON.stringify(ex.sessionFor(`other-${i}`).headers));
  assert.ok(agents.size >= 2, 'sessions get generated, not fixed, headers');
});

test('json steps send XHR-style headers; step headers override generated ones', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => res.end(")]}'\n[1]"));
  const r = await ex.run(step(`${srv.url}/rpc`, { expect: 'xssi-json', headers: { 'X-Custom': 'yes', 'Accept-Language': 'de' } }));
  assert.equal(r.body, ")]}'\n[1]", 'xssi prefix left for the caller');
  const h = srv.seen[0].headers;
  assert.equal(h.accept, '*/*');
  assert.equal(h['sec-fetch-mode'], 'cors');
  assert.equal(h['x-custom'], 'yes');
  assert.equal(h['accept-language'], 'de');
});

test('403 → blocked, not retried without other proxies', async (t) => {
  const events: FetchEvent[] = [];
  const { srv, ex } = await setup(t, (_req, res) => {
    res.writeHead(403);
    res.end('no');
  }, { retries: 3 }, events);
  await assert.rejects(ex.run(step(`${srv.url}/x`)), rejectsWith('blocked', /HTTP 403/));
  assert.equal(srv.hits.get('/x'), 1);
  const err = events.find((e) => e.type === 'error');
  assert.equal(err?.type === 'error' && err.errorType, 'blocked');
  assert.equal(err?.type === 'error' && err.willRetry, false);
});

test('429 with a short Retry-After is waited for and retried; a long one goes back to the engine', async (t) => {
  let n = 0;
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/long') {
      res.writeHead(429, { 'retry-after': '3600' });
      return res.end();
    }
    if (n++ === 0) {
      res.writeHead(429, { 'retry-after': '1' });
      return res.end('slow down');
    }
    res.end('ok');
  }, { retries: 2 });
  const t0 = performance.now();
  const r = await ex.run(step(`${srv.url}/short`));
  assert.equal(r.body, 'ok');
  assert.ok(performance.now() - t0 >= 950, 'waited for Retry-After');
  assert.equal(srv.hits.get('/short'), 2);
  await assert.rejects(ex.run(step(`${srv.url}/long`)), (e: unknown) => {
    rejectsWith('rate_limited')(e);
    assert.equal((e as SourceError).retryAfterMs, 3_600_000);
    return true;
  });
  assert.equal(srv.hits.get('/long'), 1);
});

test('503 with Retry-After is rate_limited; plain 503 is a retryable network error', async (t) => {
  let served = 0;
  const { srv, ex } = await setup(t, (req, res) => {
    served++;
    res.writeHead(503, req.url === '/ra' ? { 'retry-after': '7200' } : {});
    res.end('busy');
  });
  await assert.rejects(ex.run(step(`${srv.url}/plain`)), rejectsWith('network', /HTTP 503/));
  await assert.rejects(ex.run(step(`${srv.url}/ra`)), rejectsWith('rate_limited'));
  // Retry-After is honoured: the host is not asked again before then, the error says how long.
  const before = served;
  const err = await ex.run(step(`${srv.url}/plain`)).catch((e) => e);
  assert.equal(err.type, 'rate_limited');
  assert.ok(err.retryAfterMs > 7_000_000, `wait handed back (${err.retryAfterMs})`);
  assert.equal(served, before, 'no request reached the site');
});

test('consent redirect → consent (not followed); Google /sorry/ redirect and unusual-traffic page → captcha', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/consent') {
      res.writeHead(302, { location: 'https://consent.google.com/ml?continue=https://www.google.com/maps&gl=DE' });
      return res.end();
    }
    if (req.url === '/sorry') {
      res.writeHead(302, { location: 'https://www.google.com/sorry/index?continue=https://www.google.com/maps' });
      return res.end();
    }
    if (req.url === '/recaptcha') {
      res.writeHead(429, { 'content-type': 'text/html' });
      return res.end('<div class="g-recaptcha" data-sitekey="x"></div>');
    }
    if (req.url === '/contact-form') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<form><div class="g-recaptcha"></div></form>');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
    res.end('<html><body>Our systems have detected unusual traffic from your computer network.</body></html>');
  });
  await assert.rejects(ex.run(step(`${srv.url}/consent`)), rejectsWith('consent', /consent\.google\.com/));
  await assert.rejects(ex.run(step(`${srv.url}/sorry`)), rejectsWith('captcha', /google-sorry-redirect/));
  await assert.rejects(ex.run(step(`${srv.url}/page`)), rejectsWith('captcha', /unusual-traffic/));
  await assert.rejects(ex.run(step(`${srv.url}/recaptcha`)), rejectsWith('captcha', /recaptcha-page/));
  // An ordinary site with a reCAPTCHA contact form is content, not a wall.
  assert.equal((await ex.run(step(`${srv.url}/contact-form`))).status, 200);
});

test('a JSON answer leaves the executor as its bytes, decoded when read; an HTML one is read by detection', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    res.writeHead(req.url === '/page' ? 403 : 200, { 'content-type': req.url === '/page' ? 'text/html' : 'application/json; charset=utf-8' });
    res.end(req.url === '/page' ? '<div class="g-recaptcha"></div>' : `)]}'\n["9\u202fAM\u20135\u202fPM"]`);
  });
  const r = await ex.run(step(`${srv.url}/rpc`, { expect: 'xssi-json' }));
  assert.equal(undecoded(r)?.bytes.toString('utf8'), `)]}'\n["9\u202fAM\u20135\u202fPM"]`, 'nothing read the body on the way');
  assert.equal(r.body, `)]}'\n["9\u202fAM\u20135\u202fPM"]`);
  await assert.rejects(ex.run(step(`${srv.url}/page`)), rejectsWith('captcha', /recaptcha-page/));
});

test('"Before you continue" page on a Google host is a consent wall (custom rule table works too)', async (t) => {
  const page = '<html><head><title>Before you continue to Google</title></head></html>';
  const { srv, ex } = await setup(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
  });
  // The built-in rule needs a Google URL; the loopback site gets a site rule of its own: data, not code.
  assert.equal((await ex.run(step(`${srv.url}/x`))).status, 200);
  const ex2 = new Executor(base, { rules: [{ name: 'site-consent', type: 'consent', body: /Before you continue/ }] });
  t.after(() => ex2.close());
  await assert.rejects(ex2.run(step(`${srv.url}/x`)), rejectsWith('consent', /site-consent/));
});

test('404 and 410 → not_found, never retried', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    res.writeHead(req.url === '/gone' ? 410 : 404);
    res.end();
  }, { retries: 3 });
  await assert.rejects(ex.run(step(`${srv.url}/missing`)), rejectsWith('not_found'));
  await assert.rejects(ex.run(step(`${srv.url}/gone`)), rejectsWith('not_found'));
  assert.equal(srv.hits.get('/missing'), 1);
});

test('slow server → network timeout (headers and trickling body)', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/trickle') {
      res.writeHead(200);
      const iv = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(iv));
      return;
    }
    setTimeout(() => res.end('late'), 3000);
  }, { timeoutMs: 300 });
  const t0 = performance.now();
  await assert.rejects(ex.run(step(`${srv.url}/slow`)), rejectsWith('network', /timed out after 300 ms/));
  await assert.rejects(ex.run(step(`${srv.url}/trickle`)), rejectsWith('network', /timed out/));
  assert.ok(performance.now() - t0 < 2000);
});

test('huge responses → network "too large" (declared, chunked, and a gzip bomb)', async (t) => {
  const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': String(4 * 1024 * 1024) });
      return res.end(Buffer.alloc(4 * 1024 * 1024, 97));
    }
    if (req.url === '/bomb') {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      return res.end(bomb);
    }
    res.writeHead(200); // chunked, no length
    let sent = 0;
    const push = () => {
      while (sent < 3 * 1024 * 1024) {
        sent += 65536;
        if (!res.write(Buffer.alloc(65536, 98))) return res.once('drain', push);
      }
      res.end();
    };
    push();
  }, { maxResponseBytes: 1024 * 1024, retries: 2 });
  await assert.rejects(ex.run(step(`${srv.url}/declared`)), rejectsWith('network', /too large/));
  await assert.rejects(ex.run(step(`${srv.url}/chunked`)), rejectsWith('network', /too large/));
  await assert.rejects(ex.run(step(`${srv.url}/bomb`)), rejectsWith('network', /too large/));
  assert.ok(bomb.length < 1024 * 1024, 'the bomb itself is under the limit on the wire');
  assert.equal(srv.hits.get('/chunked'), 1, 'too large is final: not retried');
});

test('redirects: followed; to a private address refused for user URLs (every hop checked)', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    const to: Record<string, string> = {
      '/hop': '/final',
      '/meta': 'http://169.254.169.254/latest/meta-data/',
      '/v6': 'http://[::1]/',
      '/hex': `http://0x7f000002:${(req.socket.localPort ?? 0)}/`,
      '/ftp': 'ftp://example.com/',
    };
    if (to[req.url ?? '']) {
      res.writeHead(302, { location: to[req.url ?? ''] });
      return res.end();
    }
    res.end('landed');
  }, { allowPrivateTargets: false, allowedTargets: ['127.0.0.1'] });
  const r = await ex.run(step(`${srv.url}/hop`, { userUrl: true }));
  assert.equal(r.body, 'landed');
  assert.equal(r.url, `${srv.url}/final`);
  await assert.rejects(ex.run(step(`${srv.url}/meta`, { userUrl: true })), rejectsWith('forbidden_target', /169\.254\.169\.254/));
  await assert.rejects(ex.run(step(`${srv.url}/v6`, { userUrl: true })), rejectsWith('forbidden_target'));
  await assert.rejects(ex.run(step(`${srv.url}/hex`, { userUrl: true })), rejectsWith('forbidden_target', /127\.0\.0\.2/));
  await assert.rejects(ex.run(step(`${srv.url}/ftp`, { userUrl: true })), rejectsWith('forbidden_target', /scheme/));
  // Adapter-built steps still pass the connect-time guard of the direct agent.
  await assert.rejects(ex.run(step(`${srv.url}/hex`)), rejectsWith('forbidden_target'));
  await assert.rejects(ex.run(step(`http://10.255.255.1:9/`)), rejectsWith('forbidden_target'));
});

test('POST → 303 → GET; too many redirects is a network error', async (t) => {
  let method = '';
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/post') {
      res.writeHead(303, { location: '/result' });
      return res.end();
    }
    if (req.url === '/loop') {
      res.writeHead(307, { location: '/loop' });
      return res.end();
    }
    method = req.method ?? '';
    res.end('done');
  }, { maxRedirects: 3 });
  assert.equal((await ex.run(step(`${srv.url}/post`, { method: 'POST', body: 'a=1' }))).body, 'done');
  assert.equal(method, 'GET');
  await assert.rejects(ex.run(step(`${srv.url}/loop`)), rejectsWith('network', /more than 3 redirects/));
  assert.equal(srv.hits.get('/loop'), 4);
});

test('gzip, br and deflate bodies are decoded; charsets too', async (t) => {
  const text = 'Καφές ☕ café '.repeat(200);
  const { srv, ex } = await setup(t, (req, res) => {
    const enc = req.url!.slice(1);
    if (enc === 'latin1') {
      res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
      return res.end(Buffer.from('caf\xe9', 'latin1'));
    }
    if (enc === 'meta') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), Buffer.from([0x80, 0x93])]));
    }
    const raw = Buffer.from(text);
    const body = enc === 'gzip' ? zlib.gzipSync(raw) : enc === 'br' ? zlib.brotliCompressSync(raw) : enc === 'deflate' ? zlib.deflateSync(raw) : zlib.deflateRawSync(raw);
    res.writeHead(200, { 'content-encoding': enc === 'rawdeflate' ? 'deflate' : enc, 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  });
  for (const enc of ['gzip', 'br', 'deflate', 'rawdeflate']) assert.equal((await ex.run(step(`${srv.url}/${enc}`))).body, text, enc);
  assert.equal((await ex.run(step(`${srv.url}/latin1`))).body, 'café');
  assert.equal((await ex.run(step(`${srv.url}/meta`))).body, '<meta charset="windows-1252"><p>€“');
});

test('cookies are kept per session, never shared', async (t) => {
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/set') {
      res.writeHead(302, { 'set-cookie': ['NID=abc; Path=/; HttpOnly', 'CONSENT=YES+1; Path=/'], location: '/echo' });
      return res.end();
    }
    res.end(req.headers.cookie ?? '(none)');
  });
  const a = ex.sessionFor('a');
  const b = ex.sessionFor('b');
  assert.equal((await ex.run(step(`${srv.url}/set`), a)).body, 'NID=abc; CONSENT=YES+1', 'cookie from the redirect hop is sent on the next hop');
  assert.equal((await ex.run(step(`${srv.url}/echo`), a)).body, 'NID=abc; CONSENT=YES+1');
  assert.equal((await ex.run(step(`${srv.url}/echo`), b)).body, '(none)');
  assert.equal((await ex.run(step(`${srv.url}/echo`))).body, '(none)', 'session-less requests keep no cookies');
  ex.releaseSession('a');
  assert.equal((await ex.run(step(`${srv.url}/echo`), ex.sessionFor('a'))).body, '(none)');
});

test('HTTP proxy with credentials; round-robin over two proxies; sticky sessions keep theirs', async (t) => {
  const { srv } = await setup(t, (_req, res) => res.end('via proxy'));
  const p1 = await forwardProxy('user:p@ss w');
  const p2 = await forwardProxy('user:p@ss w');
  t.after(() => Promise.all([p1.close(), p2.close()]));
  const urls = [`http://user:p%40ss%20w@127.0.0.1:${p1.port}`, `http://user:p%40ss%20w@127.0.0.1:${p2.port}`];
  const events: FetchEvent[] = [];
  const rr = new Executor({ ...base, proxyUrls: urls }, { onEvent: (e) => events.push(e) });
  t.after(() => rr.close());
  for (let i = 0; i < 4; i++) assert.equal((await rr.run(step(`${srv.url}/rr${i}`))).body, 'via proxy');
  assert.equal(p1.targets.length, 2);
  assert.equal(p2.targets.length, 2);
  assert.deepEqual(p1.auths, ['user:p@ss w', 'user:p@ss w']);
  assert.equal(p1.targets[0], `${srv.url}/rr0`);
  const req = events.find((e) => e.type === 'request');
  assert.ok(req?.type === 'request' && req.proxy?.includes('***') && !req.proxy.includes('p%40ss'), 'proxy label redacted');

  const sticky = new Executor({ ...base, proxyUrls: urls, proxyRotation: 'sticky' });
  t.after(() => sticky.close());
  const s = sticky.sessionFor('work-item-42');
  const before = [p1.targets.length, p2.targets.length];
  for (let i = 0; i < 4; i++) await sticky.run(step(`${srv.url}/sticky${i}`), s);
  const delta = [p1.targets.length - before[0], p2.targets.length - before[1]];
  assert.ok((delta[0] === 4 && delta[1] === 0) || (delta[0] === 0 && delta[1] === 4), `one proxy for the session, got ${delta}`);
});

test('SOCKS5 proxy with username/password; wrong password is a network error', async (t) => {
  const { srv } = await setup(t, (req, res) => res.end(`socks ok ${req.url}`));
  const socks = await socks5Server('sock user:pa:ss');
  t.after(() => socks.close());
  const ex = new Executor({ ...base, proxyUrls: [`socks5://sock%20user:pa%3Ass@127.0.0.1:${socks.port}`] });
  t.after(() => ex.close());
  assert.equal((await ex.run(step(`${srv.url}/via-socks`))).body, 'socks ok /via-socks');
  assert.deepEqual(socks.auths, ['sock user:pa:ss']);
  assert.deepEqual(socks.targets, [`127.0.0.1:${srv.port}`]);
  const bad = new Executor({ ...base, proxyUrls: [`socks5://sock%20user:nope@127.0.0.1:${socks.port}`] });
  t.after(() => bad.close());
  await assert.rejects(bad.run(step(`${srv.url}/x`)), rejectsWith('network'));
  assert.equal(srv.hits.get('/x'), undefined);
});

test('wrong proxy credentials → network error naming 407', async (t) => {
  const { srv } = await setup(t, (_req, res) => res.end('x'));
  const p = await forwardProxy('user:right');
  t.after(() => p.close());
  const ex = new Executor({ ...base, proxyUrls: [`http://user:wrong@127.0.0.1:${p.port}`] });
  t.after(() => ex.close());
  await assert.rejects(ex.run(step(`${srv.url}/`)), rejectsWith('network', /407/));
});

test('blocked through a proxy retires the session and retries on the next proxy', async (t) => {
  const { srv } = await setup(t, (req, res) => {
    // The site blocks whatever comes through proxy 1.
    res.writeHead(req.headers['x-from-proxy'] === '1' ? 403 : 200);
    res.end('page');
  });
  const p1 = await forwardProxy();
  const p2 = await forwardProxy();
  t.after(() => Promise.all([p1.close(), p2.close()]));
  const tag = (p: typeof p1, n: string) => p.server.prependListener('request', (req) => (req.headers['x-from-proxy'] = n));
  tag(p1, '1');
  tag(p2, '2');
  const ex = new Executor({ ...base, retries: 2, proxyUrls: [`http://127.0.0.1:${p1.port}`, `http://127.0.0.1:${p2.port}`], proxyRotation: 'sticky' });
  t.after(() => ex.close());
  // Find a key that hashes to proxy 1 first.
  let key = '';
  for (let i = 0; i < 50 && !key; i++) {
    const s = ex.sessionFor(`k${i}`);
    if (s.proxy?.label.endsWith(String(p1.port))) key = s.key;
  }
  const s = ex.sessionFor(key);
  const r = await ex.run(step(`${srv.url}/p`), s);
  assert.equal(r.status, 200);
  assert.equal(p1.targets.length, 1);
  assert.equal(p2.targets.length, 1);
  assert.notEqual(ex.sessionFor(key), s, 'the blocked session was replaced');
});

test('per-host concurrency cap holds (counted on the server); other hosts are not held back', async (t) => {
  let inFlight = 0;
  let peak = 0;
  const { srv, ex } = await setup(t, (_req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      inFlight--;
      res.end('ok');
    }, 150);
  }, { perHostConcurrency: 3 });
  await Promise.all(Array.from({ length: 15 }, (_, i) => ex.run(step(`${srv.url}/c${i}`))));
  assert.ok(peak <= 3, `cap of 3 exceeded: ${peak}`);
  assert.ok(peak >= 2, `requests did run in parallel (peak ${peak})`);
  // Same server under a second host name (localhost) has its own budget.
  peak = 0;
  const other = srv.url.replace('127.0.0.1', 'localhost');
  await Promise.all(Array.from({ length: 6 }, (_, i) => ex.run(step(`${(i % 2 ? srv.url : other)}/d${i}`))));
  assert.ok(peak > 3, `two hosts together exceed one host's cap (peak ${peak})`);
});

test('per-host rate limit spaces requests (token bucket)', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => res.end('ok'), { perHostRps: 20, perHostBurst: 1 });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 6 }, (_, i) => ex.run(step(`${srv.url}/r${i}`))));
  const ms = performance.now() - t0;
  assert.ok(ms >= 230, `6 requests at 20/s with burst 1 need >= 250 ms, took ${ms.toFixed(0)}`);
});

test('retries: bounded count, events say whether a retry follows', async (t) => {
  let n = 0;
  const events: FetchEvent[] = [];
  const { srv, ex } = await setup(t, (req, res) => {
    if (req.url === '/always') {
      res.writeHead(502);
      return res.end();
    }
    res.writeHead(n++ < 2 ? 500 : 200);
    res.end('eventually');
  }, { retries: 2 }, events);
  assert.equal((await ex.run(step(`${srv.url}/flaky`))).body, 'eventually');
  assert.equal(srv.hits.get('/flaky'), 3);
  await assert.rejects(ex.run(step(`${srv.url}/always`)), rejectsWith('network', /HTTP 502/));
  assert.equal(srv.hits.get('/always'), 3, '1 try + 2 retries');
  const errs = events.filter((e) => e.type === 'error' && e.host.endsWith(String(srv.port)));
  assert.deepEqual(errs.map((e) => e.type === 'error' && e.willRetry), [true, true, true, true, false]);
  const reqs = events.filter((e) => e.type === 'request');
  assert.equal(reqs.length, 6);
});

test('connection refused → network, retried; the caller can abort', async (t) => {
  const srv = await loopback((_req, res) => res.end());
  const deadUrl = srv.url;
  await srv.close();
  const ex = new Executor({ ...base, retries: 1 });
  t.after(() => ex.close());
  await assert.rejects(ex.run(step(`${deadUrl}/`)), rejectsWith('network', /ECONNREFUSED/));
  const slow = await loopback(() => undefined);
  t.after(() => slow.close());
  const ac = new AbortController();
  setTimeout(() => ac.abort(new SourceError('network', 'cancelled by the engine')), 100);
  await assert.rejects(ex.run(step(`${slow.url}/`), undefined, ac.signal), rejectsWith('network', /cancelled by the engine/));
});

test('reportLayoutChange logs at error level and reaches onEvent', async (t) => {
  const logged: string[] = [];
  setFetchLogger({ error: (_o, m) => logged.push(m), warn: () => undefined });
  const events: FetchEvent[] = [];
  const ex = new Executor(base, { onEvent: (e) => events.push(e) });
  reportLayoutChange('maps-search', 'no places at [0][1]');
  await ex.close();
  reportLayoutChange('maps-search', 'after close');
  assert.deepEqual(events, [{ type: 'layout_changed', source: 'maps-search', detail: 'no places at [0][1]' }]);
  assert.equal(logged.length, 2);
  assert.match(logged[0], /LAYOUT CHANGED: maps-search/);
});

test('a 103 Early Hints response before the real one is skipped: status, headers and body are the 200', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(200, { 'content-type': 'text/plain', 'x-final': 'yes' });
    res.end('the page');
  });
  const r = await ex.run(step(`${srv.url}/hints`));
  assert.equal(r.status, 200);
  assert.equal(r.body, 'the page');
  assert.equal(r.headers['x-final'], 'yes');
  assert.equal(r.headers.link, undefined, 'headers of the 103 are not the response');
});

test('response headers named like Object.prototype members come back as sent; repeats are joined', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => {
    res.setHeader('constructor', 'c1');
    res.setHeader('__proto__', 'p1');
    res.setHeader('x-twice', ['a', 'b']);
    res.end('ok');
  });
  const r = await ex.run(step(`${srv.url}/odd`));
  assert.equal(Object.getOwnPropertyDescriptor(r.headers, 'constructor')?.value, 'c1');
  assert.equal(Object.getOwnPropertyDescriptor(r.headers, '__proto__')?.value, 'p1');
  assert.equal(Object.getPrototypeOf(r.headers), Object.prototype, 'no prototype pollution');
  assert.equal(r.headers['x-twice'], 'a, b');
});

test('a caller signal that is already aborted fails the run with its reason; nothing is sent', async (t) => {
  const { srv, ex } = await setup(t, (_req, res) => res.end('never'));
  const reason = new SourceError('network', 'cancelled before the start');
  await assert.rejects(ex.run(step(`${srv.url}/x`), ex.sessionFor('k'), AbortSignal.abort(reason)), rejectsWith('network', /cancelled before the start/));
  assert.equal(srv.seen.length, 0);
});
