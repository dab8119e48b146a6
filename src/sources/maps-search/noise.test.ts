/**
 * What the planner pays for ranking noise (noise.ts): the overlap, the smaller views, and how much
 * it leaves missing rather than ask pages again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leftTolerated, MISS_REPAIRED, MISS_TOLERATED, pageStep, skipShare } from './noise.ts';

test('the overlap grows with the share missed, to 10 places and at most half a page', () => {
  assert.equal(pageStep(0, 20), 18);
  assert.equal(pageStep(0.02, 20), 15);
  assert.equal(pageStep(0.2, 20), 10);
  assert.equal(pageStep(0.2, 10), 5);
});

test('views shrink with the share missed, to half the cap', () => {
  assert.equal(skipShare(110 / 120, 0), 110 / 120);
  assert.ok(skipShare(110 / 120, 0.01) < 110 / 120);
  assert.equal(skipShare(110 / 120, 0.1), 0.5);
});

test('pages are asked again to 0.5% left up to 2% missed; above it, less and less, then not at all', () => {
  assert.equal(leftTolerated(0), MISS_TOLERATED);
  assert.equal(leftTolerated(MISS_REPAIRED), MISS_TOLERATED);
  const a = leftTolerated(0.024), b = leftTolerated(0.026);
  assert.ok(a > MISS_TOLERATED && a < 0.024 && b > a, `${a} ${b}`);
  // From about 2.75% missed, the views' own misses are within what is tolerated: nothing is asked again.
  for (const m of [0.028, 0.04, 0.1]) assert.ok(leftTolerated(m) >= m, String(m));
});

test('the coverage figure says why where the misses were counted rather than asked for again', async () => {
  const { coverageOf } = await import('./cover.ts');
  const tally = { views: 40, skipped: 0, saturated: 0, deep: 0, requests: 120, found: 970, estimated: 1000 };
  assert.equal(coverageOf(tally, undefined, 0.01).coverage_reason, undefined, 'repaired below 2%: nothing to explain');
  const noisy = coverageOf(tally, undefined, 0.031);
  assert.equal(noisy.coverage, 0.97);
  assert.match(noisy.coverage_reason ?? '', /about 3\.1% of a view's places off all of its pages; above 2% such pages are not asked again/);
});
