/**
 * Monitors against a changing world (issues 29 and 34): the real service (store, engine, scheduler,
 * the real /maps/search and /maps/reviews adapters over HTTP) against the loopback site with a fake
 * calendar (test/support/calendar-site.ts), day after day on the service's fake clock.
 *
 *   npm run bench -- monitors          MONITOR_PLACES=10000 MONITOR_DAYS=30 MONITOR_SEED=1 (defaults)
 *   MONITOR_REMOVALS=0.002 MONITOR_SWAP_SHARE=0.5   the site's removals (per place and day; share of them that are swaps)
 *   MONITOR_FULL_DAYS=30                             the reviews monitors' full check period in days (default: the product's, 30)
 *   MONITOR_TICK_MS=50                               how often the scheduler looks (each look asks whether every running run's request ended)
 *   MONITOR_PLACES=1000 MONITOR_DAYS=5 npm run bench -- monitors
 *
 * One places monitor lists every district (one search per run), reviews monitors follow the places
 * (1,000 a monitor, the most queries a monitor takes), run an hour after the listing each day. Each
 * day the site changes (ratings through new reviews, removed reviews, hours, phones, sites, closures,
 * new places), the clock moves on, the runs happen; what they report is compared with the site's truth.
 *
 * Items: each change event is one item, except that reviews are counted one by one: each new review
 * (in a `new_reviews` event's record) and each removed one (a `removed` event) is an item.
 *   precision  reported items that match an injected change / reported items
 *   recall     injected changes reported / injected changes due by the last day
 * A places-monitor event, and a reviews monitor's `changed` review count or rating, match when day,
 * kind, place, field and value after agree (the counts are in the listing, read daily). A review
 * added or removed matches when reported on its day or later, but no later than the first full-check
 * day at or after it (days P, 2P, ... after the baseline): a review removed on a day another came
 * (the count unchanged) is invisible in every count, so the documented promise is "by the next full
 * check" (a removal the counts do show is reported that day or, when it hid behind new reviews, the
 * next; `reviews_late` counts those reported after their day). Changes whose full check comes after
 * the last day and that were not reported yet are not due: left out of recall (`reviews_not_yet_due`).
 *
 * Requests are counted at the site after the baselines. Two oracles, both knowing on which day each
 * place changed and how:
 *   all-knowing   per day, the listing pages holding a changed place, ceil(k / 20) reviews pages for
 *                 a watched place with k new reviews, and for a place with a review removed the
 *                 pages down to the deepest removed one (newest first, one review past it). It never
 *                 reads a place whole: knowing every change, it needs no full check, so the monitor's
 *                 full checks are all excess against it (`requests_ratio_all_knowing`: the price of
 *                 the full check, which docs/monitors.md states per monitor and day).
 *   the oracle    (`requests_ratio`, the 1.15x target) the same, except on the monitor's full-check
 *                 days, when it reads every watched place whole, as a reader must who cannot see a
 *                 same-count swap in any count: whatever else it knows, the reviews a swap removed are
 *                 found only by reading the place whole (the site's removals fall anywhere in a
 *                 place's list), and a swap shows in no listing, so it pays one whole read of each
 *                 place per period and no more. So requests_ratio measures what the monitor spends
 *                 beyond what its chosen period makes necessary (the listing read whole, removals
 *                 read whole instead of down to the removed review, a day's delay when a removal
 *                 hid behind new reviews), and requests_ratio_all_knowing what the period itself costs.
 * Prints, as its last line, one JSON object with these and the figures behind them; with --write it
 * also writes docs/performance/monitors-last-run.md.
 */
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as searchAdapter } from '../src/sources/maps-search/adapter.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';
import type { ChangeRow } from '../src/store/monitors/contract.ts';
import { startHarness, until } from '../test/support/harness.ts';
import { onSite } from '../test/support/map-site.ts';
import { calendarSite } from '../test/support/calendar-site.ts';
import { DEFAULT_FULL_CHECK_S } from '../src/monitors/compare.ts';
import { writeSection } from './lib.ts';
import { loadavg } from 'node:os';

