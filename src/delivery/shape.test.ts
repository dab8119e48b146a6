import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { QueryResult } from '../store/contract.ts';
import { dataChunks, reasonOf, type QueryError } from './shape.ts';

async function* parts(list: Partial<QueryResult>[]): AsyncGenerator<QueryResult> {
  for (const p of list) yield { queryIndex: 0, query: 'q', count: 0, error: null, recordsJson: '[]', ...p };
}

const text = async (it: AsyncIterable<string | Buffer>) => {
  const bytes: Buffer[] = [];
  for await (const c of it) bytes.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(bytes).toString('utf8');
};

test('a query stored in parts reads as one array; errors come with type and message', async () => {
  const list: Partial<QueryResult>[] = [
    { queryIndex: 0, recordsJson: '[{"a":1}]', more: true }, { queryIndex: 0, recordsJson: '[]', more: true }, { queryIndex: 0, recordsJson: '[{"a":2},{"a":3}]' },
    { queryIndex: 1, query: 'bad', recordsJson: '[]', error: 'network: ENOTFOUND x.example' },
    { queryIndex: 2, recordsJson: '[]', more: true }, { queryIndex: 2, recordsJson: '[]' },
    { queryIndex: 3, recordsJson: '[{"b":1}]' },
  ];
  const errors: QueryError[] = [];
  assert.deepEqual(JSON.parse(await text(dataChunks(parts(list), {}, errors))), [[{ a: 1 }, { a: 2 }, { a: 3 }], [], [], [{ b: 1 }]]);
  assert.deepEqual(errors, [{ query: 'bad', error: { type: 'network', message: 'ENOTFOUND x.example' } }]);
  assert.deepEqual(JSON.parse(await text(dataChunks(parts(list), { flat: true }))), [{ a: 1 }, { a: 2 }, { a: 3 }, { b: 1 }]);
  assert.deepEqual(JSON.parse(await text(dataChunks(parts(list), { fields: ['a'] }))), [[{ a: 1 }, { a: 2 }, { a: 3 }], [], [], [{}]]);
  assert.deepEqual(reasonOf('no type here'), { type: 'internal', message: 'no type here' });
});

test('a result with its UTF-8 bytes at hand is sent as those bytes, unless shaping rewrites it', async () => {
  const json = '[{"a":"καφές ☕"},{"a":2}]';
  const list: Partial<QueryResult>[] = [{ queryIndex: 0, recordsJson: '[{"a":0}]' }, { queryIndex: 1, recordsJson: json, recordsUtf8: Buffer.from(json) }];
  const chunks: (string | Buffer)[] = [];
  for await (const c of dataChunks(parts(list), {})) chunks.push(c);
  assert.ok(chunks.includes(list[1].recordsUtf8!), 'the bytes themselves, not encoded again');
  assert.equal(await text(dataChunks(parts(list), {})), `[[{"a":0}],${json}]`);
  assert.deepEqual(JSON.parse(await text(dataChunks(parts(list), { flat: true }))), [{ a: 0 }, { a: 'καφές ☕' }, { a: 2 }]);
  assert.deepEqual(JSON.parse(await text(dataChunks(parts(list), { fields: ['b'] }))), [[{}], [{}, {}]]);
});

test('slices: a big text (or its bytes) in pieces of at most a slice, never half a surrogate pair, the same bytes joined', async () => {
  const { slices } = await import('./shape.ts');
  const text = 'a𝄞'.repeat(1_000);
  for (const size of [1, 2, 3, 64, 5_000]) {
    const parts = [...slices(text, size)];
    assert.ok(parts.every((p) => p.length <= Math.max(size, 2)), `size ${size}`);
    assert.ok(Buffer.concat(parts.map((p) => Buffer.from(p))).equals(Buffer.from(text)), `same bytes, size ${size}`);
    const bytes = Buffer.from(text);
    assert.ok(Buffer.concat([...slices(bytes, size)] as Buffer[]).equals(bytes));
  }
});

test('recordSlices: cut between records only, whatever the strings hold, text or bytes', async () => {
  const { recordSlices } = await import('./shape.ts');
  const records = [1, { a: '[,]{"\\', b: [1, [2, { c: ',' }]] }, 'x,y', null, { 'k,"': 'é𝄞\\"' }, [], {}];
  const json = JSON.stringify(records);
  for (const v of [json, Buffer.from(json)]) {
    for (const size of [0, 1, 5, 20, 10_000]) {
      const got = [...recordSlices(v, size)];
      assert.deepEqual(got.flatMap((s) => JSON.parse(s)), records, `size ${size}`);
      if (size <= 1) assert.equal(got.length, records.length, 'one record a slice');
    }
  }
  assert.deepEqual([...recordSlices('[]', 1)], ['[]']);
});
