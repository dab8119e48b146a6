import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCRATCH_BYTES, utf8Of } from './utf8.ts';

const texts: Record<string, string> = {
  empty: '',
  ascii: '[{"name":"Blue Bottle","rating":4.5}]',
  'two, three and four bytes': JSON.stringify([{ name: 'Café — Αθήνα 東京 ☕ 🍩', note: 'ü'.repeat(500) }]),
  'lone surrogates': `["\ud800","x\udc00y","end\ud83d"]`,
  'fills the scratch memory exactly': 'a'.repeat(SCRATCH_BYTES),
  'more bytes than the scratch memory, fewer characters': '€'.repeat(Math.ceil(SCRATCH_BYTES / 3) + 10),
  'more characters than the scratch memory': 'b'.repeat(SCRATCH_BYTES + 1),
};

test('utf8Of: the same bytes as Buffer.from, whatever the text', () => {
  for (const [name, text] of Object.entries(texts)) assert.ok(utf8Of(text).equals(Buffer.from(text)), name);
});

test('utf8Of: each call\'s bytes are its own (the scratch memory is copied out, not lent)', () => {
  const first = JSON.stringify([{ name: 'Café first' }]);
  const a = utf8Of(first);
  const b = utf8Of(JSON.stringify([{ name: 'Thé second, longer' }]));
  assert.equal(a.toString('utf8'), first, 'the next call did not overwrite the first bytes');
  assert.equal(a.length, Buffer.byteLength(first), 'exactly the text\'s bytes');
});
