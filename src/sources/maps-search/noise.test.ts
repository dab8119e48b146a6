/**
 * What the planner pays for ranking noise (noise.ts): how far ranks move, learned from the views'
 * misses; the overlap that grows with a page's depth; the smaller views; and how much it leaves
 * missing rather than ask pages again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asksAgain, COVER_REPAIRED, expectedMisses, expectedUnseen, learnNoise, leftTolerated, meanStep, MISS_TOLERATED, missesAt, nextOffset, noiseRate, overlapAt, RATE_REPAIRED, RECALL_PROMISED, recallBound, skipShare, type NoiseFit } from './noise.ts';
import { rng } from '../_maps/test-support.ts';

/** A view of `n` places ranked by a fixed prominence (exponential, like the loopback site's) plus
 *  noise `sigma` drawn anew for every page, paged as the planner pages it with ranks moving `rate`:
 *  its pages' offsets and the places none of them showed. */
function pageView(n: number, sigma: number, rate: number, r: () => number): { offs: number[]; missed: number } {
  const p = Array.from({ length: n }, () => -Math.log(r() || 1e-12));
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const seen = new Set<number>(), offs: number[] = [];
  for (let o = 0; ; o = nextOffset(rate, o, 20)) {
    offs.push(o);
    const ranked = p.map((x, i) => [i, x + sigma * gauss()] as const).sort((a, b) => b[1] - a[1]);
    const page = ranked.slice(o, o + 20);
    for (const [i] of page) seen.add(i);
    if (page.length < 20) break;
  }
  return { offs, missed: n - seen.size };
}

test('a boundary misses more the further ranks move there and less the more pages overlap', () => {
  assert.equal(missesAt(0, 2), 0);
  assert.ok(missesAt(10, 2) > missesAt(2, 2));
  assert.ok(missesAt(10, 10) < missesAt(10, 2) / 2);
  // No overlap: the places within about a standard deviation of the boundary, one in 1.8 of them.
  assert.ok(Math.abs(missesAt(10, 0) - 10 / Math.sqrt(Math.PI)) < 1e-6);
  // The last page's end holds no place below it: no miss there.
  assert.equal(expectedMisses(0.1, [0, 18], 20, 30), missesAt(2, 2));
  assert.equal(expectedMisses(0.1, [0, 18, 36], 20, 38), missesAt(2, 2));
});

test('how far ranks move is learned from the misses of views paged on a noisy ranking', () => {
  const rates: number[] = [];
  for (const sigma of [0.05, 0.1, 0.2]) {
    const r = rng(7);
    let fit: NoiseFit | undefined;
    for (let k = 0; k < 40; k++) {
      const n = 30 + Math.floor(r() * 90);
      const { offs, missed } = pageView(n, sigma, noiseRate(fit), r);
      fit = learnNoise(fit, offs, 20, n, missed);
    }
    // Deeper ranks move more: a place ranked k moves about sigma x k on this site (read lower where
    // the views' overlap reaches half a page and its deepest boundaries are the view's last).
    const rate = noiseRate(fit);
    assert.ok(rate > 0.5 * sigma && rate < 1.5 * sigma, `σ ${sigma}: rate ${rate}`);
    rates.push(rate);
  }
  assert.ok(rates[0]! < rates[1]! && rates[1]! < rates[2]!, rates.join());
  assert.equal(noiseRate(undefined), 0);
  assert.equal(noiseRate(learnNoise(undefined, [0, 18, 36], 20, 50, 0)), 0, 'no miss, no noise');
});

