/**
 * Signed-in cookie sets (issue 34, item 2), over HTTP with the real /maps/reviews adapter and the
 * loopback 2026 product: two accounts from MAPS_COOKIES, one of which expires mid-run (401). Every
 * review is read from the map list; the expired account is benched, named in one log line and in
 * /health's notes by its name and reason, never its cookie; no cookie appears in the log, the answer
 * (records, cursors, reasons) or the store's files (results kept as text for the search).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { startHarness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { onSite } from './support/map-site.ts';
import { filesUnder } from './support/files.ts';
import { site2026 } from './support/site-2026.ts';
import { createLogger } from '../src/ops/log.ts';
import { setHealthNote } from '../src/ops/health-notes.ts';

const SECRET_A = 'expiringSECRETvalueAAAA';
const SECRET_B = 'goodSECRETvalueBBBB';


for (const [expired, why] of [[401, 'HTTP 401'], [403, 'HTTP 403'], ['sign_in', 'a sign-in page']] as const) test(`signed-in accounts read every review; an expired one (${why}) is benched, named (never its cookie) in the log and /health`, { timeout: 90_000 }, async () => {
  const counts = [60, 45, 30, 25];
  const site = site2026({ places: counts.length, reviewsOf: (i) => counts[i]!, signedOut: 'forbidden', cookies: { [SECRET_A]: 3, [SECRET_B]: Infinity }, expired });
  const http = await site.listen();
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const env = { MAPS_COOKIES: `__Secure-1PSID=${SECRET_A}; __Secure-1PSIDTS=ts-${SECRET_A}\n__Secure-1PSID=${SECRET_B}; __Secure-1PSIDTS=ts-${SECRET_B}`, MAPS_COOKIE_HOSTS: new URL(http.url).host };
  const h = await startHarness({ adapters: registryOfAdapters([onSite(reviewsAdapter, http.url)]), settings: { allowPrivateTargets: true, concurrency: 1 }, balance: 1e6, env, log: createLogger('info', sink), backendEnv: { RESULT_COMPRESSION: 'off' } });
  try {
    const q = site.placeIds.map((id) => `query=${id}`).join('&');
    const r = await h.json(`/maps/reviews?${q}&reviewsLimit=0&reviewsRoute=map&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    assert.deepEqual(r.body.data.map((d: any[]) => d[0].reviews_data.length), counts);
    assert.equal(site.hits.reviews_limited, 0, 'never asked signed out');
    assert.ok(site.hits.expired >= 1, 'the expiring account met its end');

    const health = await h.json('/health');
    assert.ok((health.body.notes?.['signed_in:account-1'] ?? '').startsWith(`signed-in identity account-1 benched: ${why}`), health.body.notes?.['signed_in:account-1']);
    assert.equal(health.body.notes?.['signed_in:account-2'], undefined);
    await new Promise((ok) => setTimeout(ok, 50));
    const log = lines.join('');
    assert.match(log, /signed-in identity account-1 benched/);
    const id = r.body.id as string;
    const stored = JSON.stringify((await h.json(`/requests/${id}`)).body);
    const dataDir = h.svc.ctx.settings.dataDir;
    const files = filesUnder(dataDir).map((f) => readFileSync(f).toString('latin1')).join('\n');
    // The search can find what it looks for: results are stored as text here (brotli would hide a cookie).
    assert.ok(files.includes('Review 0 of place 0'), 'the store\'s bytes hold the records as text');
    for (const secret of [SECRET_A, SECRET_B]) {
      assert.ok(!log.includes(secret), 'no cookie in the log');
      assert.ok(!stored.includes(secret), 'no cookie in the answer, its cursors or reasons');
      assert.ok(!files.includes(secret), 'no cookie in the store');
    }
  } finally {
    setHealthNote('signed_in:account-1', null);
    await h.close();
    await http.close();
  }
});
