#!/usr/bin/env node
// Test entry: type-check, then run every *.test.ts under src/ and test/ with node's own test runner.
// Node 20's runner has no glob support, so the file list is gathered here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  // The server and tests, then the dashboard (browser code: its own compiler settings, DOM types).
  for (const project of [[], ['-p', 'web/tsconfig.json']]) {
    const tc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', ...project], { stdio: 'inherit' });
    if (tc.status !== 0) process.exit(tc.status ?? 1);
  }
}
// A second reporter (TAP, to a file) keeps every skip's reason for the closing summary; the spec
// reporter's output, closing lines included, is unchanged.
const tapDir = mkdtempSync(join(tmpdir(), 'trawl-test-'));
const tap = join(tapDir, 'run.tap');
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files], {
  stdio: 'inherit',
  env: { ...process.env, FIXTURES_DIR: process.env.FIXTURES_DIR ?? '../shared/fixtures' },
});
try {
  const reasons = new Map();
  for (const line of readFileSync(tap, 'utf8').split('\n')) {
    const m = line.match(/^\s*ok \d+ - .*# SKIP\s*(.*)$/);
    if (m) reasons.set(m[1] || '(no reason given)', (reasons.get(m[1] || '(no reason given)') ?? 0) + 1);
  }
  const skipped = [...reasons.values()].reduce((a, b) => a + b, 0);
  if (skipped) {
    process.stdout.write(`\nsummary: ${skipped} tests skipped, by reason (README, "Running the whole suite", says how to enable them):\n`);
    for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${String(n).padStart(4)}  ${why}\n`);
  } else process.stdout.write('\nsummary: no test skipped\n');
} catch { /* no TAP file: the runner did not start; its own error says why */ }
rmSync(tapDir, { recursive: true, force: true });
process.exit(r.status ?? 1);
