/**
 * Reviews removed (issue 34, item 5; src/monitors/signal.ts, src/monitors/compare.ts), with the real
 * /maps/search and /maps/reviews adapters against the loopback site with a fake calendar that also
 * removes reviews: a removal the listing's counts show (the count or a per-score count fell) is
 * reported that day; a review removed on a day another came with the same score (no count moved) is
 * reported on the full-check day and not before; between full checks no place is read whole but for
 * a removal; on the full-check day every place is read whole, once, its reviews pages alone. On both
 * stores: what a monitor keeps for this (every review id of a place) and the `removed` change are new.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as searchAdapter } from '../src/sources/maps-search/adapter.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';
import type { ChangeRow } from '../src/store/monitors/contract.ts';
import { WHOLE_READS } from '../src/monitors/signal.ts';
import { onSite } from './support/map-site.ts';
import { calendarSite } from './support/calendar-site.ts';
import { bothStores } from './support/stores.ts';

const HOUR = 3_600_000;
const DAYS = 3;

const post = (h: Harness, path: string, body: unknown) => h.json(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

for (const [name, skip, open] of bothStores()) {
  test(`[${name}] removed reviews: a count fall that day, a same-count swap on the full-check day and not before; the period honoured`, { skip, timeout: 240_000 }, async () => {
    // Seed 2: on days 1 and 2, twelve removals, among them count falls and same-score swaps no count shows.
    const site = calendarSite({ places: 200, seed: 2, removals: 0.03, swapShare: 0.7 });
    const http = await site.listen();
    const db = open();
    const h = await startHarness({
      adapters: registryOfAdapters([onSite(searchAdapter, http.url), onSite(reviewsAdapter, http.url)]),
      settings: { monitorTickMs: 40, allowPrivateTargets: true }, balance: 1e6, backendEnv: { ...db.env, QUEUE: 'embedded' },
    });
    const store = monitorStoreOf(h.svc.ctx.store);
    const runsOf = (id: string) => store.listRuns(h.account.id, id, { limit: 100 });
    const ended = (id: string, n: number) => until(async () => (await runsOf(id)).filter((r) => r.status === 'done' || r.status === 'failed').length >= n, 120_000, `${n} runs`);
    try {
      const listing = (await post(h, '/monitors', { endpoint: '/maps/search', queries: site.queries, params: { limit: 500 }, schedule: { every_s: 86_400 } })).body.id as string;
      await ended(listing, 1);
      h.clock.offset += HOUR;
      const made = await post(h, '/monitors', {
        endpoint: '/maps/reviews', queries: site.placeIds, params: { reviewsLimit: 1 }, schedule: { every_s: 86_400 }, compare: { full_check_every_s: DAYS * 86_400 },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(made.body.compare.full_check_every_s, DAYS * 86_400);
      const reviews = made.body.id as string;
      const before = { ...site.hits };
      await ended(reviews, 1);
      const watched = new Set(site.placeIds);
      // A place without reviews costs its page alone (it says it has none), not an empty reviews page.
      const none = site.placeIds.filter((id) => JSON.parse(site.counts(id)!)[0] === 0).length;
      assert.equal(site.hits.reviews - before.reviews + none, site.wholePages(watched), 'the baseline reads every review of every place');

      const counts: Array<Map<string, string | null>> = [new Map(site.placeIds.map((id) => [id, site.counts(id)]))];
      const byDay: ChangeRow[][] = [[]];
      const whole: unknown[] = [null];
      const pages: number[] = [0];
      for (let day = 1; day <= DAYS; day++) {
        site.advance();
        h.clock.offset += 23 * HOUR;
        await ended(listing, day + 1);
        const at = site.hits.reviews;
        h.clock.offset += HOUR;
        await ended(reviews, day + 1);
        const [run] = await runsOf(reviews);
        assert.equal(run!.status, 'done', run!.reason ?? '');
        pages.push(site.hits.reviews - at);
        whole.push((await h.svc.ctx.store.getRequest(run!.requestId))?.params?.[WHOLE_READS] ?? null);
        byDay.push(await store.listChanges(h.account.id, reviews, { runId: run!.id, limit: 1000 }));
        counts.push(new Map(site.placeIds.map((id) => [id, site.counts(id)])));
      }
      const removedOn = (day: number) => byDay[day]!.filter((c) => c.kind === 'removed').map((c) => `${c.identity}|${String(c.before)}`);
      const truth = site.truth.filter((t) => t.kind === 'removed');

      // The period: days 1 and 2 read whole only the places whose counts said a review went; day 3 reads every place whole.
      for (const day of [1, 2]) {
        assert.notEqual(whole[day], '*', `no full check on day ${day}`);
        for (const why of Object.values((whole[day] ?? {}) as Record<string, string>)) assert.equal(why, 'removal');
        assert.ok(pages[day]! < site.wholePages(watched) / 4, `day ${day} read ${pages[day]} pages: not a full check`);
      }
      assert.equal(whole[3], '*');
      assert.equal(pages[3], site.wholePages(watched), 'the full check reads every page of every place once (the listing stands in for the place page)');

      // A pure removal (the count fell that day) is reported that day, naming the review.
      const fell = truth.filter((t) => t.day < DAYS && JSON.parse(counts[t.day]!.get(t.placeId)!)[0] < JSON.parse(counts[t.day - 1]!.get(t.placeId)!)[0]);
      assert.ok(fell.length > 0, 'the seeded site has a count that fell');
      for (const t of fell) assert.ok(removedOn(t.day).includes(`${t.placeId}|${t.before}`), `${t.before} removed on day ${t.day}`);
      const event = byDay[fell[0]!.day]!.find((c) => c.kind === 'removed' && c.before === fell[0]!.before)!;
      assert.deepEqual([event.field, event.after, event.record], ['reviews_data', null, null]);

      // A same-count swap no count showed on days 1-2: nothing before the full check, then the removal and the new review.
      const swaps = truth.filter((t) => t.day < DAYS && counts[0]!.get(t.placeId) === counts[DAYS - 1]!.get(t.placeId) && counts[t.day - 1]!.get(t.placeId) === counts[t.day]!.get(t.placeId));
      assert.ok(swaps.length > 0, 'the seeded site has a swap no count shows');
      for (const t of swaps) {
        for (const day of [1, 2]) assert.equal(byDay[day]!.filter((c) => c.identity === t.placeId).length, 0, `nothing of ${t.placeId} on day ${day}`);
        assert.ok(removedOn(DAYS).includes(`${t.placeId}|${t.before}`), `${t.before} removed, seen on the full-check day`);
        const added = site.truth.find((x) => x.kind === 'new_reviews' && x.placeId === t.placeId && x.day === t.day)!;
        const fresh = byDay[DAYS]!.find((c) => c.kind === 'new_reviews' && c.identity === t.placeId)!;
        assert.ok(added.ids!.every((id) => (fresh.record as Array<{ review_id: string }>).some((r) => r.review_id === id)), 'its new review too');
      }

      // Every removal reported once, on its day or by the full check; nothing removed that was not.
      const reported = [1, 2, 3].flatMap((d) => removedOn(d));
      assert.deepEqual([...reported].sort(), truth.map((t) => `${t.placeId}|${t.before}`).sort());
      const runs = await h.json(`/monitors/${reviews}/runs`);
      assert.equal(runs.body.runs[0].counts.removed, removedOn(3).length);
      const api = await h.json(`/monitors/${reviews}/changes?kind=removed&pageSize=1000`);
      assert.equal(api.status, 200);
      assert.equal(api.body.changes.length, reported.length);
    } finally {
      await h.close();
      await http.close();
      await db.drop();
    }
  });
}
