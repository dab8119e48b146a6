import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonArray } from './json-parse.ts';
import { ExportError } from './errors.ts';

async function parse(chunks: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const v of parseJsonArray(chunks)) out.push(v);
  return out;
}

const SAMPLE = '\ufeff [\n{"a":"x]}\\",{[","b":[1,{"c":null}]} ,\n12.5e3,"s,t]",true,null,[],{"":"\\u00e9"}\n]\n';
const EXPECTED = [{ a: 'x]}",{[', b: [1, { c: null }] }, 12.5e3, 's,t]', true, null, [], { '': 'é' }];

test('splits a JSON array into its elements, brackets and quotes inside strings included', async () => {
  assert.deepEqual(await parse([SAMPLE]), EXPECTED);
});

test('gives the same elements whatever the chunk boundaries', async () => {
  for (let i = 0; i <= SAMPLE.length; i++) {
    assert.deepEqual(await parse([SAMPLE.slice(0, i), SAMPLE.slice(i)]), EXPECTED, `split at ${i}`);
  }
  assert.deepEqual(await parse([...SAMPLE]), EXPECTED);
});

test('empty arrays', async () => {
  assert.deepEqual(await parse(['[]']), []);
  assert.deepEqual(await parse([' [ \n ] ']), []);
});

test('anything that is not one complete JSON array is corrupt_file', async () => {
  for (const bad of ['', '{"a":1}', '[1,2', '[1,]', '[,1]', '[1 2]', '[1]x', '[{"a":}]', '[1,,2]', '["open]']) {
    await assert.rejects(parse([bad]), (e: unknown) => e instanceof ExportError && e.code === 'corrupt_file', JSON.stringify(bad));
  }
});
