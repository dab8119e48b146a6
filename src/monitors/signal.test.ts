import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRun, WHOLE_READS } from './signal.ts';
import { KNOWN_PLACES } from '../sources/maps-reviews/plan.ts';
import type { MonitorRow, MonitorStore } from '../store/monitors/contract.ts';

type Rec = Record<string, unknown>;
const monitor = (o: Partial<MonitorRow>): MonitorRow => ({
  id: 'm', accountId: 'a', name: null, endpoint: '/maps/reviews', queries: [], params: {}, schedule: { every_s: 86_400, time_zone: 'UTC' },
  compare: { identity: ['place_id'], fields: [] }, webhook: null, status: 'active', pausedReason: null, nextRunAt: 0, lastRunAt: 100, runs: 1, created: 0, updated: 0, ...o,
});
/** Only what planRun reads: the account's monitors and what each has seen. */
function storeOf(monitors: MonitorRow[], seen: Record<string, Rec[]>): MonitorStore {
  return {
    listMonitors: async () => monitors,
    seenRecords: async (id: string) => new Map((seen[id] ?? []).map((v, i) => [String(i), v])),
  } as unknown as MonitorStore;
}
const place = (id: string, reviews: number) => ({ engine_id: `0x1:0x${id}`, place_id: id, reviews, name: id });
const sig = (reviews: number) => JSON.stringify([reviews, null]);

test('reviews: only the places whose counts moved in a listing newer than the last run, each from its newest review; a new query read like a baseline', async () => {
  const reviews = monitor({ queries: ['p1', 'p2', 'p3'], params: { reviewsLimit: 5 } });
  const listing = monitor({ id: 'l', endpoint: '/maps/search', lastRunAt: 200 });
  const store = storeOf([reviews, listing], {
    m: [{ _q: 'p1', _sig: sig(10), _newest: 1000 }, { _q: 'p2', _sig: sig(4), _newest: 900 }],
    l: [{ _sig: sig(12), _place: place('p1', 12) }, { _sig: sig(4), _place: place('p2', 4) }, { _sig: sig(1), _place: place('p3', 1) }],
  });
  const plan = await planRun(store, reviews, false);
  assert.deepEqual([plan.queries, plan.resting], [['p1', 'p3'], ['p2']]);
  const known = plan.params[KNOWN_PLACES] as Rec;
  assert.deepEqual(known.p1, { place: place('p1', 12), cutoff: 1000 });
  assert.deepEqual(known.p3, { place: place('p3', 1), cutoff: 0, limit: 5 }, 'never seen: the newest reviewsLimit, not every review');
  assert.deepEqual([plan.params.cutoff, plan.params.sort, plan.params.reviewsLimit], [1000, 'newest', 0]);
  // A listing that ran before the monitor's last run says nothing new: every place is asked.
  const stale = await planRun(storeOf([reviews, { ...listing, lastRunAt: 50 }], { m: [], l: [] }), reviews, false);
  assert.deepEqual(stale.queries, ['p1', 'p2', 'p3']);
  // The baseline and a monitor's own cutoff: asked as given.
  assert.deepEqual((await planRun(store, reviews, true)).params, { reviewsLimit: 5 });
  assert.deepEqual((await planRun(store, { ...reviews, params: { cutoff: 5 } }, false)).queries, ['p1', 'p2', 'p3']);
});

test('full checks: the baseline reads whole; a place is read whole when its check is due (not before), or when the listing shows a count fall', async () => {
  const DAY = 86_400_000;
  const reviews = monitor({ queries: ['p1', 'p2', 'p3', 'p4'], params: { reviewsLimit: 1 }, compare: { identity: ['place_id'], fields: [], full_check_every_s: 7 * 86_400 } });
  const listing = monitor({ id: 'l', endpoint: '/maps/search', lastRunAt: 200 });
  const perScore = (n: number, five: number) => JSON.stringify([n, { 1: 0, 2: 0, 3: 0, 4: n - five, 5: five }]);
  const store = storeOf([reviews, listing], {
    m: [
      { _q: 'p1', _sig: perScore(10, 5), _newest: 1000, _full: 0 },
      { _q: 'p2', _sig: perScore(10, 5), _newest: 1000, _full: 0 },
      { _q: 'p3', _sig: perScore(10, 5), _newest: 1000, _full: 0, _short: true },
      { _q: 'p4', _sig: perScore(10, 5), _newest: 1000, _full: 0 },
    ],
    l: [
      { _sig: perScore(10, 5), _place: place('p1', 10) }, // unchanged
      { _sig: perScore(10, 4), _place: place('p2', 10) }, // same count, one 5 fewer: a removal
      { _sig: perScore(10, 5), _place: place('p3', 10) }, // unchanged, but short after its last read
      { _sig: perScore(11, 6), _place: place('p4', 11) }, // one more: read from its newest
    ],
  });
  assert.deepEqual((await planRun(store, reviews, true, 0)).params, { reviewsLimit: 0, [WHOLE_READS]: '*' });
  const day6 = await planRun(store, reviews, false, 6 * DAY);
  assert.deepEqual([day6.queries, day6.resting, day6.params[WHOLE_READS]], [['p2', 'p3', 'p4'], ['p1'], { p2: 'removal', p3: 'removal' }]);
  const known = day6.params[KNOWN_PLACES] as Record<string, Rec>;
  assert.deepEqual([known.p2!.cutoff, known.p4!.cutoff], [0, 1000]);
  assert.equal(day6.params.cutoff, undefined, 'a whole read: no request-wide cutoff');
  const day7 = await planRun(store, reviews, false, 7 * DAY);
  assert.deepEqual([day7.queries, day7.resting, day7.params[WHOLE_READS]], [['p1', 'p2', 'p3', 'p4'], [], '*']);
  assert.ok(Object.values(day7.params[KNOWN_PLACES] as Record<string, Rec>).every((k) => k.cutoff === 0 && k.limit === undefined));
  // Off (0), or a monitor with its own cutoff: no whole read at all.
  const off = await planRun(store, { ...reviews, compare: { ...reviews.compare, full_check_every_s: 0 } }, false, 7 * DAY);
  assert.deepEqual([off.queries, off.params[WHOLE_READS]], [['p2', 'p4'], undefined]);
  assert.deepEqual((await planRun(store, { ...reviews, compare: { ...reviews.compare, full_check_every_s: 0 } }, true)).params, { reviewsLimit: 1 });
});
