import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { openForSending } from './open-file.ts';

test('a file replaced by rename after it was opened still sends the bytes its size was read from', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-open-'));
  try {
    const path = join(dir, 't.csv');
    writeFileSync(path, 'a,b\r\n1,2\r\n');
    const f = await openForSending(path);
    assert.ok(f);
    // A retry writes the task's file again (a longer one) and renames it over the name.
    writeFileSync(join(dir, '.t.csv.tmp'), 'a,b\r\n1,2\r\n3,4\r\n5,6\r\n');
    renameSync(join(dir, '.t.csv.tmp'), path);
    const body = await text(f.stream);
    assert.equal(f.size, 10);
    assert.equal(body, 'a,b\r\n1,2\r\n', 'the size and the bytes are of one file');
    assert.equal(await openForSending(join(dir, 'gone.csv')), null);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('an empty file sends nothing, with size 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-open-'));
  try {
    writeFileSync(join(dir, 'e.json'), '');
    const f = await openForSending(join(dir, 'e.json'));
    assert.equal(f?.size, 0);
    assert.equal(await text(f!.stream), '');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
