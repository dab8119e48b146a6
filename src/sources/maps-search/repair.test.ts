/**
 * Pages of a counted view asked again across its page boundaries (repair.ts): which offsets, in
 * which order, and never one the view asked already.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_YIELD, REPAIR_DRY, repairDry, repairOffset } from './repair.ts';
import { nextOffset } from './noise.ts';
import { rng } from '../_maps/test-support.ts';
import { gauss } from '../../../test/support/map-layouts.ts';

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

/** Views of `n` places (prominence exponential, fresh gaussian noise of `sigma` each request, as the
 *  loopback site ranks), paged as noise.ts pages them, then up to `pages` asked again: places found
 *  again, and missing before. */
function repaired(rate: number, n: number, sigma: number, views: number, pages: number, stop = false): { found: number; missed: number; asked: number } {
  // The views and their first pages draw from one generator, the pages asked again from another:
  // both orders see the same views.
  const r = rng(7), again = rng(11);
  let found = 0, missed = 0, n0 = 0;
  for (let k = 0; k < views; k++) {
    const prom = Array.from({ length: n }, () => -Math.log(r() || 1e-12));
    const page = (o: number, g = r) => prom.map((p, i) => [i, p + sigma * gauss(g)] as const).sort((a, b) => b[1] - a[1]).slice(o, o + 20).map(([i]) => i);
    const seen = new Set<number>(), offs: number[] = [];
    for (let o = 0; ; o = nextOffset(sigma, o, 20)) {
      offs.push(o);
      const ids = page(o);
      for (const i of ids) seen.add(i);
      if (ids.length < 20) break;
    }
    missed += n - seen.size;
    const asked: number[] = [];
    for (let j = 0; j < pages && seen.size < n; j++) {
      const o = repairOffset(offs, asked, n, 20, rate, stop ? n - seen.size : 0);
      if (o === undefined) break;
      assert.ok(!offs.includes(o) && !asked.includes(o) && o >= 1 && o < n, `${o}: a new offset inside the count`);
      asked.push(o);
      n0++;
      const before = seen.size;
      for (const i of page(o, again)) seen.add(i);
      found += seen.size - before;
    }
  }
  return { found, missed, asked: n0 };
}

test('where ranks move a tenth of themselves, the page where the missing places most likely are finds more of them than the boundaries deepest first', () => {
  const byBoundary = repaired(0, 100, 0.1, 60, 3), likeliest = repaired(0.1, 100, 0.1, 60, 3);
  assert.equal(byBoundary.missed, likeliest.missed, 'the same views');
  assert.ok(likeliest.found > 1.1 * byBoundary.found && likeliest.asked <= byBoundary.asked, `${likeliest.found} found in ${likeliest.asked} pages where the boundaries' order found ${byBoundary.found} of ${byBoundary.missed} in ${byBoundary.asked}`);
  // Told how many are missing, a view stops where a page would find too few: more found a page.
  const stopped = repaired(0.1, 100, 0.1, 60, 3, true);
  assert.ok(stopped.asked < likeliest.asked && stopped.found / stopped.asked > 1.1 * (likeliest.found / likeliest.asked), `${stopped.found} found in ${stopped.asked} pages`);
});

test('a view stops where no page is expected to find MIN_YIELD of its missing places', () => {
  const pages = (rate: number, n: number) => {
    const offs = [0];
    while (offs[offs.length - 1]! + 20 < n) offs.push(nextOffset(rate, offs[offs.length - 1]!, 20));
    return offs;
  };
  // Ranks moving a tenth of themselves, a view of 110 missing one place: it could be at any of its
  // deep boundaries, and no page finds it with a chance of MIN_YIELD; missing two, a page finds one.
  assert.equal(MIN_YIELD, 0.5);
  assert.equal(repairOffset(pages(0.1, 110), [], 110, 20, 0.1, 1), undefined);
  assert.ok(repairOffset(pages(0.1, 110), [], 110, 20, 0.1, 2)! > 60, 'the deep ranks, where the misses are');
  // A view of 60 has few boundaries: its one missing place is likely enough on one page.
  assert.notEqual(repairOffset(pages(0.1, 60), [], 60, 20, 0.1, 1), undefined);
  // Told nothing of its misses (a view checking its cap), it asks whatever the chance.
  assert.notEqual(repairOffset(pages(0.1, 110), [], 110, 20, 0.1, 0), undefined);
});
