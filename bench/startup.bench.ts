/**
 * Start-up of the command line (issues 15 and 27), every command, side by side, interleaved:
 *   - tsx:    `node --import tsx src/cli/main.ts`, the sources compiled on each call (what `npx trawl` ran before);
 *   - trawl:  `node bin/trawl.js`, what `npx trawl` runs now (checks the build is fresh, then starts it);
 *   - dist:   `node dist/cli/<build>/trawl.js`, the build itself (the floor);
 *   - npx:    `npx trawl`, npm's own start added on top (NPX=0 leaves it out).
 * A command is timed from spawn to its exit (`serve`: to its first /health 200, asked every 5 ms) on an
 * existing data directory (migrated, one account, a server running for the API client's commands).
 * REPS rounds (default 5); medians and the paired ratio trawl / dist (target <= 1.3).
 *
 * Run: npm run bench -- startup
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain JavaScript module without declarations
import { freshEntry } from '../bin/cli-build.js';
import { median, sleep, table, writeSection } from './lib.ts';

const REPS = Number(process.env.REPS ?? 5);
const NPX = process.env.NPX !== '0';

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

/** ms from spawn to exit; a non-zero exit fails the bench (a command that errors early is not a start). */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** ms from spawn to the first /health 200 of `serve`, then SIGTERM and wait for the exit. */
async function coldStart(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(cmd, [...args, 'serve'], { env: { ...env, PORT: String(port) }, stdio: 'ignore', detached: true });
  let exited = false;
  const gone = new Promise((r) => child.once('exit', () => { exited = true; r(null); }));
  try {
    for (;;) {
      if (exited) throw new Error(`${args.join(' ')} serve exited before answering`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) return performance.now() - t0;
      } catch { /* not listening yet */ }
      await sleep(5);
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM'); // npx's group: npm and the node it started
    await gone;
  }
}

async function main() {
  const dist = fileURLToPath(await freshEntry());
  const dir = mkdtempSync(join(tmpdir(), 'trawl-startup-'));
  const base = { ...process.env, DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRAWL_FROM_SOURCE: '' };
  const sides: Record<string, [string, string[]]> = {
    tsx: [process.execPath, ['--import', 'tsx', 'src/cli/main.ts']],
    trawl: [process.execPath, ['bin/trawl.js']],
    dist: [process.execPath, [dist]],
    ...(NPX ? { npx: ['npx', ['trawl']] } : {}),
  };
  const names = Object.keys(sides);
  const made = JSON.parse(spawnSync(process.execPath, [dist, 'accounts', 'create', '--name', 'bench', '--balance', '10'], { env: base, encoding: 'utf8' }).stdout);
  const port = await freePort();
  const server = spawn(process.execPath, [dist, 'serve'], { env: { ...base, PORT: String(port) }, stdio: 'ignore' });
  const client = { ...base, TRAWL_URL: `http://127.0.0.1:${port}`, TRAWL_API_KEY: made.api_key };
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${client.TRAWL_URL}/health`)).ok) break; } catch { /* starting */ }
    if (i > 2000) throw new Error('the API server did not start');
    await sleep(10);
  }
  const commands: Array<[string, string[], NodeJS.ProcessEnv]> = [
    ['--help', ['--help'], base],
    ['migrate', ['migrate'], base],
    ['accounts list', ['accounts', 'list'], base],
    ['accounts balance', ['accounts', 'balance', '--id', made.id], base],
    ['keys list', ['keys', 'list', '--account', made.id], base],
    ['prices set', ['prices', 'set', '--product', 'bench', '--price', '0.001'], base],
    ['businesses export', ['businesses', 'export', '--out', join(dir, 'b.json')], base],
    ['balance (API client)', ['balance'], client],
    ['requests (API client)', ['requests'], client],
    ['serve (to /health)', [], base],
  ];
  const ms: Record<string, Record<string, number[]>> = {};
  const loads: number[] = [];
  try {
    for (let i = 0; i < REPS; i++) {
      for (const [label, args, env] of commands) {
        ms[label] ??= Object.fromEntries(names.map((n) => [n, []]));
        for (const n of names) {
          const [cmd, pre] = sides[n];
          ms[label][n].push(label.startsWith('serve') ? await coldStart(cmd, pre, env) : timed(cmd, [...pre, ...args], env));
        }
      }
      loads.push(loadavg()[0]);
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (a: string, b: string, label: string) => median(ms[label][a].map((x, i) => x / ms[label][b][i])).toFixed(2);
  const rows = commands.map(([label]) => [
    `\`${label}\``, ...names.map((n) => median(ms[label][n]).toFixed(0)),
    `**${ratio('trawl', 'dist', label)}**`, ratio('tsx', 'dist', label), ...(NPX ? [ratio('npx', 'dist', label)] : []),
  ]);
  const md = table(['command', ...names.map((n) => `${n} median ms`), 'trawl / dist (target <= 1.3)', 'tsx / dist', ...(NPX ? ['npx / dist'] : [])], rows);
  const text = `# CLI start-up (issues 15, 27)

\`npm run bench -- startup\`: every command from spawn to exit (\`serve\`: to its first \`/health\` 200), ${REPS} interleaved
rounds; ratios are medians of the per-round ratios. Load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the run (2 cores, shared).
tsx = \`node --import tsx src/cli/main.ts\` (before), trawl = \`node bin/trawl.js\` (what \`npx trawl\` runs),
dist = \`node dist/cli/<build>/trawl.js\`${NPX ? ', npx = `npx trawl`' : ''}.

${md}

Raw ms: \`${JSON.stringify(Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([n, xs]) => [n, xs.map(Math.round)]))])))}\`
`;
  console.log(text);
  writeSection('docs/performance/startup-last-run.md', text);
}

await main();
