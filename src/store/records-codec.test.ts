import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_BYTES, compressionFromEnv, recordsCodec, unpackRecords } from './records-codec.ts';

const big = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ name: `Café ${i} — Αθήνα`, address: '12 Example Street', rating: 4.5 })));

test('records codec: a large text is stored compressed and comes back identical (non-ASCII too)', () => {
  const v = recordsCodec(1).pack(big);
  assert.ok(Buffer.isBuffer(v));
  assert.ok(v.length * 4 < Buffer.byteLength(big), `${Buffer.byteLength(big)} → ${v.length} bytes`);
  assert.equal(unpackRecords(v), big);
  assert.equal(unpackRecords(new Uint8Array(v)), big);
});

test('records codec: short texts, stored text (older rows) and compression off stay text', () => {
  assert.equal(recordsCodec(1).pack('[]'), '[]');
  const short = JSON.stringify([{ a: 'x'.repeat(MIN_BYTES - 20) }]);
  assert.equal(recordsCodec(1).pack(short), short);
  assert.equal(recordsCodec(null).pack(big), big);
  assert.equal(unpackRecords(big), big);
});

test('RESULT_COMPRESSION: default 1, off, a quality, or a clear error', () => {
  assert.equal(compressionFromEnv(undefined), 1);
  assert.equal(compressionFromEnv('off'), null);
  assert.equal(compressionFromEnv('5'), 5);
  assert.throws(() => compressionFromEnv('12'), /RESULT_COMPRESSION/);
  assert.throws(() => compressionFromEnv('fast'), /RESULT_COMPRESSION/);
});

test('packed on the thread pool: the same value as packed here (a big result, issue 39)', async () => {
  const text = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, name: `Café ${i} – ⋅`, n: i * 7 })));
  for (const q of [null, 0, 1, 5]) {
    const codec = recordsCodec(q);
    const here = codec.pack(text, Buffer.from(text));
    const later = await codec.packOffThread(text, Buffer.from(text));
    assert.deepEqual(later, here, `quality ${q}`);
    assert.equal(unpackRecords(later), text);
  }
  assert.equal(await recordsCodec(1).packOffThread('[]', Buffer.from('[]')), '[]', 'a small text stays text');
});
