/**
 * The split decision's arithmetic (split.ts): the combined estimate and its spread, and the bet
 * between searching a cell and splitting it unsearched.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateOf, expectedPages, pagesOf, savedBelow, splitPays } from './split.ts';

const even = [0.25, 0.25, 0.25, 0.25];
const paging = { cap: 120, size: 20, step: 18, known: true };
/** 40 views scored: the prior erred little beyond the counts' spread, the views' estimate as claimed. */
const skill = [2, 4, 40, 4, 1.5];

test('the views\' estimate is surer the more sampled places it stands on', () => {
  const guess = estimateOf(skill, undefined, 100, 0)!, close = estimateOf(skill, undefined, 100, 20)!;
  assert.ok(close.v < guess.v / 5, `${close.v} vs ${guess.v}`);
  assert.ok(Math.abs(guess.m - close.m) < 1e-9);
});

test('two estimates are weighed by their precisions: a guess barely moves a good prior', () => {
  const e = estimateOf(skill, 50, 200, 0)!;
  const places = Math.exp(e.m) - 1;
  assert.ok(places > 50 && places < 80, `${places}`);
  // With 30 sampled places the views' estimate carries it.
  const f = estimateOf(skill, 50, 200, 30)!;
  assert.ok(Math.exp(f.m) - 1 > 100, `${Math.exp(f.m) - 1}`);
});

test('a lower bound only raises the estimate', () => {
  assert.ok(Math.exp(estimateOf(skill, 30, undefined, 0, 90)!.m) - 1 >= 90 - 1e-9);
  assert.equal(estimateOf(skill, 30, undefined, 0, 10)!.m, estimateOf(skill, 30, undefined, 0)!.m);
  assert.equal(estimateOf(skill, undefined, undefined, 0), undefined);
});

test('the same estimate is searched when sure and split when unsure', () => {
  const m = Math.log(81);
  assert.equal(splitPays({ m, v: 0.005 }, paging, even), false, 'a sure 80 of 120 fits');
  assert.equal(splitPays({ m, v: 1 }, paging, even), true, 'an unsure 80 may well be saturated');
  // Far above the cap, split whatever the spread; far below, search.
  assert.equal(splitPays({ m: Math.log(400), v: 0.005 }, paging, even), true);
  assert.equal(splitPays({ m: Math.log(10), v: 0.3 }, paging, even), false);
});

test('a split costs what its quadrants\' pages cost beyond the cell\'s own', () => {
  // At a cap of 140, four quadrants of 32 pay about what the cell of 130 pays: its risk splits it; at
  // 120, quadrants of 26 pay a page and a half more than the cell of 105, and the same risk does not.
  assert.equal(splitPays({ m: Math.log(131), v: 0.002 }, { ...paging, cap: 140 }, even), true);
  assert.equal(splitPays({ m: Math.log(106), v: 0.002 }, paging, even), false);
  // A cell of 40 split pays four first pages for about three: searched unless saturation is likely.
  assert.equal(splitPays({ m: Math.log(41), v: 0.2 }, paging, even), false);
  // Expected pages follow the pages a count costs away from a page boundary.
  assert.ok(Math.abs(expectedPages(100, 20, 18) - pagesOf(100, 20, 18)) < 0.5);
  assert.equal(expectedPages(0, 20, 18), 1);
});

test('each side of the bet pages from where it starts: past the ranks a searched ancestor showed', () => {
  // A cell of about 90 whose searched ancestor showed it 60 places pages from 58: searched and found
  // saturated it wastes 4 pages, not 7, and split, its quadrants (15 known each, under a page step)
  // page from 0. Priced from 0 it was split.
  const e = { m: Math.log(91), v: 0.1 };
  const known = { cell: 58, parts: [0, 0, 0, 0], show: 0 };
  assert.equal(splitPays(e, paging, even), true);
  assert.equal(splitPays(e, paging, even, known), false);
  assert.ok(expectedPages(90, 20, 18, 58) < expectedPages(90, 20, 18) - 2.5);
});

test('a saturated search near the cap saves each quadrant that fits the ranks it shows', () => {
  // 120 ranks shown, 30 in each quadrant: each starts at 28, a page past its first.
  assert.equal(savedBelow(130, 120, 20, 18, even, 1), 4);
  assert.equal(savedBelow(130, 120, 20, 18, even, 0), 0, 'none where the ranks shown are not skipped');
  assert.equal(savedBelow(1000, 120, 20, 18, even, 1), 0, 'quadrants saturated too save nothing here');
  assert.equal(savedBelow(130, 120, 20, 18, even, 1, [28, 28, 28, 28]), 0, 'nor where they start there anyway');
  // So a cell of about 100, unsure, is searched: saturated it costs 7 pages less the 4 its quadrants
  // skip. Priced at 7 it was split.
  const e = { m: Math.log(101), v: 0.05 };
  assert.equal(splitPays(e, paging, even), true);
  assert.equal(splitPays(e, paging, even, { cell: 0, parts: [0, 0, 0, 0], show: 1 }), false);
});