test('deep views read the rate as shallow ones do: a place one boundary missed and the next page showed is not missed', () => {
  // Views of 100-120 places, paged as the planner pages them where ranks move as far as they do.
  for (const sigma of [0.1, 0.2]) {
    const r = rng(5);
    let fit: NoiseFit | undefined, seen = 0, exact = 0, apart = 0;
    for (let k = 0; k < 60; k++) {
      const n = 100 + Math.floor(r() * 21);
      const { offs, missed } = pageView(n, sigma, sigma, r);
      fit = learnNoise(fit, offs, 20, n, missed);
      seen += missed;
      exact += expectedUnseen(sigma, offs, 20, n);
      apart += expectedMisses(sigma, offs, 20, n);
    }
    // The boundaries taken apart expect twice the misses or more; each rank's chance, within a third.
    assert.ok(apart > 2 * seen && Math.abs(exact / seen - 1) < 1 / 3, `σ ${sigma}: ${seen} missed, ${exact.toFixed(1)} expected (${apart.toFixed(1)} by the boundaries)`);
    const rate = noiseRate(fit);
    assert.ok(rate > 0.8 * sigma && rate < 1.25 * sigma, `σ ${sigma}: rate ${rate}`);
  }
  assert.equal(expectedUnseen(0, [0, 18, 36], 20, 50), 0);
});

test('where pages are asked again for what the overlap missed, the overlap is wider (1.72 x rate x rank; above, 1.5 x RATE_REPAIRED x rank)', () => {
  // Up to RATE_REPAIRED a place missed costs a page asked again, so the overlap pays more.
  assert.equal(overlapAt(0.1, 60, 20), 10);
  assert.equal(overlapAt(RATE_REPAIRED, 30, 20), 6);
  // 1.72 x 0.05 x 100 = 8.6 (1.65 would give 8).
  assert.equal(overlapAt(0.05, 100, 20), 9);
  // Above it the misses are left (counted): the overlap is what it is just above the threshold,
  // 1.5 x 0.12 x rank, and no longer grows with the rate (1.5 x 0.2 x 30 gave 9).
  assert.equal(overlapAt(0.2, 30, 20), 5);
  assert.equal(overlapAt(0.15, 40, 20), 7);
  for (const rate of [0.13, 0.2, 0.3, 0.45]) assert.equal(overlapAt(rate, 40, 20), 7, `rate ${rate}`);
  assert.equal(overlapAt(0.3, 80, 20), 10);
});

test('pages overlap by two where ranks barely move, more the deeper the page, at most half a page', () => {
  assert.equal(overlapAt(0, 100, 20), 2);
  assert.equal(overlapAt(0.02, 40, 20), 2);
  assert.equal(overlapAt(0.1, 20, 20), 3);
  assert.equal(overlapAt(0.1, 40, 20), 7);
  assert.equal(overlapAt(0.1, 100, 20), 10);
  assert.equal(overlapAt(0.3, 100, 10), 5);
  assert.equal(nextOffset(0, 0, 20), 18);
  assert.equal(nextOffset(0.1, 17, 20), 31);
  // The split decision's step: a view's pages to 120 places, on average.
  assert.equal(meanStep(0, 20, 120), 18);
  assert.ok(meanStep(0.1, 20, 120) < 13 && meanStep(0.1, 20, 120) > 10);
  // Overlap grown where the misses are pays: on a ranking of σ 0.1, views of 60-110 places paged
  // with it miss under half of what a fixed overlap of two misses.
  const r = rng(3);
  let fixed = 0, grown = 0;
  for (let k = 0; k < 30; k++) {
    const n = 60 + 10 * (k % 6);
    fixed += pageView(n, 0.1, 0, r).missed;
    grown += pageView(n, 0.1, 0.1, r).missed;
  }
  assert.ok(grown < fixed / 2, `${grown} of ${fixed}`);
});

test('views shrink where ranks move, to where the deepest overlap is half a page, to half the cap; not above the repair threshold', () => {
  assert.equal(skipShare(110 / 120, 0, 120, 20), 110 / 120);
  assert.equal(skipShare(110 / 120, 0.05, 120, 20), 110 / 120);
  const s = skipShare(110 / 120, 0.1, 120, 20);
  assert.ok(Math.abs(s * 120 - 10 / 0.15) < 1e-9, String(s * 120));
  assert.equal(skipShare(110 / 120, RATE_REPAIRED, 120, 20), 0.5);
  // Above RATE_REPAIRED no page is asked again for a miss and the overlap stops growing: a smaller
  // view would buy recall only (session 25; half the cap before).
  assert.equal(skipShare(110 / 120, 0.13, 120, 20), 110 / 120);
  assert.equal(skipShare(110 / 120, 0.3, 120, 20), 110 / 120);
});

