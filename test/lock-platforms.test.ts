/**
 * `npm ci` on a fresh clone (README, docs/operations.md "One machine"): the committed lock lists every
 * platform-only optional package a dependency names, or npm refuses the lock as "out of sync" before
 * installing anything (a fresh clone failed so with wreq-js's five platform bindings missing).
 * `node scripts/lock-platforms.js` adds what an `npm install` on a registry without them leaves out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('the committed lock has an entry for every platform-only optional dependency', () => {
  const pk = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages as Record<string, { optionalDependencies?: Record<string, string> }>;
  const platform = /-(darwin|linux|win32|freebsd|android)-(arm64|x64|arm|ia32)(-gnu|-musl|-msvc)?$/;
  const missing: string[] = [];
  for (const [path, meta] of Object.entries(pk)) {
    for (const dep of Object.keys(meta.optionalDependencies ?? {})) {
      if (platform.test(dep) && !pk[`node_modules/${dep}`] && !pk[`${path}/node_modules/${dep}`]) missing.push(`${path || '(root)'} → ${dep}`);
    }
  }
  assert.deepEqual(missing, [], 'run node scripts/lock-platforms.js and commit package-lock.json');
});
