import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Executor } from './executor.ts';
import { loopback } from './loopback.testkit.ts';
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
  const ex = new Executor({ chromiumPath: CHROMIUM, allowedTargets: ['127.0.0.1'], browserMaxPages: 2, recordHar: har, timeoutMs: 30_000 });
  const res = await ex.run(step(`${site.url}/app`));
  assert.equal(res.status, 200);
  assert.match(res.body, /<div id="root">rendered by script<\/div>/);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(internal.hits.size, 0, 'the page could not reach a private address');

  await assert.rejects(ex.run(step('http://10.0.0.1/')), (e: unknown) => e instanceof SourceError && e.type === 'forbidden_target');

  await Promise.all([1, 2, 3, 4, 5].map((i) => ex.run(step(`${site.url}/slow${i}`))));
  assert.ok(peak <= 2, `at most 2 pages at once (peak ${peak})`);
  const profiles = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('trawl-chromium-')).length;
  const before = profiles();
  await ex.close();
  assert.equal(profiles(), before - 1, 'the temporary profile is removed on close');

  // Replay serves the recorded page without Chromium.
  const rep = new Executor({ replayHar: har, chromiumPath: '/nonexistent/chromium', allowedTargets: ['127.0.0.1'] });
  t.after(() => rep.close());
  assert.match((await rep.run(step(`${site.url}/app`))).body, /rendered by script/);
});

test('a browser step without Chromium is a clear, final error', async (t) => {
  const ex = new Executor({ chromiumPath: '/nonexistent/chromium', allowPrivateTargets: true, retries: 2 });
  t.after(() => ex.close());
  await assert.rejects(ex.run(step('http://127.0.0.1:9/')), /browser step needs Chromium at \/nonexistent\/chromium/);
});