test('pages are asked again while a lower bound of the recall is short of 0.99 while ranks move up to 12%; above it, less and less, then not at all', () => {
  const run = { seen: 97, found: 9900, estimated: 9940, left: 0 };
  assert.equal(asksAgain(0.1, 0, { ...run, estimated: 20_000 }), false, 'nothing missed: nothing to ask');
  // With this view: 9,997 of 10,040 (a figure of 0.9957, the bound 0.9944), of 10,060 (0.9937,
  // 0.9922: a fixed figure of 0.995 asked here), of 10,090 (0.9908, 0.9889).
  assert.equal(asksAgain(0.1, 3, run), false);
  assert.equal(asksAgain(0.1, 3, { ...run, estimated: 9960 }), false);
  assert.equal(asksAgain(0.1, 3, { ...run, estimated: 9990 }), true);
  assert.ok(recallBound(9997, 10_060) >= RECALL_PROMISED && recallBound(9997, 10_090) < RECALL_PROMISED);
  // The bound is the figure less two standard errors of its misses (their square root).
  assert.ok(Math.abs(recallBound(9900, 10_000) - (9900 - 20) / 10_000) < 1e-12);
  assert.equal(recallBound(0, 0), 1);
  // The same figure (0.993) is sure enough on a run of 10,000 places, not on one of 1,000.
  assert.equal(asksAgain(0.05, 3, { seen: 97, found: 9830, estimated: 9900, left: 0 }), false);
  assert.equal(asksAgain(0.05, 3, { seen: 97, found: 896, estimated: 900, left: 0 }), true);
  // A small run stops at a figure of 0.995 (where the bound would ask more): a small town's first
  // view, one of 90 missed, is below 0.995 but not a place short of it.
  assert.ok(89 / 90 < COVER_REPAIRED && recallBound(89, 90) < RECALL_PROMISED);
  assert.equal(asksAgain(0.02, 1, { seen: 89, found: 0, estimated: 0, left: 0 }), false);
  assert.equal(asksAgain(0.02, 2, { seen: 88, found: 0, estimated: 0, left: 0 }), true);
  // Above the rate, the share still missing decides, and more is tolerated the more ranks move.
  assert.equal(leftTolerated(RATE_REPAIRED), MISS_TOLERATED);
  assert.equal(asksAgain(0.125, 3, { ...run, estimated: 20_000, left: 0.02 }), true);
  assert.equal(asksAgain(0.2, 3, { ...run, estimated: 20_000, left: 0.02 }), false);
  // From about 13%, more is tolerated than views paged with the grown overlap miss (1.5-3% at σ 0.2-0.3).
  for (const rate of [0.135, 0.2, 0.3]) assert.ok(leftTolerated(rate) >= 0.03, String(rate));
});

test('the coverage figure says why where the misses were counted rather than asked for again', async () => {
  const { coverageOf } = await import('./cover.ts');
  const tally = { views: 40, skipped: 0, saturated: 0, deep: 0, requests: 120, found: 970, estimated: 1000 };
  assert.equal(coverageOf(tally, undefined, 0.01, 0.1).coverage_reason, undefined, 'asked again up to 12%: nothing to explain');
  const noisy = coverageOf(tally, undefined, 0.031, 0.2);
  assert.equal(noisy.coverage, 0.97);
  assert.match(noisy.coverage_reason ?? '', /moved a place about 20% of its rank between requests and kept about 3\.1% of a view's places off all of its pages; where ranks move more than 12% such pages are not asked again/);
});
