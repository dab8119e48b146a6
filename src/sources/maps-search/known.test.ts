/**
 * A cell's known first ranks (known.ts): where its pages start, past the places its searched
 * ancestor showed in it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { knownFrom, knownShare, type Sampled } from './known.ts';

const places = (n: number, probed = false): Sampled[] => Array.from({ length: n }, (_, i) => (probed ? [0, i, `p${i}`, 1] : [0, i, `h${i}`]) as Sampled);

test('pages start a page\'s overlap before the last known rank', () => {
  assert.equal(knownFrom(places(30), 20, 18, 0), 28);
  assert.equal(knownFrom(places(100), 20, 18, 0), 98);
  // A site of 10 a page, pages 8 apart.
  assert.equal(knownFrom(places(30), 10, 8, 0), 28);
});

test('too few known ranks to skip a page step: the first page is asked', () => {
  assert.equal(knownFrom(places(19), 20, 18, 0), undefined);
  assert.equal(knownFrom(places(20), 20, 18, 0), 18);
  assert.equal(knownFrom([], 20, 18, 0), undefined);
});

test('places a probe found are not the cell\'s top places', () => {
  assert.equal(knownFrom(places(30).concat(places(15, true)), 20, 18, 0), 28);
  assert.equal(knownFrom(places(15).concat(places(30, true)), 20, 18, 0), undefined);
});

test('where the pages miss places, fewer known ranks are skipped: the misses left stay under what the run tolerates', () => {
  assert.equal(knownShare(0.004), 1, 'a quiet ranking: all of them');
  assert.ok(knownShare(0.01) < 0.6 && knownShare(0.01) > 0.4, `${knownShare(0.01)}`);
  assert.ok((knownFrom(places(60), 20, 16, 0.01) ?? 0) < (knownFrom(places(60), 20, 16, 0) ?? 0));
  // Where ranks move so far that nothing is asked again any more (noise.ts), the share left missing
  // grows back.
  assert.ok(knownShare(0.04, 0.2) > knownShare(0.02, 0.1));
});
