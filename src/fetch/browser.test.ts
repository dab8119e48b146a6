import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Executor } from './executor.ts';
import { NO_BROWSER } from './browser.ts';
import { forwardProxy, loopback, socks5Server } from './loopback.testkit.ts';
import { SourceError } from '../sources/_kit/errors.ts';
import type { Step } from '../sources/_kit/adapter.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = !fs.existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM} (CI installs Debian's chromium; set CHROMIUM_PATH)`;
const step = (url: string): Step => ({ kind: 'page', url, expect: 'html', browser: true, userUrl: true });

test('browser steps: rendered HTML, SSRF guard on page requests, bounded pages, record → replay', { skip, timeout: 90_000 }, async (t) => {
  // A second loopback address stands in for "the operator's internal network".
  const internal = await loopback((_req, res) => res.end('secret'), '127.0.0.2');
  t.after(() => internal.close());
  let inFlight = 0;
  let peak = 0;
  const site = await loopback((req, res) => {
    if (req.url?.startsWith('/slow')) {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>slow page</body></html>');
      }, 300);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><head><title>t</title></head><body><div id="root"></div>
      <script>
        document.getElementById('root').textContent = 'rendered by ' + 'script';
        fetch('${internal.url}/leak').catch(() => {});
      </script></body></html>`);
  });
  t.after(() => site.close());

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-browser-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const har = path.join(dir, 'browser.har');
  const profiles = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('playwright_chromiumdev_profile-'));
  const before = new Set(profiles());
  const ex = new Executor({ chromiumPath: CHROMIUM, allowedTargets: ['127.0.0.1'], browserMaxPages: 2, recordHar: har, timeoutMs: 30_000 });
  const res = await ex.run(step(`${site.url}/app`));
  assert.equal(res.status, 200);
  assert.match(res.body, /<div id="root">rendered by script<\/div>/);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(internal.hits.size, 0, 'the page could not reach a private address');

  await assert.rejects(ex.run(step('http://10.0.0.1/')), (e: unknown) => e instanceof SourceError && e.type === 'forbidden_target');

  await Promise.all([1, 2, 3, 4, 5].map((i) => ex.run(step(`${site.url}/slow${i}`))));
  assert.ok(peak <= 2, `at most 2 pages at once (peak ${peak})`);
  const ours = profiles().filter((d) => !before.has(d));
  assert.ok(ours.length >= 1, 'Chromium runs on a temporary profile');
  await ex.close();
  const after = new Set(profiles());
  assert.ok(ours.some((d) => !after.has(d)), 'the temporary profile is removed on close');

  // Replay serves the recorded page without Chromium.
  const rep = new Executor({ replayHar: har, chromiumPath: '/nonexistent/chromium', allowedTargets: ['127.0.0.1'] });
  t.after(() => rep.close());
  assert.match((await rep.run(step(`${site.url}/app`))).body, /rendered by script/);
});

test('a browser step without Chromium is a clear, final misconfigured error that names no path; a directory is no Chromium either', async (t) => {
  for (const path of ['/nonexistent/chromium', '/usr']) {
    const tries: boolean[] = [];
    const ex = new Executor({ chromiumPath: path, allowPrivateTargets: true, retries: 2 }, { onEvent: (e) => { if (e.type === 'error') tries.push(e.willRetry); } });
    t.after(() => ex.close());
    await assert.rejects(ex.run(step('http://127.0.0.1:9/')), (e: any) => e.type === 'misconfigured' && e.message === NO_BROWSER && !e.message.includes(path) && e.detail.includes(path));
    assert.deepEqual(tries, [false], 'one attempt, not retried');
  }
});

test('a page whose name does not resolve is a network error (the guard\'s DNS answer), not a forbidden target', { skip }, async (t) => {
  const ex = new Executor({ chromiumPath: CHROMIUM, retries: 0 });
  t.after(() => ex.close());
  await assert.rejects(ex.run(step('https://trawl-browser-test.invalid/')), (e: any) => e.type === 'network' && /trawl-browser-test\.invalid/.test(e.message));
});

/** A page that writes what its JavaScript sees of the browser into the DOM. */
const probePage = `<html><body><pre id="o"></pre><script>
  document.getElementById('o').textContent = JSON.stringify({ ua: navigator.userAgent, webdriver: navigator.webdriver,
    platform: navigator.platform, brands: (navigator.userAgentData?.brands ?? []).map((b) => b.brand + '/' + b.version) });
</script></body></html>`;
const probed = (body: string) => JSON.parse(/<pre id="o">([^<]*)<\/pre>/.exec(body)![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));

test('browser steps run as their session: the injected fingerprint carries the session’s User-Agent, OS and version; no webdriver flag', { skip, timeout: 90_000 }, async (t) => {
  const seen: string[] = [];
  const site = await loopback((req, res) => {
    seen.push(String(req.headers['user-agent']));
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(probePage);
  });
  t.after(() => site.close());
  const ex = new Executor({ chromiumPath: CHROMIUM, allowPrivateTargets: true, fetchProfile: 'chrome', timeoutMs: 30_000 });
  t.after(() => ex.close());
  const session = ex.sessionFor('q1');
  const res = await ex.run(step(`${site.url}/probe`), session);
  const js = probed(res.body);
  assert.equal(js.ua, session.headers['user-agent']);
  assert.equal(seen[0], session.headers['user-agent'], 'the HTTP User-Agent is the session’s too');
  assert.equal(js.webdriver, false);
  const os = session.fingerprint!.os;
  assert.match(js.platform, os === 'windows' ? /^Win/ : os === 'macos' ? /^Mac/ : /^Linux/);
  assert.ok(js.brands.some((b: string) => b === `Chromium/${session.fingerprint!.version}` || b === `Google Chrome/${session.fingerprint!.version}`), js.brands.join());
});

test('browser steps use every proxy, with credentials: HTTP natively, SOCKS5 through the local bridge', { skip, timeout: 90_000 }, async (t) => {
  const site = await loopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>via proxy</body></html>');
  });
  t.after(() => site.close());
  const http1 = await forwardProxy('hu:hp');
  t.after(() => http1.close());
  const socks = await socks5Server('su:s p');
  t.after(() => socks.close());
  const ex = new Executor({
    chromiumPath: CHROMIUM, allowPrivateTargets: true, timeoutMs: 30_000, proxyRotation: 'sticky',
    proxyUrls: [`http://hu:hp@127.0.0.1:${http1.port}`, `socks5://su:s%20p@127.0.0.1:${socks.port}`],
  });
  t.after(() => ex.close());
  // Sticky sessions: find one key per proxy.
  const keys = new Map<string, string>();
  for (let i = 0; keys.size < 2 && i < 50; i++) keys.set(ex.sessionFor(`k${i}`).proxy!.label, `k${i}`);
  for (const key of keys.values()) assert.match((await ex.run(step(`${site.url}/p`), ex.sessionFor(key))).body, /via proxy/);
  assert.ok(http1.auths.includes('hu:hp'), `HTTP proxy credentials sent: ${http1.auths.join()}`);
  assert.ok(http1.targets.some((u) => u.startsWith(`${site.url}/p`)));
  assert.deepEqual([...new Set(socks.auths)], ['su:s p']);
  assert.ok(socks.targets.includes(`127.0.0.1:${site.port}`), socks.targets.join());
});
