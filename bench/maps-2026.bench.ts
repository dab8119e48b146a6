/**
 * The map product as it is in late 2026 (issue 34): the real service (HTTP API, store, queue, engine,
 * executor, the real /maps/reviews adapter) against the loopback 2026 product
 * (test/support/site-2026.ts): signed-out listugcposts answers 403 (or five reviews without a token,
 * or a sign-in page), signed-in cookies read every page, one account's cookie expires mid-run (then
 * answered 401, 403 or with a sign-in page, by variant), the
 * search review dialog gives ten a page, and a share of visitors get stub place pages.
 *
 *   npm run bench -- maps-2026                  the variants tuned on, then the untuned one
 *   MAPS2026_VARIANT=untuned npm run bench -- maps-2026
 *
 * Three runs per variant, each every place's reviews in one request (`reviewsLimit=0`):
 *   cookies  two signed-in accounts (MAPS_COOKIES; one expires after a number of requests), route map
 *   dialog   no cookies, route dialog
 *   neither  no cookies, route map: every place that states more reviews than the limited view shows
 *            ends `limited_view`
 * Measured per run, against the site's truth:
 *   reviews_expected / reviews_got   the places' review counts / the reviews answered
 *   silent_truncations               queries answered with fewer reviews than the place has and no reason
 *   stubs_served_as_complete         places whose last page was a stub, answered without a stub reason
 *   false_stubs                      places answered with a stub reason whose last page was whole
 *   cookie_leaks                     cookie values found in the log, the store's files (SQLite bytes:
 *                                    checkpoints, results, cursors), the HAR recording and the answer;
 *                                    the store keeps results as text here (RESULT_COMPRESSION=off: brotli
 *                                    bytes would hide a cookie from the search), and `store_searched`
 *                                    says the search read them (every place's name found in the bytes)
 * One line per run, then as the last line the sums over the variant's runs (reviews over the first two).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { createLogger } from '../src/ops/log.ts';
import { setHealthNote } from '../src/ops/health-notes.ts';
import { startHarness } from '../test/support/harness.ts';
import { onSite } from '../test/support/map-site.ts';
import { filesUnder } from '../test/support/files.ts';
import { site2026, type Site2026Options } from '../test/support/site-2026.ts';
import { writeSection } from './lib.ts';

interface Variant {
  name: string;
  tuned: boolean;
  site: Omit<Site2026Options, 'cookies'>;
  /** Requests the expiring account answers before its cookie expires. */
  expireAfter: number;
}

const reviewsFrom = (seed: number, lo: number, hi: number) => (i: number) => lo + ((i * 7_919 + seed * 104_729) % (hi - lo + 1));
const VARIANTS: Variant[] = [
  { name: 'v1', tuned: true, expireAfter: 40, site: { places: 60, seed: 1, reviewsOf: reviewsFrom(1, 1, 220), signedOut: 'forbidden', stubShare: 0.15 } },
  { name: 'v2', tuned: true, expireAfter: 3, site: { places: 60, seed: 2, reviewsOf: reviewsFrom(2, 1, 120), signedOut: 'sign_in', stubShare: 0.3, listPage: 15, expired: 'sign_in' } },
  { name: 'untuned', tuned: false, expireAfter: 150, site: { places: 80, seed: 3, reviewsOf: reviewsFrom(3, 1, 400), signedOut: 'five', stubShare: 0.5, listPage: 13, dialogPage: 7, expired: 403 } },
];
const pick = process.env.MAPS2026_VARIANT;
const variants = VARIANTS.filter((v) => !pick || v.name === pick);

const SECRET_EXPIRING = 'benchSECRETexpiring0001';
const SECRET_GOOD = 'benchSECRETgood0002';
const SECRETS = [SECRET_EXPIRING, SECRET_GOOD, `ts-${SECRET_EXPIRING}`, `ts-${SECRET_GOOD}`];

type Run = 'cookies' | 'dialog' | 'neither';
type Answer = { id: string; status: string; data: any[][]; errors?: Array<{ query: string; error: { type: string; message: string } }>; metadata?: { stubs_retried: number; stubs_served: number } };


