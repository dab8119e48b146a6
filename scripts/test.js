#!/usr/bin/env node
// Test entry: type-check, then run every *.test.ts under src/ and test/ with node's own test runner.
// Node 20's runner has no glob support, so the file list is gathered here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const filter = args.filter((a) => !a.startsWith('--'));
function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
let files = [...walk('src', []), ...walk('test', [])].sort();
if (filter.length) files = files.filter((f) => filter.some((x) => f.includes(x)));
if (!args.includes('--no-typecheck') && !filter.length) {
  const tc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit'], { stdio: 'inherit' });
  if (tc.status !== 0) process.exit(tc.status ?? 1);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, FIXTURES_DIR: process.env.FIXTURES_DIR ?? '../shared/fixtures' },
});
process.exit(r.status ?? 1);
