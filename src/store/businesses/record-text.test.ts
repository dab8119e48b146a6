import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRecord, encodeRecord } from './record-text.ts';
import { SAMPLE } from './conformance.ts';

test('record text: a round trip keeps every field, fields outside the list too; object text still reads', () => {
  for (const r of SAMPLE) assert.deepEqual(decodeRecord(encodeRecord(r)), r);
  const extra = { ...SAMPLE[0], attributes: ['wifi'], working_hours: { Mo: '9-5' } };
  assert.deepEqual(decodeRecord(encodeRecord(extra)), extra);
  assert.ok(encodeRecord(SAMPLE[0]).length < JSON.stringify(SAMPLE[0]).length * 0.7);
  assert.deepEqual(decodeRecord(JSON.stringify(SAMPLE[1])), SAMPLE[1]);
  // Times are the store's columns, never kept in the text.
  assert.equal('added_timestamp' in decodeRecord(encodeRecord({ ...SAMPLE[2], added_timestamp: 5 })), false);
});
