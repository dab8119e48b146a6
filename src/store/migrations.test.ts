import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrationsIn } from './migrations.ts';

test('each backend\'s migrations have distinct versions, in order', () => {
  for (const backend of ['sqlite', 'postgres']) {
    const all = migrationsIn(new URL(`./${backend}/migrations/`, import.meta.url));
    assert.ok(all.length > 5);
    assert.deepEqual(all.map((m) => m.version), [...new Set(all.map((m) => m.version))].sort((a, b) => a - b), backend);
  }
});

test('two files of one version are refused by name (the second would never run)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mig-'));
  writeFileSync(join(dir, '011_a.sql'), 'SELECT 1;');
  writeFileSync(join(dir, '011_b.sql'), 'SELECT 2;');
  assert.throws(() => migrationsIn(pathToFileURL(`${dir}/`)), /011_a\.sql and 011_b\.sql share version 11/);
});
