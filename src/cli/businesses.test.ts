/**
 * `trawl businesses import|export` as an operator runs them: a JSON lines file in, a filtered CSV out,
 * that CSV into another deployment; a bad file or filter is a message on stderr and a non-zero exit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE } from '../store/businesses/conformance.ts';

const trawl = (args: string[], dataDir: string) => {
  const r = spawnSync(process.execPath, ['bin/trawl.js', 'businesses', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('trawl businesses import then export then import elsewhere; bad input exits non-zero with a message', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-cli-biz-'));
  try {
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    const lines = join(dir, 'in.jsonl');
    writeFileSync(lines, SAMPLE.map((r) => JSON.stringify(r)).join('\n'));
    const imported = trawl(['import', lines], a);
    assert.equal(imported.code, 0, imported.err);
    assert.deepEqual(((s) => [s.format, s.rows, s.added])(JSON.parse(imported.out)), ['jsonl', 5, 5]);
    const csv = join(dir, 'us.csv');
    const exported = trawl(['export', '--out', csv, '--filters', '{"country_code":"US"}', '--rating', '3.5+'], a);
    assert.equal(exported.code, 0, exported.err);
    assert.equal(JSON.parse(exported.out).rows, 2);
    // The phone survives as written by default; --escape-formulas all marks it, none marks nothing.
    assert.match(readFileSync(csv, 'utf8'), /,"\+1 512-555-0101",/);
    const all = join(dir, 'all.csv');
    assert.equal(trawl(['export', '--out', all, '--filters', '{"country_code":"US"}', '--escape-formulas', 'all'], a).code, 0);
    assert.match(readFileSync(all, 'utf8'), /,"'\+1 512-555-0101",/);
    assert.match(trawl(['export', '--out', all, '--escape-formulas', 'some'], a).err, /--escape-formulas must be all .* or none/);
    const again = trawl(['import', csv], b);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(((s) => [s.format, s.added])(JSON.parse(again.out)), ['csv', 2]);
    assert.equal(JSON.parse(trawl(['import', csv], b).out).added, 0, 're-run adds nothing');

    writeFileSync(join(dir, 'bad.jsonl'), '{"name":"no id"}\n');
    const bad = trawl(['import', join(dir, 'bad.jsonl')], b);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /line 1: os_id is missing/);
    const filter = trawl(['export', '--out', join(dir, 'x.csv'), '--rating', 'high'], b);
    assert.notEqual(filter.code, 0);
    assert.match(filter.err, /filters\.rating/);
    const format = trawl(['export', '--out', join(dir, 'x.txt')], b);
    assert.notEqual(format.code, 0);
    assert.match(format.err, /must be one of xlsx, csv, json, parquet/);
    assert.notEqual(trawl(['import', lines, '--account', 'nobody'], b).code, 0);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
