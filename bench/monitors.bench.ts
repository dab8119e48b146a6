/**
 * Monitors against a changing world (issue 29): the real service (store, engine, scheduler, the real
 * /maps/search and /maps/reviews adapters over HTTP) against the loopback site with a fake calendar
 * (test/support/calendar-site.ts), day after day on the service's fake clock.
 *
 *   npm run bench -- monitors                          MONITOR_PLACES=10000 MONITOR_DAYS=30 (defaults)
 *   MONITOR_PLACES=1000 MONITOR_DAYS=5 npm run bench -- monitors
 *
 * One places monitor lists every district (one search per run), reviews monitors follow the places
 * (1,000 a monitor, the most queries a monitor takes), run an hour after the listing each day. Each
 * day the site changes (ratings through new reviews, hours, phones, sites, closures, new places), the
 * clock moves on, the runs happen; their change events are compared with the site's truth:
 *   precision  events that match an injected change / events reported
 *   recall     injected changes reported / injected changes
 * (an event matches when the day, kind, place, field and value after agree), and
 *   requests_ratio  requests the service made to the site after the baselines / the oracle's: per day
 *                   the listing pages holding a changed place, and ceil(k / 20) reviews pages for a
 *                   place with k new reviews.
 * Prints, as its last line, one JSON object with these and the figures behind them.
 */
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as searchAdapter } from '../src/sources/maps-search/adapter.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';
import type { ChangeRow } from '../src/store/monitors/contract.ts';
import { startHarness, until } from '../test/support/harness.ts';
import { onSite } from '../test/support/map-site.ts';
import { calendarSite } from '../test/support/calendar-site.ts';

const PLACES = Number(process.env.MONITOR_PLACES || 10_000);
const DAYS = Number(process.env.MONITOR_DAYS || 30);
const SEED = Number(process.env.MONITOR_SEED || 1);
const HOUR = 3_600_000;
const PER_MONITOR = 1000;

/** Key order does not make two values differ. */
const stable = (v: unknown): string =>
  v === null || typeof v !== 'object' ? JSON.stringify(v ?? null)
    : Array.isArray(v) ? `[${v.map(stable).join(',')}]`
      : `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
const keyOf = (scope: string, day: number, kind: string, id: string, field: string | null, after: unknown) =>
  `${scope}|${day}|${kind}|${id}|${field ?? ''}|${kind === 'new' ? '' : stable(after)}`;

const t0 = performance.now();
const site = calendarSite({ places: PLACES, seed: SEED });
const http = await site.listen();
const h = await startHarness({
  adapters: registryOfAdapters([onSite(searchAdapter, http.url), onSite(reviewsAdapter, http.url)]),
  settings: { monitorTickMs: 50, allowPrivateTargets: true, concurrency: 16 }, balance: 1e9,
});
const store = monitorStoreOf(h.svc.ctx.store);
const accountId = h.account.id;

async function create(body: Record<string, unknown>): Promise<string> {
  const r = await h.json('/monitors', { method: 'POST', body: JSON.stringify({ schedule: { every_s: 86_400 }, ...body }), headers: { 'content-type': 'application/json' } });
  if (r.status !== 200) throw new Error(`monitor refused: ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}
/** Waits until each monitor has `n` runs ended; a failed run stops the bench. */
async function ended(ids: string[], n: number): Promise<void> {
  await until(async () => {
    for (const id of ids) {
      const runs = await store.listRuns(accountId, id, { limit: 2 });
      const failed = runs.find((r) => r.status === 'failed');
      if (failed) throw new Error(`run ${failed.id} of ${id} failed: ${failed.reason}`);
      if ((await store.getMonitor(accountId, id))!.runs < n) return false;
    }
    return true;
  }, 1_800_000, `${n} runs of ${ids.length} monitors`);
}
const afterSeq = new Map<string, number>();
async function changesOf(id: string): Promise<ChangeRow[]> {
  const out: ChangeRow[] = [];
  for (;;) {
    const page = await store.listChanges(accountId, id, { afterSeq: afterSeq.get(id), limit: 1000 });
    if (!page.length) return out;
    out.push(...page);
    afterSeq.set(id, page[page.length - 1]!.seq!);
  }
}
const hitsNow = () => ({ ...site.hits });

