import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinReasons, stubNote, stubRetried, stubsServed, type StubState } from './stubs.ts';
import { noteOf, splitNote } from './note.ts';
import type { Learned } from '../sources/_kit/learned.ts';

test('stub counts: retried and served, the first served named in the reason', () => {
  const s: Partial<StubState> = {};
  assert.equal(stubNote(s), undefined);
  stubRetried(s);
  assert.equal(stubNote(s), undefined, 'a stub asked again and whole is no reason');
  stubRetried(s);
  stubsServed(s, [{ key: 'Place 3', why: 'no place_id' }]);
  assert.deepEqual(s, { retried: 2, served: 1, first: 'Place 3: no place_id' });
  assert.equal(stubNote(s), 'stub: 1 record served as a stub (still one when asked again from another identity); Place 3: no place_id');
});

test('a stored note keeps its reason, stub counts, what the query learned of the view cap and summary apart', () => {
  for (const [reason, summary, stubs, learned] of [
    ['stub: 1 record', { coverage: 0.5 }, { retried: 2, served: 1 }, { caps: [120], complete: 87, top: 87 }],
    [undefined, { coverage: 0.5 }, { retried: 1, served: 0 }, undefined],
    ['step_budget: x', undefined, { retried: 1, served: 1 }, { complete: 40 }],
    ['network: y', undefined, undefined, undefined],
    [undefined, { coverage: 1 }, undefined, undefined],
    [undefined, undefined, undefined, { caps: [60, 110] }],
  ] as const) {
    const stored = noteOf(reason, summary as Record<string, unknown> | undefined, stubs, learned as Learned | undefined);
    assert.deepEqual(splitNote(stored ?? null), { reason: reason ?? null, summary: summary ?? null, stubs: stubs ?? null, learned: learned ?? null });
  }
  assert.equal(noteOf(undefined, undefined, undefined, {}), undefined, 'nothing learned: nothing stored');
  assert.equal(noteOf(undefined, undefined, { retried: 0, served: 0 }), undefined, 'no stubs met: nothing stored');
});

test('a list read short and a stub make one reason, the shortfall\'s type first', () => {
  assert.equal(joinReasons('limited_view: a', 'stub: b'), 'limited_view: a; stub: b');
  assert.equal(joinReasons(undefined, 'stub: b'), 'stub: b');
  assert.equal(joinReasons('incomplete: a', undefined), 'incomplete: a');
  assert.equal(joinReasons(undefined, undefined), undefined);
});
