import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { ExportError, exportFormats, readExportAsJson, writeExport, type ExportFormat, type Row } from './index.ts';
import { trickyRow } from './test-rows.ts';
import { tabularValue, toJsonText } from './values.ts';

const dir = await mkdtemp(join(tmpdir(), 'trawl-export-'));
test.after(() => rm(dir, { recursive: true, force: true }));

async function readAll(format: ExportFormat, path: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of readExportAsJson(format, path)) out.push(r);
  return out;
}

/** JSON text equality: checks key order too, and treats -0 as 0 like any JSON consumer. */
function sameJson(actual: unknown, expected: unknown, msg?: string) {
  assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)), msg);
}

/** What a tabular file (csv/xlsx/parquet) must give back for a row: every column, in order. */
function tabularExpect(row: Row, columns: string[]): Row {
  const out: Row = {};
  for (const c of columns) {
    const v = row[c];
    const cell = tabularValue(v);
    out[c] = v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.parse(toJsonText(v)) : cell;
  }
  return out;
}

function unionColumns(rows: Row[]): string[] {
  const seen: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!seen.includes(k)) seen.push(k);
  return seen;
}

const rows1000 = Array.from({ length: 1000 }, (_, i) => trickyRow(i));

for (const format of exportFormats) {
  test(`${format}: 1,000 tricky rows round-trip through writeExport/readExportAsJson`, async () => {
    const path = join(dir, `rt-1000.${format}`);
    const res = await writeExport(format, rows1000, path);
    const columns = unionColumns(rows1000);
    assert.equal(res.rows, 1000);
    assert.deepEqual(res.columns, columns);
    assert.equal(res.bytes, (await stat(path)).size);
    const back = await readAll(format, path);
    assert.equal(back.length, 1000);
    for (let i = 0; i < 1000; i++) {
      const want = format === 'json' ? JSON.parse(toJsonText(rows1000[i])) : tabularExpect(rows1000[i], columns);
      sameJson(back[i], want, `row ${i}`);
    }
  });

  test(`${format}: explicit columns give exactly those columns in that order`, async () => {
    const path = join(dir, `cols.${format}`);
    const columns = ['rating', 'name', 'working_hours.Monday', 'absent', 'id'];
    const rows = rows1000.slice(0, 50);
    const res = await writeExport(format, rows, path, { columns });
    assert.deepEqual(res.columns, columns);
    const back = await readAll(format, path);
    assert.equal(back.length, 50);
    for (let i = 0; i < 50; i++) {
      assert.deepEqual(Object.keys(back[i]), columns);
      const wh = rows[i].working_hours as Row | null;
      sameJson(back[i], {
        rating: rows[i].rating,
        name: rows[i].name,
        'working_hours.Monday': wh ? wh.Monday : null,
        absent: null,
        id: rows[i].id,
      });
    }
  });

  test(`${format}: zero rows still make a valid file`, async () => {
    const bare = join(dir, `empty.${format}`);
    const res = await writeExport(format, [], bare);
    assert.deepEqual(res, { rows: 0, columns: [], bytes: (await stat(bare)).size });
    assert.deepEqual(await readAll(format, bare), []);

    const withCols = join(dir, `empty-cols.${format}`);
    await writeExport(format, [], withCols, { columns: ['a', 'b'] });
    assert.deepEqual(await readAll(format, withCols), []);
  });

  test(`${format}: a one-shot generator works (spooled when two passes are needed) and leaves no temp files`, async () => {
    const sub = await mkdtemp(join(dir, `gen-${format}-`));
    function* gen() {
      for (let i = 0; i < 300; i++) yield trickyRow(i);
    }
    const res = await writeExport(format, gen(), join(sub, `out.${format}`));
    assert.equal(res.rows, 300);
    assert.deepEqual(res.columns, unionColumns(rows1000.slice(0, 300)));
    assert.deepEqual(await readdir(sub), [`out.${format}`]);
    const back = await readAll(format, join(sub, `out.${format}`));
    assert.equal(back.length, 300);
    sameJson(back[7], format === 'json' ? JSON.parse(toJsonText(trickyRow(7))) : tabularExpect(trickyRow(7), res.columns));
  });

  test(`${format}: a failing source leaves the previous file untouched and no temp file`, async () => {
    const sub = await mkdtemp(join(dir, `fail-${format}-`));
    const path = join(sub, `out.${format}`);
    await writeFile(path, 'previous');
    async function* failing() {
      for (let i = 0; i < 100; i++) yield trickyRow(i);
      throw new Error('source broke');
    }
    await assert.rejects(writeExport(format, failing, path), /source broke/);
    assert.equal(await readFile(path, 'utf8'), 'previous');
    assert.deepEqual(await readdir(sub), [`out.${format}`]);
  });
}

test('rows given as a function are read twice, not spooled', async () => {
  let calls = 0;
  const source = () => {
    calls++;
    return rows1000.slice(0, 10);
  };
  await writeExport('csv', source, join(dir, 'fn.csv'));
  assert.equal(calls, 2);
  calls = 0;
  await writeExport('csv', source, join(dir, 'fn2.csv'), { columns: ['id'] });
  assert.equal(calls, 1, 'with explicit columns csv needs one pass');
  calls = 0;
  await writeExport('json', source, join(dir, 'fn.json'));
  assert.equal(calls, 1);
});

