import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, type CsvField } from './csv-parse.ts';
import { ExportError } from './errors.ts';
import { csvValue } from './read-export.ts';

async function parse(chunks: string[]): Promise<CsvField[][]> {
  const out: CsvField[][] = [];
  for await (const r of parseCsv(chunks)) out.push(r);
  return out;
}
const q = (text: string): CsvField => ({ text, quoted: true });
const b = (text: string): CsvField => ({ text, quoted: false });

const SAMPLE = '\ufeff"h1","h 2",h3\r\n"a ""quoted"", with comma",12,\r\n"multi\r\nline\nand\rmore","",true\nlast,"x"""\r';
const EXPECTED = [
  [q('h1'), q('h 2'), b('h3')],
  [q('a "quoted", with comma'), b('12'), b('')],
  [q('multi\r\nline\nand\rmore'), q(''), b('true')],
  [b('last'), q('x"')],
];

test('parses quoted fields, doubled quotes, embedded line ends, mixed CRLF/LF/CR, BOM', async () => {
  assert.deepEqual(await parse([SAMPLE]), EXPECTED);
});

test('gives the same records whatever the chunk boundaries (every split point, and 1-char chunks)', async () => {
  for (let i = 0; i <= SAMPLE.length; i++) {
    assert.deepEqual(await parse([SAMPLE.slice(0, i), SAMPLE.slice(i)]), EXPECTED, `split at ${i}`);
  }
  assert.deepEqual(await parse([...SAMPLE]), EXPECTED);
});

test('a final line end makes no empty record; an empty line is one empty field', async () => {
  assert.deepEqual(await parse(['a\r\n']), [[b('a')]]);
  assert.deepEqual(await parse(['a\n\nb']), [[b('a')], [b('')], [b('b')]]);
  assert.deepEqual(await parse(['']), []);
  assert.deepEqual(await parse(['\ufeff']), []);
  assert.deepEqual(await parse(['""']), [[q('')]]);
  assert.deepEqual(await parse(['a,']), [[b('a'), b('')]]);
});

test('lenient with stray quotes Excel can produce', async () => {
  assert.deepEqual(await parse(['ab"c,d\r\n']), [[b('ab"c'), b('d')]]);
  assert.deepEqual(await parse(['"ab"cd,e\r\n']), [[q('abcd'), b('e')]]);
});

test('an unterminated quoted field is corrupt_file naming its line', async () => {
  await assert.rejects(parse(['a\r\n"open\r\nstill open']), (e: unknown) => e instanceof ExportError && e.code === 'corrupt_file' && /line 2/.test(e.message));
});

test('csvValue types fields by the writer convention', () => {
  assert.equal(csvValue(b('')), null);
  assert.equal(csvValue(q('')), '');
  assert.equal(csvValue(b('true')), true);
  assert.equal(csvValue(q('true')), 'true');
  assert.equal(csvValue(b('-1.5e-7')), -1.5e-7);
  assert.equal(csvValue(q('00123')), '00123');
  assert.equal(csvValue(b('12abc')), '12abc');
  assert.deepEqual(csvValue(q('{"a":[1]}')), { a: [1] });
  assert.equal(csvValue(q('{broken')), '{broken');
});
