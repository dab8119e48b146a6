import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryAt } from './categories.ts';

const at = (q: string, i = 0) => categoryAt(q.split(' '), i);

test('the longest phrase wins, its last word read as singular', () => {
  assert.deepEqual(at('coffee shops in austin')?.words, 2);
  assert.equal(at('coffee shops in austin')?.label, 'coffee shop');
  assert.ok(at('coffee shops')!.types.includes('Cafe'), 'OSM spelling beside the map one');
  assert.ok(at('coffee shops')!.types.includes('Coffee shop'));
  assert.deepEqual(at('dentists near')?.types.slice(0, 1), ['Dentist']);
  assert.deepEqual(at('pharmacies')?.types[0], 'Pharmacy');
  assert.deepEqual(at('closed restaurants', 1)?.types, ['Restaurant', 'Diner']);
  assert.equal(at('gas stations')?.words, 2);
});

test('cuisines: <cuisine> restaurants find the map category and the OSM cuisine', () => {
  assert.deepEqual(at('italian restaurants')?.types, ['Italian restaurant', 'Italian cuisine']);
  assert.deepEqual(at('middle eastern food')?.types, ['Middle eastern restaurant', 'Middle eastern cuisine']);
});

test('words that are no category answer null', () => {
  assert.equal(at('with a website'), null);
  assert.equal(at('in'), null);
});