test('csv: RFC 4180 bytes — BOM, quoted strings, bare numbers/booleans, empty null vs quoted empty, CRLF', async () => {
  const path = join(dir, 'bytes.csv');
  await writeExport('csv', [{ s: 'a,"b"', n: 1.5, b: false, z: null, e: '', nest: { k: 'v' } }], path);
  assert.equal(await readFile(path, 'utf8'), '\ufeff"s","n","b","z","e","nest"\r\n"a,""b""",1.5,false,,"","{""k"":""v""}"\r\n');
  await writeExport('csv', [{ s: 'x' }], path, { bom: false });
  assert.equal(await readFile(path, 'utf8'), '"s"\r\n"x"\r\n');
});

test('csv: formula-looking text is prefixed with a quote mark by default (OWASP), numbers and phones kept, and read back as it was', async () => {
  const path = join(dir, 'formulas.csv');
  const row = { a: '=HYPERLINK("x")', b: '+1 212', c: -5, d: 'ok', e: '@SUM(A1)', f: '-2+3', g: '\tx', h: '\r=1', i: "'=already", j: "it's" };
  await writeExport('csv', [row], path, { bom: false });
  assert.equal(await readFile(path, 'utf8'),
    '"a","b","c","d","e","f","g","h","i","j"\r\n"\'=HYPERLINK(""x"")","+1 212",-5,"ok","\'@SUM(A1)","\'-2+3","\'\tx","\'\r=1","\'\'=already","it\'s"\r\n');
  assert.deepEqual(await readAll('csv', path), [row]);
  // Phones and signed numbers are written as they are; anything with a letter, an operator past the
  // sign, a reference or a DDE bar is still escaped.
  const phones = { p1: '+14153127128', p2: '+1 (415) 312-7128', p3: '-12.5', p4: '+30 21 0123 4567', p5: '-', q1: '+1+cmd|\' /C calc\'!A0', q2: '-1+SUM(A1)', q3: '+A1', q4: '-2*3' };
  await writeExport('csv', [phones], path, { bom: false });
  const line = (await readFile(path, 'utf8')).split('\r\n')[1];
  assert.equal(line, '"+14153127128","+1 (415) 312-7128","-12.5","+30 21 0123 4567","\'-","\'+1+cmd|\' /C calc\'!A0","\'-1+SUM(A1)","\'+A1","\'-2*3"');
  assert.deepEqual(await readAll('csv', path), [phones]);
  // All on (escapeFormulas: true, task setting escape_formulas): numbers and phones too.
  await writeExport('csv', [row], path, { bom: false, escapeFormulas: true });
  assert.match(await readFile(path, 'utf8'), /"'\+1 212"/);
  assert.deepEqual(await readAll('csv', path), [row]);
  // Off on request; a value that would read back wrong is still marked, so reading stays exact.
  await writeExport('csv', [row], path, { bom: false, escapeFormulas: false });
  assert.match(await readFile(path, 'utf8'), /^"a".*\r\n"=HYPERLINK\(""x""\)","\+1 212",-5,"ok","@SUM/);
  assert.deepEqual(await readAll('csv', path), [row]);
  // Column names chosen by the user are escaped too.
  await writeExport('csv', [{ '=cmd': 1 }], path, { bom: false });
  assert.equal(await readFile(path, 'utf8'), '"\'=cmd"\r\n1\r\n');
  assert.deepEqual(await readAll('csv', path), [{ '=cmd': 1 }]);
});

test('a string whose whole text is a JSON array/object comes back parsed from csv/xlsx (documented)', async () => {
  for (const format of ['csv', 'xlsx'] as const) {
    const path = join(dir, `ambiguous.${format}`);
    await writeExport(format, [{ a: '[1,2]', b: '[closed]' }], path);
    assert.deepEqual(await readAll(format, path), [{ a: [1, 2], b: '[closed]' }]);
  }
});

test('xlsx: a sheet that fills up continues on the next, header repeated; reading joins them', async () => {
  const path = join(dir, 'sheets.xlsx');
  const rows = rows1000.slice(0, 25);
  await writeExport('xlsx', rows, path, { maxRowsPerSheet: 10, columns: ['id', 'name'] });
  const back = await readAll('xlsx', path);
  assert.deepEqual(back.map((r) => r.id), rows.map((r) => r.id));
  assert.deepEqual(back.map((r) => r.name), rows.map((r) => r.name));
});

test('xlsx: rows of only nulls survive (exceljs would drop a row without cells)', async () => {
  const path = join(dir, 'nulls.xlsx');
  await writeExport('xlsx', [{ a: null }, { a: 1 }, { a: null }], path);
  assert.deepEqual(await readAll('xlsx', path), [{ a: null }, { a: 1 }, { a: null }]);
});

test('parquet: rows are written in row groups of the given size, with typed columns', async () => {
  const path = join(dir, 'groups.parquet');
  await writeExport('parquet', rows1000, path, { rowGroupSize: 300 });
  const meta = await parquetMetadataAsync(await asyncBufferFromFile(path));
  assert.deepEqual(meta.row_groups.map((g) => Number(g.num_rows)), [300, 300, 300, 100]);
  const types = Object.fromEntries(meta.schema.slice(1).map((s) => [s.name, `${s.type}/${s.converted_type ?? ''}`]));
  assert.equal(types.id, 'INT64/');
  assert.equal(types.rating, 'DOUBLE/');
  assert.equal(types.verified, 'BOOLEAN/');
  assert.equal(types.name, 'BYTE_ARRAY/UTF8');
  assert.equal(types.updated, 'INT64/TIMESTAMP_MILLIS');
  assert.equal(types.tags, 'BYTE_ARRAY/JSON');
});

test('values: bigint, NaN, Infinity, undefined and invalid dates are written as the rules say', async () => {
  const row = { big: 2n ** 70n, small: 5n, nan: NaN, inf: -Infinity, u: undefined, bad: new Date('x') };
  const want = { big: '1180591620717411303424', small: 5, nan: null, inf: null, u: null, bad: null };
  for (const format of ['csv', 'xlsx', 'parquet'] as const) {
    const path = join(dir, `values.${format}`);
    await writeExport(format, [row], path);
    assert.deepEqual(await readAll(format, path), [want], format);
  }
  await writeExport('json', [row], join(dir, 'values.json'));
  assert.deepEqual(await readAll('json', join(dir, 'values.json')), [{ big: '1180591620717411303424', small: 5, nan: null, inf: null, bad: null }]);
});

test('bad input is a clear ExportError, and nothing is left behind', async () => {
  const sub = await mkdtemp(join(dir, 'bad-'));
  const isCode = (code: string) => (e: unknown) => e instanceof ExportError && e.code === code;
  await assert.rejects(writeExport('pdf' as ExportFormat, [], join(sub, 'x.pdf')), isCode('bad_format'));
  await assert.rejects(writeExport('csv', [{ a: 1 }, null as unknown as Row], join(sub, 'x.csv')), (e: unknown) => isCode('bad_input')(e) && /row 1 /.test((e as Error).message));
  await assert.rejects(writeExport('csv', [], join(sub, 'x.csv'), { columns: ['a', 'a'] }), isCode('bad_input'));
  await assert.rejects(writeExport('csv', 42 as unknown as Row[], join(sub, 'x.csv')), isCode('bad_input'));
  const cyclic: Row = { a: 1 };
  cyclic.self = cyclic;
  for (const format of exportFormats) {
    await assert.rejects(writeExport(format, [cyclic], join(sub, `c.${format}`)), isCode('bad_input'), format);
    // one-shot source: the spool meets the cycle first
    await assert.rejects(writeExport(format, [cyclic].values(), join(sub, `c.${format}`)), isCode('bad_input'), `${format} spooled`);
  }
  assert.deepEqual(await readdir(sub), []);
});

test('parquet: rows that change between the two passes are a clear error', async () => {
  let pass = 0;
  const source = () => {
    pass++;
    return [{ a: pass === 1 ? 1 : 'one' }];
  };
  await assert.rejects(writeExport('parquet', source, join(dir, 'changed.parquet')), (e: unknown) => e instanceof ExportError && /changed between passes/.test(e.message));
});

test('readExportAsJson: missing file is io, broken files are corrupt_file', async () => {
  const isCode = (code: string) => (e: unknown) => e instanceof ExportError && e.code === code;
  await assert.rejects(readAll('csv', join(dir, 'nope.csv')), isCode('io'));
  const broken: Record<ExportFormat, string> = {
    json: '[{"a":1},{"a":',
    csv: '"a"\r\n"unterminated\r\n',
    xlsx: 'PK\u0003\u0004 not really a zip',
    parquet: 'PAR1 not really parquet PAR1',
  };
  for (const format of exportFormats) {
    const path = join(dir, `broken.${format}`);
    await writeFile(path, broken[format]);
    await assert.rejects(readAll(format, path), isCode('corrupt_file'), format);
  }
  await writeFile(join(dir, 'wide.csv'), '"a"\r\n1,2\r\n');
  await assert.rejects(readAll('csv', join(dir, 'wide.csv')), isCode('corrupt_file'));
  await writeFile(join(dir, 'scalars.json'), '[1,2]');
  await assert.rejects(readAll('json', join(dir, 'scalars.json')), isCode('corrupt_file'));
});

test('jsonArrayStream turns readExportAsJson into the JSON array a convertFileResult reply sends', async () => {
  const { jsonArrayStream } = await import('./index.ts');
  const path = join(dir, 'reply.csv');
  const rows = rows1000.slice(0, 40);
  await writeExport('csv', rows, path);
  let text = '';
  for await (const chunk of jsonArrayStream(readExportAsJson('csv', path))) text += chunk;
  const columns = unionColumns(rows);
  sameJson(JSON.parse(text), rows.map((r) => tabularExpect(r, columns)));
  let empty = '';
  for await (const chunk of jsonArrayStream([])) empty += chunk;
  assert.equal(empty, '[]\n');
});
