/**
 * `npm run bench`: every benchmark in this folder, one after another, each in its own process (they
 * start servers and measure memory). Each prints its numbers; with `--write` it also rewrites its page
 * under docs/performance (off by default, so a run leaves the tree clean).
 * Run one: node bin/run-ts.js bench/<area>.bench.ts [--write].  Choose some: npm run bench -- api geo [--write]
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const write = process.argv.includes('--write');
const only = process.argv.slice(2).filter((a) => a !== '--write');
const files = readdirSync('bench').filter((f) => f.endsWith('.bench.ts')).filter((f) => !only.length || only.some((o) => f.includes(o))).sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f}\n`);
  const r = spawnSync(process.execPath, ['bin/run-ts.js', `bench/${f}`], { stdio: 'inherit', env: { ...process.env, FIXTURES_DIR: process.env.FIXTURES_DIR ?? '../shared/fixtures', ...(write ? { BENCH_WRITE: '1' } : {}) } });
  if (r.status !== 0) { failed++; process.stdout.write(`${f} failed with ${r.status}\n`); }
}
process.exit(failed ? 1 : 0);
