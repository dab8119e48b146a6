import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffRun, identityOf } from './compare.ts';

const cmp = { identity: ['place_id'], fields: ['phone', 'rating', 'working_hours'] };
const meta = (baseline = false) => ({ monitorId: 'm', runId: 'r', at: 1, baseline });
type Rec = Record<string, unknown>;

function seenOf(d: ReturnType<typeof diffRun>, prev = new Map<string, Rec>()): Map<string, Rec> {
  const m = new Map(prev);
  for (const g of d.gone) m.delete(g);
  for (const s of d.seen) m.set(s.identity, s.values);
  return m;
}

test('baseline remembers and reports nothing; then new, gone and one event per changed field', () => {
  const run1 = diffRun(new Map(), [{ query: 'q', records: [{ place_id: 'a', phone: '1', rating: 4.1, working_hours: { Mon: ['9-5'] } }, { place_id: 'b', phone: '2', rating: 3 }] }], cmp, meta(true));
  assert.deepEqual(run1.changes, []);
  assert.equal(run1.seen.length, 2);
  const run2 = diffRun(seenOf(run1), [{ query: 'q', records: [{ place_id: 'a', phone: '9', rating: 4.2, working_hours: { Mon: ['9-5'] } }, { place_id: 'c', phone: '3' }] }], cmp, meta());
  const kinds = run2.changes.map((c) => [c.kind, c.identity, c.field, c.before, c.after]);
  assert.deepEqual(kinds, [['changed', 'a', 'phone', '1', '9'], ['changed', 'a', 'rating', 4.1, 4.2], ['new', 'c', null, null, null], ['gone', 'b', null, null, null]]);
  assert.deepEqual(run2.counts, { new: 1, gone: 1, changed: 2, new_reviews: 0, removed: 0, records: 2 });
  assert.deepEqual((run2.changes.find((c) => c.kind === 'new')!.record as Rec).place_id, 'c', 'a new record comes whole');
});

test('key order and repeated records do not make changes; a record without identity is skipped', () => {
  const prev = seenOf(diffRun(new Map(), [{ query: 'q', records: [{ place_id: 'a', working_hours: { Mon: 1, Tue: 2 } }] }], cmp, meta(true)));
  const d = diffRun(prev, [{ query: 'q', records: [{ place_id: 'a', working_hours: { Tue: 2, Mon: 1 } }, { place_id: 'a', phone: 'x' }, { name: 'no id' }] },
    { query: 'q2', records: [{ place_id: 'a' }] }], cmp, meta());
  assert.deepEqual(d.changes, []);
  assert.equal(identityOf({ place_id: '' }, ['place_id']), null);
});

test('a failed query says nothing about its records being gone; a query no longer asked forgets quietly', () => {
  const prev = seenOf(diffRun(new Map(), [{ query: 'q1', records: [{ place_id: 'a' }] }, { query: 'q2', records: [{ place_id: 'b' }] }], cmp, meta(true)));
  const failed = diffRun(prev, [{ query: 'q1', records: [], failed: true }, { query: 'q2', records: [{ place_id: 'b' }] }], cmp, meta());
  assert.deepEqual(failed.changes, []);
  assert.deepEqual(failed.gone, []);
  const dropped = diffRun(prev, [{ query: 'q2', records: [{ place_id: 'b' }] }], cmp, meta());
  assert.deepEqual(dropped.changes, []);
  assert.deepEqual(dropped.gone, ['a']);
});

test('new reviews: newer than the newest seen, or at its time and unseen; the memory keeps a mark, not every id', () => {
  const rc = { identity: ['place_id'], fields: ['rating'] };
  const place = (reviews: [string, number][]) => ({ place_id: 'p', rating: 4, reviews_data: reviews.map(([id, t]) => ({ review_id: id, review_timestamp: t })) });
  const s1 = seenOf(diffRun(new Map(), [{ query: 'q', records: [place([['r1', 100], ['r2', 200], ['r3', 200]])] }], rc, meta(true)));
  assert.deepEqual([s1.get('p')!._newest, s1.get('p')!._ids], [200, ['r2', 'r3']]);
  const d2 = diffRun(s1, [{ query: 'q', records: [place([['r4', 300], ['r5', 200], ['r2', 200], ['r1', 100]])] }], rc, meta());
  const ev = d2.changes.find((c) => c.kind === 'new_reviews')!;
  assert.deepEqual((ev.record as Rec[]).map((r) => r.review_id), ['r4', 'r5']);
  assert.equal(ev.after, 2);
  assert.equal(d2.counts.new_reviews, 1);
  const d3 = diffRun(seenOf(d2, s1), [{ query: 'q', records: [place([['r4', 300]])] }], rc, meta());
  assert.deepEqual(d3.changes, [], 'nothing newer: no event');
});

