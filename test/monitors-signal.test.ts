/**
 * Fetching only what moved (issue 29, item 4; src/monitors/signal.ts), with the real /maps/search and
 * /maps/reviews adapters against the loopback site with a fake calendar: a reviews monitor riding a
 * places monitor's listing reads no place page, asks only the places whose review counts moved, each
 * from its newest review seen, and still reports exactly the injected changes; without a fresh
 * listing it asks every place; when nothing moved, a run makes no request at all. Requests are
 * counted at the site, so a run that ignores the cheap signal fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as searchAdapter } from '../src/sources/maps-search/adapter.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';
import { onSite } from './support/map-site.ts';
import { calendarSite } from './support/calendar-site.ts';

const HOUR = 3_600_000;
const PLACES = 300;

const post = (h: Harness, path: string, body: unknown, method = 'POST') =>
  h.json(path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('a reviews monitor asks only the places whose counts moved in the listing, from their newest review, and reports exactly what changed', { timeout: 120_000 }, async () => {
  // No removals here: the signal alone (removals: test/monitors-removals.test.ts).
  const site = calendarSite({ places: PLACES, seed: 3, removals: 0 });
  // The same calendar, one day ahead: places that stay quiet on day 1.
  const ahead = calendarSite({ places: PLACES, seed: 3, removals: 0 });
  ahead.advance();
  const busy = new Set(ahead.truth.map((t) => t.placeId));
  const quiet = site.placeIds.filter((p) => !busy.has(p)).slice(0, 3);
  const http = await site.listen();
  const h = await startHarness({
    adapters: registryOfAdapters([onSite(searchAdapter, http.url), onSite(reviewsAdapter, http.url)]),
    settings: { monitorTickMs: 40, allowPrivateTargets: true }, balance: 1e6,
  });
  const store = monitorStoreOf(h.svc.ctx.store);
  const runsOf = (id: string) => store.listRuns(h.account.id, id, { limit: 100 });
  const ended = (ids: string[], n: number) => until(async () => {
    for (const id of ids) if ((await runsOf(id)).filter((r) => r.status === 'done' || r.status === 'failed').length < n) return false;
    return true;
  }, 60_000, `${n} runs`);
  const create = async (body: Record<string, unknown>) => {
    const r = await post(h, '/monitors', { schedule: { every_s: 86_400 }, ...body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as string;
  };
  try {
    const listing = await create({ endpoint: '/maps/search', queries: site.queries, params: { limit: 500 } });
    await ended([listing], 1);
    h.clock.offset += HOUR;
    const reviews = await create({ endpoint: '/maps/reviews', queries: site.placeIds, params: { reviewsLimit: 1 } });
    const still = await create({ endpoint: '/maps/reviews', queries: quiet, params: { reviewsLimit: 1 } });
    await ended([reviews, still], 1);
    assert.equal(site.hits.place, PLACES + quiet.length, 'the baseline reads each place whole');

    // Day 1: only the places with new reviews are asked, each from its newest review seen.
    site.advance();
    h.clock.offset += 23 * HOUR;
    await ended([listing], 2);
    const before = { ...site.hits };
    h.clock.offset += HOUR;
    // The listing shows each place as it stands: no place page, only the reviews of those that moved.
    await ended([reviews, still], 2);
    const moved = site.truth.filter((t) => t.kind === 'new_reviews');
    const [run] = await runsOf(reviews);
    assert.equal(run!.status, 'done', run!.reason ?? '');
    const req = await h.svc.ctx.store.getRequest(run!.requestId);
    assert.equal(req!.queriesTotal, moved.length, 'only the places whose review counts moved');
    assert.equal(site.hits.place - before.place, 0, 'no place page');
    assert.equal(site.hits.reviews - before.reviews, site.oracle(1, new Set(site.placeIds)).reviews, 'one reviews page per place with fewer than 19 new reviews');
    const changes = await store.listChanges(h.account.id, reviews, { limit: 1000 });
    assert.deepEqual(changes.filter((c) => c.kind === 'new_reviews').map((c) => [c.identity, c.after]).sort(), moved.map((t) => [t.placeId, t.after]).sort());
    const counts = site.truth.filter((t) => t.kind === 'changed' && (t.field === 'reviews' || t.field === 'rating'));
    assert.deepEqual(changes.filter((c) => c.kind === 'changed').map((c) => [c.identity, c.field, c.after]).sort(), counts.map((t) => [t.placeId, t.field, t.after]).sort());
    assert.equal((await store.seenRecords(reviews)).size, site.placeIds.length, 'the places not asked are kept, not forgotten');
    // Nothing moved for the quiet places: the run made no request.
    const [idle] = await runsOf(still);
    assert.deepEqual([idle!.status, await h.svc.ctx.store.getRequest(idle!.requestId)], ['done', null]);
    assert.match(idle!.reason!, /nothing moved/);

    // Day 2 with the listing paused: no fresh signal, so every place is asked, and still only new reviews are reported.
    assert.equal((await post(h, `/monitors/${listing}`, { status: 'paused' }, 'PATCH')).status, 200);
    site.advance();
    h.clock.offset += 24 * HOUR;
    await ended([reviews], 3);
    const [blind] = await runsOf(reviews);
    assert.equal((await h.svc.ctx.store.getRequest(blind!.requestId))!.queriesTotal, site.placeIds.length);
    const day2 = (await store.listChanges(h.account.id, reviews, { runId: blind!.id, limit: 1000 })).filter((c) => c.kind === 'new_reviews');
    assert.deepEqual(day2.map((c) => [c.identity, c.after]).sort(), site.truth.filter((t) => t.day === 2 && t.kind === 'new_reviews' && site.placeIds.includes(t.placeId)).map((t) => [t.placeId, t.after]).sort());
  } finally {
    await h.close();
    await http.close();
  }
});
