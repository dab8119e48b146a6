import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParamsCache } from './params-cache.ts';

test('a request\'s parameters are kept, frozen throughout, the least recently claimed dropped first', () => {
  const c = new ParamsCache(2);
  const p = c.put('r1', { known: { a: { place: { name: 'x' } } }, limit: 1 });
  assert.equal(c.get('r1'), p);
  assert.throws(() => { (p.known as { a: { place: { name: string } } }).a.place.name = 'y'; }, TypeError, 'one item cannot change what the next is given');
  c.put('r2', { limit: 2 });
  c.get('r1');
  c.put('r3', { limit: 3 });
  assert.equal(c.get('r2'), undefined, 'r2 was the least recently used');
  assert.deepEqual(c.get('r1'), { known: { a: { place: { name: 'x' } } }, limit: 1 });
  assert.deepEqual(c.get('r3'), { limit: 3 });
});
