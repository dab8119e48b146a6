// Benches rewrite their pages under docs/performance only when asked (`--write`, issue 38): a run
// without it prints the page and leaves the tree as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeRequested, writeSection } from '../bench/lib.ts';

test('writeRequested: only --write or BENCH_WRITE=1', () => {
  assert.equal(writeRequested(['node', 'x.ts'], {}), false);
  assert.equal(writeRequested(['node', 'x.ts', '--write'], {}), true);
  assert.equal(writeRequested(['node', 'x.ts'], { BENCH_WRITE: '1' }), true);
  assert.equal(writeRequested(['node', 'x.ts'], { BENCH_WRITE: '0' }), false);
});

test('writeSection leaves the file alone unless asked', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-write-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'docs/performance/x.md');
  assert.equal(writeSection(file, '# X\n\n1 2 3', false), false);
  assert.equal(existsSync(file), false);
  assert.equal(writeSection(file, '# X\n\n1 2 3', true), true);
  assert.match(readFileSync(file, 'utf8'), /^# X\n\n1 2 3\n\n_Measured /);
});

test('npm run bench passes --write on to each bench, and only then', (t) => {
  // A scratch tree with one bench that reports whether it was asked to write (bench/run.ts runs from the cwd).
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'bench'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  symlinkSync(resolve('bin'), join(dir, 'bin'));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'bench/probe.bench.ts'), `import { writeSection } from '${resolve('bench/lib.ts')}';\nwriteSection('out.md', 'probe page');\n`);
  const run = (...args: string[]) => {
    const env = { ...process.env };
    delete env.BENCH_WRITE;
    return spawnSync(process.execPath, [resolve('bin/run-ts.js'), resolve('bench/run.ts'), ...args], { cwd: dir, env, encoding: 'utf8' });
  };
  const plain = run('probe');
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /probe page[\s\S]*not written to out\.md: add --write/);
  assert.equal(existsSync(join(dir, 'out.md')), false);
  const asked = run('probe', '--write');
  assert.equal(asked.status, 0, asked.stderr);
  assert.match(readFileSync(join(dir, 'out.md'), 'utf8'), /^probe page\n/);
});
