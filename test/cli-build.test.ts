/**
 * `npx trawl` runs the command line from its build (bin/cli-build.js) only while the build matches
 * every source it was made from; otherwise it builds again first. A stale build must never run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
// @ts-expect-error plain JavaScript module without declarations
import { isFresh, readStamp } from '../bin/cli-build.js';

test('a build is fresh only while every input keeps its size and mtime', () => {
  const root = mkdtempSync(join(tmpdir(), 'trawl-fresh-'));
  try {
    writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
    const print = () => { const s = statSync(join(root, 'a.ts')); return { inputs: [['a.ts', s.size, s.mtimeMs]] }; };
    const stamp = print();
    assert.equal(isFresh(stamp, root), true);
    utimesSync(join(root, 'a.ts'), new Date(), new Date(Date.now() + 5_000));
    assert.equal(isFresh(stamp, root), false, 'a touched source');
    writeFileSync(join(root, 'a.ts'), 'export const a = 22;\n');
    assert.equal(isFresh(stamp, root), false, 'an edited source');
    const again = print();
    rmSync(join(root, 'a.ts'));
    assert.equal(isFresh(again, root), false, 'a deleted source');
    assert.equal(isFresh({ inputs: [] }, root), false, 'no inputs recorded');
    assert.equal(isFresh(undefined, root), false, 'no build');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('bin/trawl.js rebuilds a stale build instead of running it, then runs from the fresh build', { timeout: 180_000 }, () => {
  // Its own build folder inside the repository (packages resolve from node_modules there).
  const dist = join('dist', `test-cli-${process.pid}`);
  const run = () => spawnSync(process.execPath, ['bin/trawl.js', '--help'], { env: { ...process.env, TRAWL_BUILD_DIR: dist, TRAWL_FROM_SOURCE: '' }, encoding: 'utf8', timeout: 120_000 });
  try {
    // A build made from an older text of src/cli/main.ts (its recorded mtime differs from the file's).
    mkdirSync(join(dist, 'bstale'), { recursive: true });
    writeFileSync(join(dist, 'bstale', 'trawl.js'), "process.stdout.write('STALE BUILD RAN\\n');\n");
    const main = statSync('src/cli/main.ts');
    writeFileSync(join(dist, 'current.json'), JSON.stringify({ dir: 'bstale', inputs: [['src/cli/main.ts', main.size, main.mtimeMs - 1000]] }));
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stdout, /STALE BUILD RAN/);
    assert.match(first.stdout, /^usage: trawl serve/);
    const built = readStamp(dist);
    assert.notEqual(built.dir, 'bstale');
    assert.ok(built.inputs.some(([f]: [string]) => f === 'src/cli/main.ts') && built.inputs.length > 50, 'the build records the sources it bundled');

    // Fresh now: the next call starts from that build, not from the sources (its entry is swapped to prove it).
    const entry = join(dist, built.dir, 'trawl.js');
    const real = readFileSync(entry, 'utf8');
    writeFileSync(entry, "process.stdout.write('FROM THE BUILD\\n');\n");
    const second = run();
    assert.equal(second.stdout, 'FROM THE BUILD\n', second.stderr);
    assert.equal(readStamp(dist).dir, built.dir, 'no rebuild while fresh');
    writeFileSync(entry, real);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});
