/**
 * A big query's records are encoded a slice a turn, into the same text JSON.stringify writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeRecords } from './encode-records.ts';

test('the same text as JSON.stringify, whatever the slice and the values', async () => {
  const odd: unknown[] = [{ a: 1, s: 'é"\\\n\u2028', n: null, u: undefined, d: new Date(0), nested: [1, undefined, () => 1] }, undefined, null, 3, 'x', [], {}, () => 1, Symbol('s'),
    { toJSON: () => 'own toJSON' }, Number.NaN];
  const many = Array.from({ length: 1_001 }, (_, i) => ({ i, name: `place ${i}`, tags: [i % 3, 'x'] }));
  for (const records of [[], [1], odd, many, [...odd, ...many, ...odd]]) {
    for (const slice of [1, 2, 7, 200, 5_000]) {
      const { json, utf8 } = await encodeRecords(records, slice);
      assert.equal(json, JSON.stringify(records), `slice ${slice}, ${records.length} records`);
      // The bytes, when given, are the text's: the stores write them and the answer sends them.
      if (utf8) assert.ok(utf8.equals(Buffer.from(JSON.stringify(records))), `bytes, slice ${slice}`);
      assert.equal(!!utf8, records.length > slice, 'bytes come with a text of more than one slice');
    }
  }
});

test('a turn between two slices: 1,000 records in slices of 100 let the event loop run at least 9 times', async () => {
  let turns = 0, on = true;
  const spin = () => { turns++; if (on) setImmediate(spin); };
  setImmediate(spin);
  const records = Array.from({ length: 1_000 }, (_, i) => ({ i }));
  const { json } = await encodeRecords(records, 100);
  on = false;
  assert.equal(json, JSON.stringify(records));
  assert.ok(turns >= 9, `${turns} turns`);
});
