import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortfallNote, tallyStep, type TallyState } from './tally.ts';
import { shortBy } from '../sources/_kit/tally.ts';

test('a list is compared with its stated count when it ends, across steps', () => {
  const t: TallyState = {};
  tallyStep(t, [{ key: 'a', stated: 40, read: 20 }, { key: 'b', stated: 10, read: 10, end: 'end' }]);
  assert.equal(shortfallNote(t), undefined, 'b read whole; a still open');
  assert.deepEqual(t.open, { a: { stated: 40, read: 20 } });
  tallyStep(JSON.parse(JSON.stringify(t)) as TallyState, []); // a checkpoint round trip keeps the counts
  tallyStep(t, [{ key: 'a', read: 15, end: 'end' }]);
  assert.equal(shortfallNote(t), 'incomplete: 1 list read short; a: read 35 of the 40 the answer states');
  assert.equal(t.open, undefined);
});

test('the query\'s own bound is never a shortfall; the limited view always is, and is stated first', () => {
  const t: TallyState = {};
  tallyStep(t, [{ key: 'a', stated: 400, read: 20, end: 'enough' }]);
  assert.equal(shortfallNote(t), undefined);
  tallyStep(t, [{ key: 'b', stated: 50, read: 5, end: 'end' }]);
  tallyStep(t, [{ key: 'c', stated: 90, read: 0, end: 'limited', why: 'HTTP 403' }]);
  assert.equal(shortfallNote(t), 'limited_view: 2 lists read short; c: the site shows a signed-out visitor a part only (HTTP 403); read 0 of the 90 the answer states');
  // No stated count: an end cannot be short.
  const u: TallyState = {};
  tallyStep(u, [{ key: 'x', read: 3, end: 'end' }]);
  assert.equal(shortfallNote(u), undefined);
});

test('up to 1 % of the stated count may be missing', () => {
  assert.equal(shortBy(100, 99), false);
  assert.equal(shortBy(100, 98), true);
  assert.equal(shortBy(40, 39), true);
  assert.equal(shortBy(0, 0), false);
});

test('a query resumed from a cursor compares no counts; the limited view still tells', () => {
  const t: TallyState = { resumed: true };
  tallyStep(t, [{ key: 'a', stated: 100, read: 40, end: 'end' }]);
  assert.equal(shortfallNote(t), undefined);
  tallyStep(t, [{ key: 'b', read: 0, end: 'limited', why: 'HTTP 403' }]);
  assert.match(shortfallNote(t) ?? '', /^limited_view: 1 list read short/);
});
