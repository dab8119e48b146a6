/**
 * Export then import: every task file format read back gives the same records (times included) in an
 * empty store; a re-run changes nothing; a file that is not our records fails naming the row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { business, SAMPLE } from '../store/businesses/conformance.ts';
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { exportRecords } from './records-export.ts';
import { importRecords, recordsFormatOf } from './records-import.ts';

const ROWS: BusinessRecord[] = [
  ...SAMPLE,
  business('q1', { name: 'Quote "and", comma\nnewline — ünïcode 🍕', postal_code: '01234', working_hours: { Monday: ['9 AM-5 PM'] }, types: [], area_service: false,
    street: '1 Rue X', county: 'Travis', domain: 'x.example', category: 'Pizza', place_id: '123456789012345678901' }),
];

async function all(s: Awaited<ReturnType<typeof openSqliteStore>>, accountId = 'a1') {
  return (await businessStoreOf(s).searchBusinesses({ accountId, limit: 1000 })).items.sort((a, b) => a.os_id.localeCompare(b.os_id));
}

test('export then import into an empty store gives the same records, in every format; a re-run changes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-biz-io-'));
  const src = await openSqliteStore(':memory:');
  try {
    await businessStoreOf(src).upsertBusinesses('a1', ROWS, 1_000_000);
    await businessStoreOf(src).upsertBusinesses('a1', [{ ...ROWS[1], rating: 4.1 }], 7_000_000);
    const want = await all(src);
    assert.equal(want.length, ROWS.length);
    const lines = join(dir, 'b.jsonl');
    writeFileSync(lines, want.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const files: string[] = [lines];
    for (const format of ['csv', 'json', 'xlsx', 'parquet'] as const) {
      const file = join(dir, `b.${format}`);
      const r = await exportRecords(src, { accountId: 'a1', limit: 1000 }, format, file);
      assert.equal(r.rows, ROWS.length, format);
      files.push(file);
    }
    for (const file of files) {
      const dst = await openSqliteStore(':memory:');
      try {
        const first = await importRecords(dst, file, { owner: 'a1', now: () => 9_000_000 });
        assert.deepEqual([first.rows, first.added, first.updated], [ROWS.length, ROWS.length, 0], file);
        assert.deepEqual(await all(dst), want, file);
        const again = await importRecords(dst, file, { owner: 'a1', now: () => 9_999_000 });
        assert.deepEqual([again.added, again.updated], [0, ROWS.length], file);
        assert.deepEqual(await all(dst), want, `${file} re-run`);
      } finally { await dst.close(); }
    }
    // The selection: only what the filters keep.
    const fr = join(dir, 'fr.csv');
    assert.equal((await exportRecords(src, { accountId: 'a1', countryCode: 'FR', limit: 1000 }, 'csv', fr)).rows, 2);
    assert.match(readFileSync(fr, 'utf8').split('\n')[0], /^\uFEFF?"?os_id"?,/);
  } finally {
    await src.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that is not our records fails naming the row and field; formats told by name or content', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-biz-bad-'));
  const s = await openSqliteStore(':memory:');
  const put = (name: string, text: string) => { const f = join(dir, name); writeFileSync(f, text); return f; };
  const fails = async (file: string, re: RegExp) => assert.rejects(importRecords(s, file, { owner: '' }), re);
  try {
    await fails(put('a.jsonl', '{"os_id":"bz_000000000000000000000001","name":"ok"}\n{not json\n'), /line 2: not JSON/);
    await fails(put('b.jsonl', '[1,2]\n'), /line 1: not a JSON object/);
    await fails(put('c.csv', 'name,city\nJoe,Austin\n'), /row 2: os_id is missing/);
    await fails(put('d.jsonl', '{"os_id":"12"}\n'), /line 1: os_id must be bz_/);
    await fails(put('e.jsonl', '{"place_id":"x","business_status":"open"}\n'), /line 1: business_status must be one of/);
    await fails(put('f.jsonl', '{"place_id":"x","latitude":"north"}\n'), /line 1: latitude must be a number/);
    await fails(put('g.txt', 'hello'), /not a file of business records/);
    await fails(put('h.json', 'hello'), /not a file of business records/);
    await fails(join(dir, 'missing.csv'), /cannot read/);
    await fails(put('i.xlsx', 'not a zip'), /xlsx/);
    assert.equal(await recordsFormatOf(put('j.dat', '[{"os_id":1}]')), 'json');
    assert.equal(await recordsFormatOf(put('k.json', '{"a":1}\n{"a":2}\n')), 'jsonl');
    assert.equal(await recordsFormatOf(put('l', '"os_id","name"\n')), 'csv');
    // A row derived from its place_id gets the os_id a scrape of that place gets.
    const ok = await importRecords(s, put('m.jsonl', '{"place_id":"ChIJx","name":"Derived","types":"[\\"Cafe\\"]"}\n'), { owner: '' });
    assert.equal(ok.added, 1);
    const got = (await businessStoreOf(s).searchBusinesses({ accountId: 'z', types: ['cafe'], limit: 5 })).items;
    assert.deepEqual(got.map((b) => [b.os_id, b.name, b.source]), [[business('ChIJx').os_id, 'Derived', 'import']]);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
