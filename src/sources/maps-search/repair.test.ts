/**
 * Pages of a counted view asked again across its page boundaries (repair.ts): which offsets, in
 * which order, and never one the view asked already.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPAIR_DRY, repairDry, repairOffset } from './repair.ts';

test('the page centred on the deepest boundary first, then the shallower ones, then shifted a quarter page', () => {
  const offs = [0, 18, 36, 54];
  const asked: number[] = [];
  for (;;) {
    const o = repairOffset(offs, asked, 70);
    if (o === undefined) break;
    asked.push(o);
  }
  // Boundaries end pages 1-3 (at 20, 38, 56); the overlap of pages p and p+1 is [offs[p+1], offs[p] + 20).
  assert.deepEqual(asked, [45, 27, 9, 40, 22, 4]);
  assert.ok(asked.length <= 2 * (offs.length - 1), 'two pages a boundary at most');
  for (const o of asked) assert.ok(!offs.includes(o), `${o} is a page the view asked already`);
});

test('a view of one page has no boundary; an offset stays inside the count', () => {
  assert.equal(repairOffset([0], [], 15), undefined);
  const o = repairOffset([0, 10], [], 12)!;
  assert.ok(o >= 1 && o <= 11, String(o));
});

test('a site of 10 places a page: pages asked again shift by a quarter of its page, not of the 20 asked', () => {
  const offs = [0, 8, 16];
  const asked: number[] = [];
  for (let o = repairOffset(offs, asked, 26, 10); o !== undefined; o = repairOffset(offs, asked, 26, 10)) asked.push(o);
  assert.equal(asked.length, 4, asked.join(','));
  const mids = [4, 12];
  for (const o of asked) assert.ok(mids.some((m) => Math.abs(o - m) <= 3), `${o} is more than a quarter page of 10 from a boundary`);
});

test('a site of smaller pages asks as many places in a row for nothing before it stops', () => {
  assert.equal(repairDry(20), REPAIR_DRY);
  assert.equal(repairDry(25), REPAIR_DRY);
  assert.equal(repairDry(10), 2 * REPAIR_DRY);
  assert.equal(repairDry(15), 3);
});
