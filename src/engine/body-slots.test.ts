import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodySlots, MAX_CHARS } from './body-slots.ts';

const read = (s: { buffer: SharedArrayBuffer; chars: number }) => Buffer.from(s.buffer, 0, s.chars * 2).toString('utf16le');

test('body slots: a text crosses exactly (non-Latin-1, lone surrogates), slots are reused, at most max lent', () => {
  const slots = new BodySlots(2);
  const text = `)]}'\n["Café ☕ 東京", "\ud800 lone", "😀"]`;
  const a = slots.lend(text)!;
  assert.equal(read(a), text);
  const b = slots.lend('x'.repeat(100_000))!;
  assert.equal(read(b), 'x'.repeat(100_000));
  assert.equal(slots.lend('y'), null, 'both slots are lent');
  slots.give(a);
  const c = slots.lend('short')!;
  assert.equal(c.buffer, a.buffer, 'the returned slot is reused');
  assert.equal(read(c), 'short');
  slots.give(b);
  // A longer text than a free slot holds gets a bigger one.
  const d = slots.lend('z'.repeat(200_000))!;
  assert.ok(d.buffer.byteLength >= 400_000);
  assert.equal(read(d), 'z'.repeat(200_000));
  assert.equal(slots.lend('q'.repeat(MAX_CHARS + 1)), null, 'too long: sent as a string');
});
