/**
 * The registry against the contract: every served endpoint is declared, and every source's samples
 * (real captures under FIXTURES_DIR, or its constructed samples) parse into records that pass the
 * endpoint's declared record schema. It iterates SOURCES, so a new source is covered by adding its row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Type } from '@sinclair/typebox';
import { endpointFor } from '../contract/endpoints/index.ts';
import type { WebAdapter } from './_kit/adapter.ts';
import { checkSample } from './_kit/samples.ts';
import { defineSource, type SourceRow } from './_kit/source.ts';
import { SOURCES, registryOf } from './registry.ts';

test('every served endpoint is declared in the contract, once, under its own path', () => {
  const seen = new Set<string>();
  for (const row of SOURCES) {
    const decl = endpointFor(row.endpoint);
    assert.ok(decl, `${row.endpoint} is served but not declared in src/contract/endpoints`);
    assert.equal(decl.path, row.endpoint, `${row.endpoint} is an alias: serve the declared path ${decl.path}`);
    assert.ok(!seen.has(row.endpoint), `${row.endpoint} has two rows`);
    seen.add(row.endpoint);
  }
});

test('every source with a capture parser names at least one sample', () => {
  const without = SOURCES.filter((r) => r.capture && !r.samples?.length).map((r) => r.endpoint);
  assert.deepEqual(without, [], 'add samples: [...] to these rows');
});

test('every adapter loads and serves the endpoint of its row', async () => {
  for (const row of SOURCES) {
    const a = await row.adapter();
    assert.equal(a.endpoint, row.endpoint);
  }
});

for (const row of SOURCES) {
  const decl = endpointFor(row.endpoint);
  for (const s of row.samples ?? []) {
    test(`${row.endpoint}: ${s.file} passes the declared record schema`, async (t) => {
      assert.ok(decl, `${row.endpoint} is not declared`);
      const r = await checkSample(row, s, decl.record);
      if ('skip' in r) return t.skip(r.skip);
      assert.deepEqual(r.problems, [], `${r.problems.length} problem(s) in ${r.records} records`);
    });
  }
}

test('a test source built in its own folder is served by its own registry and checked the same way', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-test-source-'));
  try {
    // The whole source: one folder with a sample, a parser and a row. Nothing else is touched.
    writeFileSync(join(dir, 'constructed-ok.json'), JSON.stringify([{ query: 'q', n: 1 }]));
    writeFileSync(join(dir, 'constructed-drift.json'), JSON.stringify([{ query: 'q', n: 'one' }]));
    const adapter: WebAdapter = { kind: 'web', endpoint: '/test-source', plan: () => [], parse: () => ({ records: [] }) };
    const row: SourceRow = defineSource({
      endpoint: '/test-source',
      adapter: async () => adapter,
      capture: { kinds: ['a JSON array'], parse: async () => (text: string) => JSON.parse(text) as unknown[] },
      verifiedBy: 'constructed samples',
      folder: pathToFileURL(`${dir}/index.ts`).href,
      samples: [{ file: 'constructed-ok.json' }, { file: 'constructed-drift.json' }, { file: 'absent.json', fixture: true }],
    });
    const reg = registryOf([...SOURCES, row]);
    assert.equal(await reg.load('/test-source'), adapter);
    assert.ok(reg.endpoints().includes('/test-source'));
    assert.equal(await registryOf(SOURCES).load('/test-source'), undefined, 'the served table is untouched');

    const schema = Type.Object({ query: Type.String(), n: Type.Integer() });
    assert.deepEqual(await checkSample(row, row.samples![0], schema), { records: 1, problems: [] });
    const drift = await checkSample(row, row.samples![1], schema);
    assert.ok('problems' in drift && drift.problems.some((p) => p.startsWith('record 0 /n:')), JSON.stringify(drift));
    assert.ok('skip' in (await checkSample(row, row.samples![2], schema)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two rows for one endpoint are refused; a row endpoint must be a path', () => {
  const row = defineSource({ endpoint: '/dup', adapter: async () => ({}) as WebAdapter, verifiedBy: 'constructed samples' });
  assert.throws(() => registryOf([row, row]), /two sources serve \/dup/);
  assert.throws(() => defineSource({ endpoint: 'dup', adapter: row.adapter, verifiedBy: 'x' }), /must start with \//);
});
