import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor } from './cursor.ts';

test('a cursor round-trips and is URL-safe', () => {
  const state = { token: 'CAES+/==', page: 3, nested: { ü: [1, null] } };
  const c = encodeCursor(state);
  assert.match(c, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCursor(c), state);
});

test('garbage decodes to null, never throws', () => {
  for (const bad of ['', '%%%', 'not a cursor!', encodeCursor({}).slice(0, 1), Buffer.from('[1,2]').toString('base64url'), Buffer.from('"s"').toString('base64url'), Buffer.from('{bad').toString('base64url'), 42, null, 'A'.repeat(20000)]) {
    assert.equal(decodeCursor(bad), null, String(bad).slice(0, 20));
  }
});
