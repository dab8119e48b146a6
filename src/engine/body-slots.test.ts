import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodySlots, MAX_CHARS, readSlot, slotResponse } from './body-slots.ts';
import { undecoded } from '../fetch/lazy-body.ts';

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

test('slotResponse: fetched bytes stay bytes until read, then read as readSlot decodes them; code units are read at once', () => {
  const slots = new BodySlots(2);
  const bytes = Buffer.from(`)]}'\n["Café ☕"]`);
  const slot = slots.lendBytes({ bytes, contentType: 'application/json' })!;
  const res = slotResponse({ status: 200, url: 'https://x.test/' }, slot);
  assert.deepEqual(undecoded(res), { bytes: Buffer.from(slot.buffer, 0, bytes.length), contentType: 'application/json' });
  assert.equal(res.body, readSlot(slot));
  assert.equal(res.status, 200);
  const text = slots.lend('["x"]')!;
  const read2 = slotResponse({ status: 201 }, text);
  assert.equal(undecoded(read2), undefined);
  assert.deepEqual({ ...read2 }, { status: 201, body: '["x"]' });
});
