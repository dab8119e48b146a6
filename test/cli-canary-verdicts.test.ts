/**
 * `trawl canary` verdicts of this machine's own trouble, apart from `degraded` (issue 38: offline, every
 * source was "degraded" and a missing Chromium a network error), without the internet:
 * - `unreachable`: no source reached, simulated with canaries whose requests go to a name that cannot
 *   resolve (`.invalid`, RFC 6761) and to a closed port on this machine; one source that is reached (a
 *   loopback site answering 500) makes the others `degraded` again;
 * - `misconfigured`: a browser source with CHROMIUM_PATH pointing at nothing (the path in the
 *   operator's reason, never in the API's message), and a setting that cannot be read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canaryCommand } from '../src/cli/canary.ts';
import { judge } from '../src/cli/canary-check.ts';
import { SOURCES } from '../src/sources/registry.ts';
import type { SourceRow } from '../src/sources/_kit/source.ts';
import type { WebAdapter } from '../src/sources/_kit/adapter.ts';
import { NO_BROWSER } from '../src/fetch/browser.ts';

const rowOf = (endpoint: string) => SOURCES.find((r) => r.endpoint === endpoint)!;

/** A registry row whose canary's one request goes to `url` (the row's own adapter otherwise). */
function aimedAt(endpoint: string, url: string): SourceRow {
  const row = rowOf(endpoint);
  return { ...row, adapter: async () => ({ ...(await row.adapter() as WebAdapter), plan: () => [{ kind: 'page', url, expect: 'html' }] }) };
}

async function canary(rows: SourceRow[], env: Record<string, string>): Promise<{ code: number; out: any; text: string }> {
  let json = '';
  const code = await canaryCommand({ json: true }, env, rows, (s) => { json += s; });
  let text = '';
  const again = await canaryCommand({}, env, rows, (s) => { text += s; });
  assert.equal(again, code, 'the text run ends the same');
  return { code, out: JSON.parse(json), text };
}

/** A port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

test('no source reachable (a name that does not resolve, a refused connection): unreachable, exit 6', { timeout: 120_000 }, async () => {
  const port = await closedPort();
  const rows = [aimedAt('/forum-comments', 'https://trawl-canary-test.invalid/r/x.json'), aimedAt('/videosite-videos', `http://127.0.0.1:${port}/channel`)];
  const { code, out, text } = await canary(rows, { ALLOW_PRIVATE_TARGETS: 'true', RETRIES: '0' });
  assert.equal(code, 6, JSON.stringify(out));
  assert.equal(out.status, 'unreachable');
  assert.deepEqual(out.sources.map((s: any) => s.status), ['unreachable', 'unreachable']);
  assert.match(out.sources[0].reason, /DNS lookup failed for trawl-canary-test\.invalid|ENOTFOUND/);
  assert.match(out.sources[1].reason, /ECONNREFUSED/);
  assert.ok(out.sources.every((s: any) => !('offline' in s)), 'the internal mark is not printed');
  assert.match(text, /^unreachable +\/forum-comments/m);
  assert.match(text, /^worst: unreachable: no source was reachable/m);
});

test('one source reached (its site answers 500): the unreached one is degraded, not unreachable; exit 3', { timeout: 120_000 }, async (t) => {
  const site = createServer((_q, res) => { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('down'); });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  t.after(() => site.close());
  const rows = [aimedAt('/forum-comments', 'https://trawl-canary-test.invalid/r/x.json'), aimedAt('/videosite-videos', `http://127.0.0.1:${(site.address() as AddressInfo).port}/channel`)];
  const { code, out, text } = await canary(rows, { ALLOW_PRIVATE_TARGETS: 'true', RETRIES: '0' });
  assert.equal(code, 3, JSON.stringify(out));
  assert.deepEqual(out.sources.map((s: any) => s.status), ['degraded', 'degraded']);
  assert.ok(!/unreachable/.test(text), text);
});

test('a browser source without Chromium: misconfigured with the path the operator set, exit 7; worse than an unreachable one', { timeout: 120_000 }, async () => {
  const events = rowOf('/engine-search-events');
  const { code, out } = await canary([events], { CHROMIUM_PATH: '/nonexistent/chromium' });
  assert.equal(code, 7, JSON.stringify(out));
  assert.equal(out.sources[0].status, 'misconfigured');
  assert.ok(out.sources[0].reason.includes(NO_BROWSER), out.sources[0].reason);
  assert.match(out.sources[0].reason, /\(CHROMIUM_PATH: \/nonexistent\/chromium\)$/);
  const both = await canary([aimedAt('/forum-comments', 'https://trawl-canary-test.invalid/r/x.json'), events], { CHROMIUM_PATH: '/nonexistent/chromium', RETRIES: '0' });
  assert.equal(both.code, 7);
  assert.deepEqual(both.out.sources.map((s: any) => s.status), ['degraded', 'misconfigured'], 'a misconfigured source is not an unreached one');
});

test('a setting that cannot be read: every source misconfigured saying which, exit 7, nothing run', { timeout: 60_000 }, async () => {
  const { code, out } = await canary([rowOf('/forum-comments'), rowOf('/videosite-videos')], { FETCH_PROFILE: 'bogus' });
  assert.equal(code, 7);
  assert.deepEqual(out.sources.map((s: any) => [s.status, s.ms]), [['misconfigured', 0], ['misconfigured', 0]]);
  assert.match(out.sources[0].reason, /^misconfigured: setting FETCH_PROFILE="bogus" must be one of/);
});

test('judge: a network error before the site is offline; one from the site, a timeout or a replay gap is not', () => {
  const c = { query: 'q', min: 1, fields: ['x'] };
  const schema = { type: 'object' } as never;
  const offline = (message: string) => judge(c, schema, { error: { type: 'network', message } }).offline === true;
  assert.ok(offline('DNS lookup failed for a.invalid: getaddrinfo ENOTFOUND a.invalid'));
  assert.ok(offline('ECONNREFUSED fetching 10.0.0.1:3128: connect ECONNREFUSED'));
  assert.ok(offline('EAI_AGAIN fetching www.example.com: getaddrinfo EAI_AGAIN'));
  assert.ok(!offline('HTTP 502 from www.example.com'));
  assert.ok(!offline('timed out after 30000 ms: page www.example.com'));
  assert.ok(!offline('no recorded response for GET https://www.example.com/'));
  assert.equal(judge(c, schema, { error: { type: 'misconfigured', message: NO_BROWSER } }).status, 'misconfigured');
});
