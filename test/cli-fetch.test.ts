/**
 * `trawl fetch` as an operator runs it, against loopback servers: the answer, the verdict, the
 * profile and proxy used, the body file, the SSRF guard and the exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardProxy, loopback } from '../src/fetch/loopback.testkit.ts';

/** Runs the CLI without blocking this process (the servers answer from it). */
function trawl(args: string[], env: Record<string, string> = {}): Promise<{ code: number; json: any; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '', ...env }, encoding: 'utf8', timeout: 60_000 }, (e, out, err) => {
      let json: any;
      try {
        json = JSON.parse(out);
      } catch {
        json = undefined;
      }
      resolve({ code: e ? Number((e as { code?: number }).code) : 0, json, err });
    });
  });
}

test('trawl fetch: status, final URL after a redirect, headers, no verdict, the profile the site saw, the body in a file', async (t) => {
  const srv = await loopback((req, res) => {
    if (req.url === '/start') {
      res.writeHead(302, { location: '/final' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-site': 'yes' });
    res.end(`<html><body>hello ${req.headers['user-agent']}</body></html>`);
  });
  t.after(() => srv.close());
  const dir = mkdtempSync(join(tmpdir(), 'trawl-fetch-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'page.html');
  const r = await trawl(['fetch', `${srv.url}/start`, '--profile', 'chrome', '--out', file], { ALLOW_PRIVATE_TARGETS: 'true' });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.status, 200);
  assert.equal(r.json.final_url, `${srv.url}/final`);
  assert.equal(r.json.verdict, null);
  assert.equal(r.json.headers['x-site'], 'yes');
  assert.deepEqual(r.json.hops.map((h: { status: number }) => h.status), [302, 200]);
  assert.equal(r.json.proxy, null);
  assert.equal(r.json.profile.setting, 'chrome');
  assert.equal(r.json.profile.browser, 'chrome');
  assert.match(r.json.profile.handshake, /^chrome_\d+$/);
  const ua = srv.seen.at(-1)!.headers['user-agent'];
  assert.equal(r.json.profile.user_agent, ua);
  assert.match(ua!, /Chrome\//);
  assert.equal(r.json.body_file, file);
  assert.equal(readFileSync(file, 'utf8'), `<html><body>hello ${ua}</body></html>`);
});

test('trawl fetch: a wall is reported with its verdict and exit code 3; a bad profile is exit 2', async (t) => {
  const srv = await loopback((req, res) => {
    if (req.url === '/slow-down') {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'text/html' });
      return res.end('<html>too many</html>');
    }
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<html>denied</html>');
  });
  t.after(() => srv.close());
  const env = { ALLOW_PRIVATE_TARGETS: 'true' };
  const blocked = await trawl(['fetch', `${srv.url}/`, '--profile', 'firefox'], env);
  assert.equal(blocked.code, 3);
  assert.equal(blocked.json.status, 403);
  assert.equal(blocked.json.verdict.type, 'blocked');
  assert.equal(blocked.json.profile.browser, 'firefox');
  assert.equal(readFileSync(blocked.json.body_file, 'utf8'), '<html>denied</html>');
  rmSync(blocked.json.body_file);
  const limited = await trawl(['fetch', `${srv.url}/slow-down`], env);
  assert.equal(limited.code, 3);
  assert.equal(limited.json.verdict.type, 'rate_limited');
  assert.equal(limited.json.profile.setting, 'browser', 'without --profile: what web sources use');
  assert.equal(srv.hits.get('/slow-down'), 1, 'never retried');
  rmSync(limited.json.body_file);
  const bad = await trawl(['fetch', `${srv.url}/`, '--profile', 'safari'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--profile must be one of browser, chrome, firefox, node/);
});

test('trawl fetch: the SSRF guard refuses a private target unless ALLOW_PRIVATE_TARGETS says so', async (t) => {
  const srv = await loopback((_req, res) => res.end('inside'));
  t.after(() => srv.close());
  const r = await trawl(['fetch', `${srv.url}/`]);
  assert.equal(r.code, 1);
  assert.equal(r.json.error.type, 'forbidden_target');
  assert.equal(srv.hits.size, 0);
  const allowed = await trawl(['fetch', `${srv.url}/`], { ALLOW_PRIVATE_TARGETS: '127.0.0.0/8' });
  assert.equal(allowed.code, 0, allowed.err);
  rmSync(allowed.json.body_file);
});

test('trawl fetch --proxy with credentials: the proxy carries it, its password masked; --profile node is undici', async (t) => {
  const srv = await loopback((_req, res) => res.end('via'));
  t.after(() => srv.close());
  const proxy = await forwardProxy('op:s3cret');
  t.after(() => proxy.close());
  const r = await trawl(['fetch', `${srv.url}/p`, '--profile', 'node', '--proxy', `http://op:s3cret@127.0.0.1:${proxy.port}`], { ALLOW_PRIVATE_TARGETS: 'true' });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.proxy, `http://op:***@127.0.0.1:${proxy.port}`);
  assert.equal(r.json.hops[0].proxy, `http://op:***@127.0.0.1:${proxy.port}`);
  assert.equal(r.json.profile.transport, 'undici');
  assert.deepEqual(proxy.auths, ['op:s3cret']);
  assert.deepEqual(proxy.targets, [`${srv.url}/p`]);
  rmSync(r.json.body_file);
  const wreq = await trawl(['fetch', `${srv.url}/q`, '--profile', 'chrome', '--proxy', `http://op:s3cret@127.0.0.1:${proxy.port}`], { ALLOW_PRIVATE_TARGETS: 'true' });
  assert.equal(wreq.code, 0, wreq.err);
  assert.deepEqual(proxy.auths, ['op:s3cret', 'op:s3cret'], 'the browser-true transport authenticates too');
  rmSync(wreq.json.body_file);
  const bad = await trawl(['fetch', `${srv.url}/`, '--proxy', 'ftp://x:1']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--proxy: scheme ftp: is not supported/);
});
