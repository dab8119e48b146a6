/**
 * Cold start (issue 15): from spawning `trawl serve` to its first `/health` 200, on an existing data
 * directory (migrated, one account), side by side: the sources through the tsx loader (bin/trawl.js,
 * what `npm start` ran before the production build) and the bundle `npm start` runs now
 * (dist/server/trawl.js, built first here). Interleaved, REPS each (default 10), medians and the
 * paired ratio. /health is asked every 5 ms. Target: bundle <= 0.6 x tsx.
 *
 * Run: node bin/run-ts.js bench/startup.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../src/ops/build.ts';
import { median, sleep, table, writeSection } from './lib.ts';

const REPS = Number(process.env.REPS ?? 10);

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

/** ms from spawn to the first /health 200, then SIGTERM and wait for the exit. */
async function coldStart(entry: string, dataDir: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [entry, 'serve'], { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  let exited = false;
  const gone = new Promise((r) => child.once('exit', () => { exited = true; r(null); }));
  try {
    for (;;) {
      if (exited) throw new Error(`${entry} exited before answering`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) return performance.now() - t0;
      } catch { /* not listening yet */ }
      await sleep(5);
    }
  } finally {
    child.kill('SIGTERM');
    await gone;
  }
}

async function main() {
  const { entry } = await buildServer();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-startup-'));
  const sides = { tsx: 'bin/trawl.js', bundle: entry };
  const ms: Record<string, number[]> = { tsx: [], bundle: [] };
  const loads: number[] = [];
  try {
    await coldStart(sides.bundle, dir); // creates and migrates the store, the first account
    for (let i = 0; i < REPS; i++) {
      for (const k of ['tsx', 'bundle'] as const) ms[k].push(await coldStart(sides[k], dir));
      loads.push(loadavg()[0]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = median(ms.bundle.map((b, i) => b / ms.tsx[i]));
  const md = table(['start', 'median ms', 'min–max ms'], [
    ['tsx loader: node bin/trawl.js serve', median(ms.tsx).toFixed(0), `${Math.min(...ms.tsx).toFixed(0)}–${Math.max(...ms.tsx).toFixed(0)}`],
    ['bundle: node dist/server/trawl.js serve (npm start)', median(ms.bundle).toFixed(0), `${Math.min(...ms.bundle).toFixed(0)}–${Math.max(...ms.bundle).toFixed(0)}`],
    ['bundle / tsx (paired median; target <= 0.6)', ratio.toFixed(2), ''],
  ]);
  const text = `# Cold start (issue 15)

\`node bin/run-ts.js bench/startup.bench.ts\`: spawn to the first \`/health\` 200 on an existing data directory, ${REPS} interleaved
starts of each; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the run (2 cores).

${md}

Raw ms: \`${JSON.stringify({ tsx: ms.tsx.map(Math.round), bundle: ms.bundle.map(Math.round) })}\`
`;
  console.log(text);
  writeSection('docs/performance/startup-last-run.md', text);
}

await main();
