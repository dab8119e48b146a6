import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, str, num, int, bool, arr } from './positional.ts';
import { stripXssi, parseMaybeXssiJson } from './xssi.ts';

test('positional readers return null on any missing or mistyped step', () => {
  const v = [null, ['a', 2.5, [true]], 'x'];
  assert.equal(str(v, 1, 0), 'a');
  assert.equal(num(v, 1, 1), 2.5);
  assert.equal(int(v, 1, 1), 2);
  assert.equal(bool(v, 1, 2, 0), true);
  assert.deepEqual(arr(v, 1, 2), [true]);
  assert.equal(at(v, 0, 3), null);
  assert.equal(str(v, 1, 1), null);
  assert.equal(num(v, 2, 0), null);
  assert.equal(at(v, 9), null);
  assert.equal(at('not an array', 0), null);
});

test('xssi prefix is stripped only when present', () => {
  assert.equal(stripXssi(")]}'\n[1]"), '[1]');
  assert.equal(stripXssi('[1]'), '[1]');
  assert.deepEqual(parseMaybeXssiJson(")]}'\n{\"a\":1}"), { a: 1 });
  assert.equal(parseMaybeXssiJson('<html>'), undefined);
});
