/**
 * Checks the files with readers we did not write: Python's csv module (an independent RFC 4180
 * parser) and Python's XML parser over every part of the xlsx zip (catches any character that
 * makes the workbook invalid XML, which Excel would refuse or "repair").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeExport } from './index.ts';
import { trickyRow } from './test-rows.ts';
import { tabularValue } from './values.ts';

const python = spawnSync('python3', ['-c', 'import csv, json, zipfile, xml.etree.ElementTree'], { encoding: 'utf8' });
const noPython = python.status !== 0 && 'python3 with its standard library is not available';

const dir = await mkdtemp(join(tmpdir(), 'trawl-export-interop-'));
test.after(() => rm(dir, { recursive: true, force: true }));

const rows = Array.from({ length: 300 }, (_, i) => trickyRow(i));
const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
/** The text a spreadsheet user sees in each cell. */
const expectedText = rows.map((r) => columns.map((c) => {
  const v = tabularValue(r[c]);
  return v === null ? '' : String(v);
}));

function py(script: string, file: string): unknown {
  const r = spawnSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('csv: Python csv reads the same header and cell texts', { skip: noPython }, async () => {
  const path = join(dir, 'interop.csv');
  // The raw cell texts are compared: formula escaping (on by default) would add its quote marks.
  await writeExport('csv', rows, path, { escapeFormulas: false });
  const got = py(
    `import csv, json, sys
with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:
    print(json.dumps(list(csv.reader(f, strict=True))))`,
    path,
  ) as string[][];
  assert.deepEqual(got[0], columns);
  assert.equal(got.length, rows.length + 1);
  for (let i = 0; i < rows.length; i++) assert.deepEqual(got[i + 1], expectedText[i], `row ${i}`);
});

test('xlsx: every XML part is well-formed and the cells hold the same texts', { skip: noPython }, async () => {
  const path = join(dir, 'interop.xlsx');
  await writeExport('xlsx', rows, path);
  const got = py(
    `import json, re, sys, zipfile, xml.etree.ElementTree as ET
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(sys.argv[1])
for name in z.namelist():
    if name.endswith('.xml') or name.endswith('.rels'):
        ET.fromstring(z.read(name))  # raises on malformed XML
unesc = lambda s: re.sub(r'_x([0-9A-Fa-f]{4})_', lambda m: chr(int(m.group(1), 16)), s)
def col(ref):
    n = 0
    for ch in re.match(r'[A-Z]+', ref).group(0): n = n * 26 + ord(ch) - 64
    return n - 1
out = []
for row in ET.fromstring(z.read('xl/worksheets/sheet1.xml')).iter('{%s}row' % ns['m']):
    cells = {}
    for c in row.findall('m:c', ns):
        v = c.find('m:v', ns)
        t = c.get('t')
        text = '' if v is None or v.text is None else v.text
        if t == 'b': text = 'true' if text == '1' else 'false'
        cells[col(c.get('r'))] = unesc(text)
    out.append(cells)
print(json.dumps(out))`,
    path,
  ) as Record<string, string>[];
  assert.equal(got.length, rows.length + 1);
  assert.deepEqual(columns.map((_, k) => got[0][k]), columns);
  for (let i = 0; i < rows.length; i++) {
    const texts = columns.map((_, k) => got[i + 1][k] ?? '');
    // Numbers: Excel stores the shortest round-trip text, which is what String(number) gives.
    assert.deepEqual(texts, expectedText[i], `row ${i}`);
  }
});