test('a place seen without reviews: its first reviews are new ones', () => {
  const rc = { identity: ['place_id'], fields: [] };
  const s1 = seenOf(diffRun(new Map(), [{ query: 'q', records: [{ place_id: 'p', reviews_data: [] }] }], rc, meta(true)));
  assert.equal(s1.get('p')!._newest, 0);
  const d = diffRun(s1, [{ query: 'q', records: [{ place_id: 'p', reviews_data: [{ review_id: 'r1', review_timestamp: 50 }] }] }], rc, meta());
  assert.deepEqual(d.changes.map((c) => [c.kind, c.after]), [['new_reviews', 1]]);
});

test('a query of the monitor not asked this run (nothing moved) keeps its records: neither gone nor forgotten', () => {
  const prev = seenOf(diffRun(new Map(), [{ query: 'q1', records: [{ place_id: 'a' }] }, { query: 'q2', records: [{ place_id: 'b' }] }], cmp, meta(true)));
  const d = diffRun(prev, [{ query: 'q2', records: [{ place_id: 'b' }] }], cmp, { ...meta(), queries: ['q1', 'q2'] });
  assert.deepEqual([d.changes, d.gone], [[], []]);
});

test('what the cheap signal needs is remembered: review counts, and a listing\'s place as shown', () => {
  const d = diffRun(new Map(), [{ query: 'q', records: [{ place_id: 'a', engine_id: '0x1:0x2', reviews: 3, reviews_per_score: { 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 }, reviews_link: 'l', name: 'A' }] }], cmp, meta(true));
  const v = d.seen[0]!.values;
  assert.equal(v._sig, JSON.stringify([3, { 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 }]));
  assert.deepEqual([(v._place as Rec).engine_id, (v._place as Rec).name, (v._place as Rec).reviews], ['0x1:0x2', 'A', 3]);
});

test('reviews read whole: those no longer listed are removed, one event each; a read of the newest marks a place whose count fell short', () => {
  const rc = { identity: ['place_id'], fields: ['reviews'] };
  const place = (reviews: [string, number][], count = reviews.length) => ({ place_id: 'p', reviews: count, reviews_data: reviews.map(([id, t]) => ({ review_id: id, review_timestamp: t })) });
  const whole = () => 'check' as const;
  // The baseline read whole: every id kept, the check's time too.
  const s1 = seenOf(diffRun(new Map(), [{ query: 'q', records: [place([['r3', 300], ['r2', 200], ['r1', 100]])] }], rc, { ...meta(true), whole, due: 10 }));
  assert.deepEqual([s1.get('p')!._all, s1.get('p')!._full, s1.get('p')!._gap], [['r3', 'r2', 'r1'], 10, 0]);
  // A swap (r2 gone, r4 new: the count unchanged) seen by the next whole read.
  const d2 = diffRun(s1, [{ query: 'q', records: [place([['r4', 400], ['r3', 300], ['r1', 100]])] }], rc, { ...meta(), whole, due: 20 });
  assert.deepEqual(d2.changes.map((c) => [c.kind, c.identity, c.field, c.before, c.after]), [['new_reviews', 'p', null, null, 1], ['removed', 'p', 'reviews_data', 'r2', null]]);
  assert.deepEqual([d2.counts.removed, d2.counts.new_reviews], [1, 1]);
  const s2 = seenOf(d2, s1);
  assert.equal(s2.get('p')!._full, 20);
  // A read of the newest only (not whole): r5 added, and the count says 3 while 4 are known: short, nothing named yet.
  const d3 = diffRun(s2, [{ query: 'q', records: [place([['r5', 500], ['r4', 400]], 3)] }], rc, meta());
  assert.deepEqual(d3.changes.map((c) => c.kind), ['new_reviews']);
  const s3 = seenOf(d3, s2);
  assert.deepEqual([s3.get('p')!._all, s3.get('p')!._short, s3.get('p')!._full], [['r5', 'r4', 'r3', 'r1'], true, 20]);
  // Read whole for the removal: named, and the full check's time kept (a removal read is not the periodic check).
  const d4 = diffRun(s3, [{ query: 'q', records: [place([['r5', 500], ['r4', 400], ['r1', 100]])] }], rc, { ...meta(), whole: () => 'removal', due: 30 });
  assert.deepEqual(d4.changes.map((c) => [c.kind, c.before]), [['removed', 'r3']]);
  assert.deepEqual([seenOf(d4, s3).get('p')!._full, seenOf(d4, s3).get('p')!._short], [20, undefined]);
});

test('a product that counts reviews it does not list: the difference is kept, so a steady gap is not a removal', () => {
  const rc = { identity: ['place_id'], fields: [] };
  const place = (ids: string[], count: number) => ({ place_id: 'p', reviews: count, reviews_data: ids.map((id, i) => ({ review_id: id, review_timestamp: 100 - i })) });
  const s1 = seenOf(diffRun(new Map(), [{ query: 'q', records: [place(['a', 'b'], 5)] }], rc, { ...meta(true), whole: () => 'check', due: 1 }));
  assert.equal(s1.get('p')!._gap, 3);
  const d = diffRun(s1, [{ query: 'q', records: [{ ...place(['c'], 6), reviews_data: [{ review_id: 'c', review_timestamp: 200 }] }] }], rc, meta());
  assert.equal(seenOf(d, s1).get('p')!._short, undefined);
});
