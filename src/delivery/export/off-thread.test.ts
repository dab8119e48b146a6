import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportFormats, readExportAsJson, type Row } from './index.ts';
import { writeExportOffThread } from './off-thread.ts';

// Three stored query results (JSON array texts); engine_id 'b' repeats across queries.
const texts = [
  JSON.stringify([{ engine_id: 'a', name: 'Café α', rating: 4.5, tags: ['x'] }, { engine_id: 'b', name: 'B', rating: 3 }]),
  JSON.stringify([{ engine_id: 'b', name: 'B again', rating: 3 }]),
  JSON.stringify([{ engine_id: 'c', name: 'C', rating: null, phone: '+30 21 0000 0000' }]),
];
async function* source(fail = false) {
  for (const t of texts) yield t;
  if (fail) throw new Error('store went away');
}
const read = async (format: (typeof exportFormats)[number], path: string) => { const out: Row[] = []; for await (const r of readExportAsJson(format, path)) out.push(r); return out; };

test('exports written on a worker thread equal the ones written here, in every format; dropDuplicates; errors come back', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-offthread-'));
  try {
    for (const format of exportFormats) {
      for (const dropDuplicates of [false, true]) {
        const here = await writeExportOffThread({ format, path: join(dir, `here.${format}`), dropDuplicates }, () => source(), 0);
        const there = await writeExportOffThread({ format, path: join(dir, `there.${format}`), dropDuplicates }, () => source(), 1);
        assert.equal(there.rows, dropDuplicates ? 3 : 4, `${format} rows`);
        assert.deepEqual(there, { ...here, bytes: there.bytes });
        assert.deepEqual(await read(format, join(dir, `there.${format}`)), await read(format, join(dir, `here.${format}`)), format);
        if (format !== 'xlsx') assert.equal(readFileSync(join(dir, `there.${format}`)).length, here.bytes, `${format} same size`);
      }
    }
    const cols = await writeExportOffThread({ format: 'csv', path: join(dir, 'cols.csv'), columns: ['name', 'phone'] }, () => source(), 1);
    assert.deepEqual(cols.columns, ['name', 'phone']);
    await assert.rejects(writeExportOffThread({ format: 'csv', path: join(dir, 'bad.csv') }, () => source(true), 1), /store went away/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