const PLACES = Number(process.env.MONITOR_PLACES || 10_000);
const DAYS = Number(process.env.MONITOR_DAYS || 30);
const SEED = Number(process.env.MONITOR_SEED || 1);
const REMOVALS = process.env.MONITOR_REMOVALS === undefined ? undefined : Number(process.env.MONITOR_REMOVALS);
const SWAP_SHARE = process.env.MONITOR_SWAP_SHARE === undefined ? undefined : Number(process.env.MONITOR_SWAP_SHARE);
/** The reviews monitors' full-check period in days (0: none); unset, the product's default. */
const FULL_DAYS = process.env.MONITOR_FULL_DAYS === undefined ? DEFAULT_FULL_CHECK_S / 86_400 : Number(process.env.MONITOR_FULL_DAYS);
const fullDay = (day: number) => FULL_DAYS > 0 && day % FULL_DAYS === 0;
/** The first full-check day at or after `day` (a review change is due by then). */
const dueBy = (day: number) => (FULL_DAYS > 0 ? Math.ceil(day / FULL_DAYS) * FULL_DAYS : Infinity);
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
const site = calendarSite({ places: PLACES, seed: SEED, removals: REMOVALS, swapShare: SWAP_SHARE });
const http = await site.listen();
const h = await startHarness({
  adapters: registryOfAdapters([onSite(searchAdapter, http.url), onSite(reviewsAdapter, http.url)]),
  settings: { monitorTickMs: Number(process.env.MONITOR_TICK_MS || 50), allowPrivateTargets: true, concurrency: 16 }, balance: 1e9,
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
  reviewIds.push(await create({
    name: `reviews ${k / PER_MONITOR}`, endpoint: '/maps/reviews', queries: site.placeIds.slice(k, k + PER_MONITOR), params: { reviewsLimit: 1 },
    ...(process.env.MONITOR_FULL_DAYS === undefined ? {} : { compare: { full_check_every_s: FULL_DAYS * 86_400 } }),
  }));
}
await ended(reviewIds, 1);
const baseline = hitsNow();
const baselineS = (performance.now() - t0) / 1000;

const reported = new Set<string>();
let reportedCount = 0;
/** Reviews reported added or removed: `added|place|review` or `removed|place|review`, with the day. */
const reportedReviews: Array<{ key: string; day: number }> = [];
let oracleListing = 0, oracleReviews = 0, allKnowingReviews = 0, fullChecks = 0, reviewEvents = 0;
const perDay: number[] = [];
/** The last full-check day's wall and CPU seconds (the CPU of this process: service and site; the load moves it less than the wall). */
let fullDayS = 0, fullDayCpuS = 0;
const cpuS = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const t1 = performance.now();
for (let day = 1; day <= DAYS; day++) {
  const before = hitsNow();
  const dayT = performance.now(), dayCpu = cpuS();
  site.advance();
  h.clock.offset += 23 * HOUR;
  await ended([listing], day + 1);
  h.clock.offset += HOUR;
  await ended(reviewIds, day + 1);
  for (const c of await changesOf(listing)) { reported.add(keyOf('places', day, c.kind, c.identity, c.field, c.after)); reportedCount++; }
  for (const id of reviewIds) {
    for (const c of await changesOf(id)) {
      reportedCount++;
      if (c.kind === 'new_reviews' || c.kind === 'removed') reviewEvents++;
      if (c.kind === 'new_reviews') for (const r of c.record as Array<{ review_id: string }>) reportedReviews.push({ key: `added|${c.identity}|${r.review_id}`, day });
      else if (c.kind === 'removed') reportedReviews.push({ key: `removed|${c.identity}|${String(c.before)}`, day });
      else reported.add(keyOf('reviews', day, c.kind, c.identity, c.field, c.after));
    }
  }
  const o = site.oracle(day, initial, fullDay(day));
  if (fullDay(day)) { fullChecks++; fullDayS = (performance.now() - dayT) / 1000; fullDayCpuS = cpuS() - dayCpu; }
  oracleListing += o.listing;
  oracleReviews += o.reviews;
  allKnowingReviews += site.oracle(day, initial, false).reviews;
  const made = site.hits.search + site.hits.place + site.hits.reviews - before.search - before.place - before.reviews;
  perDay.push(made);
  process.stderr.write(`day ${day}: ${made} requests (oracle ${o.listing + o.reviews}; listing pages ${site.hits.search - before.search}, oracle's ${o.listing}; listing runs ${(await store.getMonitor(accountId, listing))!.runs}), ${Math.round((performance.now() - t1) / 1000)} s\n`);
}

// The truth as each monitor should report it: the listing everything it shows, the reviews monitors
// the review count and rating of the places they were given (that day), and each review added or
// removed there (that day or later, by the next full check).
const truth = new Set<string>();
const truthReviews = new Map<string, number>();
for (const t of site.truth) {
  if (t.kind !== 'new_reviews' && t.kind !== 'removed') truth.add(keyOf('places', t.day, t.kind, t.placeId, t.field, t.after));
  if (!initial.has(t.placeId)) continue;
  if (t.kind === 'changed' && (t.field === 'reviews' || t.field === 'rating')) truth.add(keyOf('reviews', t.day, t.kind, t.placeId, t.field, t.after));
  if (t.kind === 'new_reviews') for (const id of t.ids!) truthReviews.set(`added|${t.placeId}|${id}`, t.day);
  if (t.kind === 'removed') truthReviews.set(`removed|${t.placeId}|${String(t.before)}`, t.day);
}
let matched = 0;
for (const k of reported) if (truth.has(k)) matched++;
const missed = [...truth].filter((k) => !reported.has(k));
const extra = [...reported].filter((k) => !truth.has(k));
const matchedReviews = new Set<string>();
let late = 0;
for (const { key, day } of reportedReviews) {
  const d = truthReviews.get(key);
  if (d === undefined || day < d || day > dueBy(d) || matchedReviews.has(key)) { extra.push(`${key} reported day ${day}${d === undefined ? '' : `, changed day ${d}`}`); continue; }
  matchedReviews.add(key);
  matched++;
  if (day > d) late++;
}
let due = truth.size, notYetDue = 0;
for (const [key, d] of truthReviews) {
  if (dueBy(d) <= DAYS || matchedReviews.has(key)) { due++; if (!matchedReviews.has(key)) missed.push(`${key} changed day ${d}`); } else notYetDue++;
}
const removedInjected = [...truthReviews.keys()].filter((k) => k.startsWith('removed|')).length;
const removedReported = reportedReviews.filter((r) => r.key.startsWith('removed|')).length;
const made = { search: site.hits.search - baseline.search, place: site.hits.place - baseline.place, reviews: site.hits.reviews - baseline.reviews };
const requests = made.search + made.place + made.reviews;
const oracle = oracleListing + oracleReviews;
const allKnowing = oracleListing + allKnowingReviews;
/** Every event is an item, except that reviews count one by one. */
const items = reportedCount - reviewEvents + reportedReviews.length;
await h.close();
await http.close();
const result = {
  places: PLACES, days: DAYS, seed: SEED, removals: REMOVALS ?? 'default', swap_share: SWAP_SHARE ?? 'default', full_check_days: FULL_DAYS, full_checks: fullChecks, monitors: 1 + reviewIds.length,
  precision: Math.round((matched / Math.max(1, items)) * 1e4) / 1e4, recall: Math.round((matched / Math.max(1, due)) * 1e4) / 1e4,
  requests_ratio: Math.round((requests / oracle) * 1000) / 1000, requests_ratio_all_knowing: Math.round((requests / allKnowing) * 1000) / 1000,
  items_reported: items, items_due: due, changes_reported: reportedCount, reviews_removed_injected: removedInjected, reviews_removed_reported: removedReported,
  reviews_late: late, reviews_not_yet_due: notYetDue, requests, requests_by_kind: made,
  oracle_requests: oracle, oracle_listing: oracleListing, oracle_reviews: oracleReviews, all_knowing_requests: allKnowing,
  baseline_requests: baseline.search + baseline.place + baseline.reviews, baseline_s: Math.round(baselineS),
  days_s: Math.round((performance.now() - t1) / 1000), full_check_day_s: Math.round(fullDayS * 10) / 10, full_check_day_cpu_s: Math.round(fullDayCpuS * 10) / 10, requests_per_day_median: [...perDay].sort((a, b) => a - b)[Math.floor(perDay.length / 2)],
  rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  missed_sample: missed.slice(0, 3), extra_sample: extra.slice(0, 3),
};
const load = loadavg().map((x) => x.toFixed(1)).join(', ');
writeSection('docs/performance/monitors-last-run.md', `# Monitors bench, last run\n\n\`npm run bench -- monitors\` (bench/monitors.bench.ts; what the figures mean: docs/performance/monitors.md), load average ${load} at the end.\n\n\`\`\`json\n${JSON.stringify(result, null, 1)}\n\`\`\`\n`);
process.stdout.write(`${JSON.stringify({ ...result, load })}\n`);
