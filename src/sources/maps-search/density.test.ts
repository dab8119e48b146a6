/**
 * The covering's density prior (density.ts): people in a box from the GeoNames places, and the
 * rates fitted to counted views.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addCount, areaKm2, emptyFit, expected, populationIn, populationReady, rates } from './density.ts';

const vegas = { s: 36.1, w: -115.25, n: 36.25, e: -115.05 };
const desert = { s: 38.5, w: -116.6, n: 38.65, e: -116.4 };

test('the population is read without blocking the event loop; no figure before it is read', async () => {
  assert.equal(populationIn(vegas), undefined);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  await populationReady();
  clearInterval(timer);
  assert.ok(ticks > 5, `the event loop turned ${ticks} times while it was read`);
  assert.ok(populationIn(vegas)! > 0);
});

test('people in a box: a city box holds far more than a desert box of the same size; halves add up', () => {
  const city = populationIn(vegas)!, empty = populationIn(desert)!;
  assert.ok(city > 200_000 && empty < city / 100, `${city} vs ${empty}`);
  const mid = (vegas.s + vegas.n) / 2;
  const halves = populationIn({ ...vegas, n: mid })! + populationIn({ ...vegas, s: mid })!;
  assert.ok(Math.abs(halves - city) < city * 1e-6);
  assert.ok(Math.abs(areaKm2(vegas) - 0.15 * 111.32 * 0.2 * 111.32 * Math.cos((36.175 * Math.PI) / 180)) < 0.01);
});

test('the fit recovers the rates behind counted views, and says nothing before enough views', () => {
  const f = emptyFit();
  const boxes = [vegas, desert, { s: 36, w: -115.3, n: 36.1, e: -115.1 }, { s: 39.4, w: -119.9, n: 39.6, e: -119.7 },
    { s: 37, w: -117, n: 37.3, e: -116.6 }, { s: 36.2, w: -115.1, n: 36.3, e: -114.9 }, { s: 40, w: -118, n: 40.2, e: -117.7 }];
  // 2 places a thousand people and 0.01 a km², as a phrase might have.
  const truth = (b: typeof vegas) => 2 * (populationIn(b)! / 1000) + 0.01 * areaKm2(b);
  boxes.slice(0, 5).forEach((b) => addCount(f, b, truth(b)));
  assert.equal(rates(f), undefined, 'five views are not enough');
  boxes.slice(5).forEach((b) => addCount(f, b, truth(b)));
  const [a, r] = rates(f)!;
  assert.ok(Math.abs(a - 2) < 0.01 && Math.abs(r - 0.01) < 0.001, `${a}, ${r}`);
  assert.ok(Math.abs(expected(f, vegas)! - truth(vegas)) < 1);
});
