/**
 * A US state's or county's shape reads the atlas, never the place index (resolve.ts): the index is
 * over a second to read, and a worker that plans a covering reads it on the API thread (measured:
 * the first `US>Nevada` covering of a fresh service held `/health` 2.2 s at load 4.5, 0.9 s without
 * it, docs/performance/areas.md). Its own file: a fresh process, nothing read before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeIndexLoaded, resolveArea } from './resolve.ts';

test('US state and county shapes do not read the place index; a city does', () => {
  assert.ok(resolveArea('US>Nevada').contains(36.17, -115.14));
  assert.ok(resolveArea('US>Nevada>Clark County').contains(36.17, -115.14));
  assert.equal(placeIndexLoaded(), false);
  assert.ok(resolveArea('FR>Paris').contains(48.85, 2.35));
  assert.equal(placeIndexLoaded(), true);
});