// Baselines: the listing first, then the reviews monitors (an hour later, as every day after).
const listing = await create({ name: 'listing', endpoint: '/maps/search', queries: site.queries, params: { limit: 500 } });
await ended([listing], 1);
h.clock.offset += HOUR;
const initial = new Set(site.placeIds);
const reviewIds: string[] = [];
for (let k = 0; k < site.placeIds.length; k += PER_MONITOR) {
  reviewIds.push(await create({ name: `reviews ${k / PER_MONITOR}`, endpoint: '/maps/reviews', queries: site.placeIds.slice(k, k + PER_MONITOR), params: { reviewsLimit: 1 } }));
}
await ended(reviewIds, 1);
const baseline = hitsNow();
const baselineS = (performance.now() - t0) / 1000;

const reported = new Set<string>();
let reportedCount = 0;
let oracleListing = 0, oracleReviews = 0;
const perDay: number[] = [];
const t1 = performance.now();
for (let day = 1; day <= DAYS; day++) {
  const before = hitsNow();
  site.advance();
  h.clock.offset += 23 * HOUR;
  await ended([listing], day + 1);
  h.clock.offset += HOUR;
  await ended(reviewIds, day + 1);
  for (const c of await changesOf(listing)) { reported.add(keyOf('places', day, c.kind, c.identity, c.field, c.after)); reportedCount++; }
  for (const id of reviewIds) for (const c of await changesOf(id)) { reported.add(keyOf('reviews', day, c.kind, c.identity, c.field, c.after)); reportedCount++; }
  const o = site.oracle(day, initial);
  oracleListing += o.listing;
  oracleReviews += o.reviews;
  const made = site.hits.search + site.hits.place + site.hits.reviews - before.search - before.place - before.reviews;
  perDay.push(made);
  process.stderr.write(`day ${day}: ${made} requests (oracle ${o.listing + o.reviews}), ${Math.round((performance.now() - t1) / 1000)} s\n`);
}

// The truth as each monitor should report it: the listing everything it shows, the reviews monitors
// new reviews and the review count and rating of the places they were given.
const truth = new Set<string>();
for (const t of site.truth) {
  if (t.kind !== 'new_reviews') truth.add(keyOf('places', t.day, t.kind, t.placeId, t.field, t.after));
  if (initial.has(t.placeId) && (t.kind === 'new_reviews' || (t.kind === 'changed' && (t.field === 'reviews' || t.field === 'rating')))) {
    truth.add(keyOf('reviews', t.day, t.kind, t.placeId, t.field, t.after));
  }
}
let matched = 0;
for (const k of reported) if (truth.has(k)) matched++;
const missed = [...truth].filter((k) => !reported.has(k));
const extra = [...reported].filter((k) => !truth.has(k));
const made = { search: site.hits.search - baseline.search, place: site.hits.place - baseline.place, reviews: site.hits.reviews - baseline.reviews };
const requests = made.search + made.place + made.reviews;
const oracle = oracleListing + oracleReviews;
await h.close();
await http.close();
const result = {
  places: PLACES, days: DAYS, monitors: 1 + reviewIds.length,
  precision: Math.round((matched / Math.max(1, reportedCount)) * 1e4) / 1e4, recall: Math.round((matched / Math.max(1, truth.size)) * 1e4) / 1e4,
  requests_ratio: Math.round((requests / oracle) * 1000) / 1000,
  changes_reported: reportedCount, changes_injected: truth.size, requests, requests_by_kind: made,
  oracle_requests: oracle, oracle_listing: oracleListing, oracle_reviews: oracleReviews,
  baseline_requests: baseline.search + baseline.place + baseline.reviews, baseline_s: Math.round(baselineS),
  days_s: Math.round((performance.now() - t1) / 1000), requests_per_day_median: [...perDay].sort((a, b) => a - b)[Math.floor(perDay.length / 2)],
  rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  missed_sample: missed.slice(0, 3), extra_sample: extra.slice(0, 3),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
