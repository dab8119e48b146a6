import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceAt, ratingAt, reviewsAt } from '../businesses/query/measures.ts';
import { rangeOf } from './business-query.ts';

const w = (s: string) => s.split(' ');

test('ratings in words become the expressions of the filter grammar', () => {
  const cases: [string, string, number][] = [
    ['rated 4.5+', '4.5+', 2], ['rated 4.5 or higher', '4.5+', 4], ['rated at least 4', '4+', 4], ['rated above 4', '>4', 3],
    ['rating over 3.5 stars', '>3.5', 4], ['rated below 3', '<3', 3], ['rated at most 2', '<=2', 4], ['rated between 3 and 4.5', '3-4.5', 5],
    ['rated 3 to 4', '3-4', 4], ['rated 3-4', '3-4', 2], ['rated 4', '4+', 2], ['rating of 4 stars and up', '4+', 6], ['4 stars and up', '4+', 4],
    ['4.5+ stars', '4.5+', 2], ['4 star', '4+', 2], ['highly rated', '4+', 2], ['top rated', '4.5+', 2], ['rated 4 or less', '<=4', 4],
  ];
  for (const [q, expr, words] of cases) {
    assert.deepEqual(ratingAt(w(q), 0), { words, expr }, q);
    assert.doesNotThrow(() => rangeOf('rating', expr), `${expr} is in the grammar`);
  }
  for (const q of ['4', 'stars', 'rated high', '4 reviews']) assert.equal(ratingAt(w(q), 0), null, q);
});

test('review counts need the word reviews', () => {
  const cases: [string, string, number][] = [
    ['100+ reviews', '100+', 2], ['at least 50 reviews', '50+', 4], ['more than 100 reviews', '>100', 4], ['fewer than 10 reviews', '<10', 4],
    ['between 10 and 50 reviews', '10-50', 5], ['100 reviews', '100+', 2], ['500 or more reviews', '500+', 4],
  ];
  for (const [q, expr, words] of cases) assert.deepEqual(reviewsAt(w(q), 0), { words, expr }, q);
  assert.equal(reviewsAt(w('100 stars'), 0), null);
  assert.equal(reviewsAt(w('100'), 0), null);
});

test('distances in metres; a bare number with a unit needs within or around', () => {
  assert.deepEqual(distanceAt(w('within 2 km'), 0), { words: 3, metres: 2000 });
  assert.deepEqual(distanceAt(w('within 500m'), 0), { words: 2, metres: 500 });
  assert.deepEqual(distanceAt(w('within 1.5 miles of'), 0), { words: 4, metres: 2414.016 });
  assert.deepEqual(distanceAt(w('within a mile'), 0), { words: 3, metres: 1609.344 });
  assert.deepEqual(distanceAt(w('3 km around'), 0), { words: 3, metres: 3000 });
  assert.equal(distanceAt(w('2 km'), 0), null);
  assert.equal(distanceAt(w('within reach'), 0), null);
});