const count = (text: string, s: string) => text.split(s).length - 1;

async function oneRun(v: Variant, run: Run): Promise<Record<string, number | string>> {
  const site = site2026({ ...v.site, cookies: run === 'cookies' ? { [SECRET_EXPIRING]: v.expireAfter, [SECRET_GOOD]: Infinity } : {} });
  const http = await site.listen();
  const tmp = mkdtempSync(join(tmpdir(), 'trawl-maps2026-'));
  const har = join(tmp, 'run.har');
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _e, cb) { lines.push(String(chunk)); cb(); } });
  const env: Record<string, string> = { RECORD_HAR: har };
  if (run === 'cookies') {
    env.MAPS_COOKIES = [SECRET_EXPIRING, SECRET_GOOD].map((s) => `__Secure-1PSID=${s}; __Secure-1PSIDTS=ts-${s}`).join('\n');
    env.MAPS_COOKIE_HOSTS = new URL(http.url).host;
  }
  const h = await startHarness({ adapters: registryOfAdapters([onSite(reviewsAdapter, http.url)]), settings: { allowPrivateTargets: true }, balance: 1e9, env, log: createLogger('info', sink), backendEnv: { RESULT_COMPRESSION: 'off' } });
  const t0 = performance.now();
  let body: Answer;
  let stored = '';
  let dataFiles = '';
  try {
    const route = run === 'dialog' ? 'dialog' : 'map';
    const q = site.placeIds.map((id) => `query=${id}`).join('&');
    const r = await h.json(`/maps/reviews?${q}&reviewsLimit=0&reviewsRoute=${route}&async=true`);
    if (r.status !== 202 && r.status !== 200) throw new Error(`submit refused: ${JSON.stringify(r.body).slice(0, 300)}`);
    const id = r.body.id as string;
    for (;;) {
      const g = await h.json(`/requests/${id}`);
      if (g.status === 200 && g.body.status !== 'Pending') { body = g.body as Answer; break; }
      if (g.status === 204) throw new Error(`request failed: ${JSON.stringify(g.headers)}`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
    stored = JSON.stringify(body);
  } finally {
    // The service closed (its executor writes the HAR file), then the store's files read as bytes
    // (SQLite database and its journal: checkpoints, results, cursors), then removed.
    await h.svc.close();
    await http.close();
    for (let k = 1; k <= 2; k++) setHealthNote(`signed_in:account-${k}`, null);
  }
  const ms = performance.now() - t0;
  dataFiles = filesUnder(h.dir).map((f) => readFileSync(f).toString('latin1')).join('\n');
  rmSync(h.dir, { recursive: true, force: true });
  let harText = '';
  try { harText = readFileSync(har, 'latin1'); } catch { /* no request recorded */ }
  const log = lines.join('');
  rmSync(tmp, { recursive: true, force: true });

  const reasonOf = new Map((body.errors ?? []).map((e) => [e.query, e.error]));
  let expected = 0, got = 0, silent = 0, stubsAsComplete = 0, falseStubs = 0, limited = 0, limitedWanted = 0;
  const shown = v.site.signedOut === 'five' ? 5 : 0;
  site.placeIds.forEach((pid, i) => {
    const n = site.counts[i]!;
    const el = body.data[i]?.[0];
    const read = el?.reviews_data?.length ?? 0;
    const why = reasonOf.get(pid);
    expected += n;
    got += read;
    if (read < n && !(why && (why.type === 'limited_view' || why.type === 'incomplete'))) silent++;
    const stubbed = why?.type === 'stub' || /served as a stub/.test(why?.message ?? '');
    if (site.lastStub.get(i) && !stubbed) stubsAsComplete++;
    if (!site.lastStub.get(i) && stubbed) falseStubs++;
    if (why?.type === 'limited_view') limited++;
    if (n > shown) limitedWanted++;
  });
  const leaks = SECRETS.reduce((a, s) => a + count(log, s) + count(dataFiles, s) + count(harText, s) + count(stored, s), 0);
  return {
    variant: v.name, run, places: site.placeIds.length, reviews_expected: expected, reviews_got: got, silent_truncations: silent,
    stubs_served_as_complete: stubsAsComplete, false_stubs: falseStubs, cookie_leaks: leaks,
    limited_view: limited, limited_view_expected: run === 'neither' ? limitedWanted : 0,
    stubs_retried: body.metadata?.stubs_retried ?? 0, stubs_served: body.metadata?.stubs_served ?? 0, stub_pages: site.hits.stubs,
    requests: site.hits.place + site.hits.reviews + site.hits.dialog, cookie_expired_answers: site.hits.expired, signed_out_list_answers: site.hits.reviews_limited,
    // The check can find what it looks for: the site got these cookies (cookies run), so they were at hand to leak.
    cookies_sent: SECRETS.filter((x) => [...site.cookiesSeen].some((c) => c.endsWith(`=${x}`))).length,
    // ... and the store's bytes were readable: each place's record found in them as text.
    store_searched: site.placeIds.every((_, i) => dataFiles.includes(`"Place ${i}"`)) ? 1 : 0,
    har_bytes: harText.length, ms: Math.round(ms),
  };
}

const summaries: string[] = [];
let last = '';
for (const v of variants) {
  const load = loadavg()[0]!.toFixed(1);
  const runs: Record<string, number | string>[] = [];
  for (const run of ['cookies', 'dialog', 'neither'] as const) {
    const r = await oneRun(v, run);
    runs.push(r);
    console.log(JSON.stringify({ ...r, load }));
  }
  const sum = (k: string, rs = runs) => rs.reduce((a, r) => a + Number(r[k]), 0);
  const firstTwo = runs.slice(0, 2);
  const line = {
    variant: v.name, tuned: v.tuned, places: runs[0]!.places, reviews_expected: sum('reviews_expected', firstTwo), reviews_got: sum('reviews_got', firstTwo),
    silent_truncations: sum('silent_truncations'), stubs_served_as_complete: sum('stubs_served_as_complete'), cookie_leaks: sum('cookie_leaks'),
    false_stubs: sum('false_stubs'), neither_limited_view: runs[2]!.limited_view, neither_limited_view_expected: runs[2]!.limited_view_expected,
    stubs_retried: sum('stubs_retried'), stubs_served: sum('stubs_served'), store_searched: runs.every((r) => r.store_searched === 1) ? 1 : 0, load,
  };
  last = JSON.stringify(line);
  summaries.push(`| ${v.name} | ${v.tuned ? 'yes' : 'no'} | ${JSON.stringify(v.site.signedOut)} | ${v.site.stubShare} | ${v.expireAfter}, ${v.site.expired === 'sign_in' ? 'sign-in page' : v.site.expired ?? 401} | ${v.site.listPage ?? 20} / ${v.site.dialogPage ?? 10} | ${runs.map((r) => `${r.reviews_got} / ${r.reviews_expected}`).join(' · ')} | ${line.neither_limited_view} / ${line.neither_limited_view_expected} | ${line.silent_truncations} | ${line.stubs_served_as_complete} | ${line.stubs_retried} / ${line.stubs_served} | ${line.cookie_leaks} | ${load} |`);
  console.log(last);
}

writeSection('docs/performance/maps-2026.md', [
  '# The 2026 map product: routes, stubs, cookies (`npm run bench -- maps-2026`)',
  '',
  'The real service against the loopback 2026 product (bench/maps-2026.bench.ts). Per variant three runs of every place\'s reviews: cookies (two accounts, one expiring after the given number of requests; route map), dialog (no cookies, route dialog), neither (no cookies, route map).',
  '',
  '| variant | built on | signed-out list | stub share | expiry (requests, answer) | page sizes list / dialog | reviews got / expected: cookies · dialog · neither | neither: limited_view / places over the limited view | silent truncations | stubs served as complete | stubs retried / served | cookie leaks | load |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...summaries,
].join('\n'));
if (last) console.log(last);
