/**
 * `npm start` runs the service with SERVE_V8_FLAGS, and they take effect: a process started with them
 * grows its young generation past V8's default cap (two 16 MB semi-spaces), as one without them does not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './build.ts';
import { SERVE_V8_FLAGS } from './serve-flags.ts';

test('npm start runs the bundle with the service V8 flags', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.start, ['node', ...SERVE_V8_FLAGS, 'dist/server/trawl.js', 'serve'].join(' '));
});

/** The largest the young generation grew (MB) in a process with `flags` that keeps the last 50,000 of
 *  its objects alive while it allocates (survivors make V8 grow the young generation to its cap). */
function youngGrown(flags: readonly string[]): number {
  const script = `const v8 = require('node:v8'); const keep = []; let max = 0;
for (let i = 0; i < 1.5e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 50000) keep.splice(0, 25000);
  if (i % 5000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size); }
console.log(max / 2 ** 20);`;
  const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

test('the service V8 flags grow the young generation past the default cap', () => {
  assert.ok(youngGrown([]) <= 32, 'the default caps two semi-spaces at 16 MB each');
  assert.ok(youngGrown(SERVE_V8_FLAGS) > 40, 'two semi-spaces of 32 MB grow past 40 MB');
});
