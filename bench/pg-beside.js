/**
 * PostgreSQL kept busy beside a benched server, so a SQLite arm runs on a box as loaded as a
 * PostgreSQL arm's (issue 37: how much of node's extra CPU on PostgreSQL is the neighbour, not node's
 * own work). Preloaded into an arm's server (`"nodeArgs":["--import","./bench/pg-beside.js"]`), it
 * starts itself as a separate process (its CPU is not the server's), which runs short statements from
 * 16 clients, paced to PG_BESIDE_RATE a second (default 800, each about 0.6 ms of a backend's CPU: the
 * pg arm's statements a second and backend CPU at 250 queries/s), on PG_BESIDE_URL (default the test
 * database), until the server ends. Plain JavaScript: the bundles run without the TypeScript loader.
 *
 * @example ARMS='[{"name":"sqlite"},{"name":"sqlite, pg beside","nodeArgs":["--import","./bench/pg-beside.js"]}]' node bin/run-ts.js bench/service.bench.ts
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const parent = Number(process.env.PG_BESIDE_PARENT ?? 0);

if (parent) await burn();
else if (isMainThread) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, PG_BESIDE_PARENT: String(process.pid) }, stdio: 'ignore' });
  child.unref();
  process.on('exit', () => child.kill('SIGTERM'));
}

async function burn() {
  const pg = createRequire(import.meta.url)('pg');
  const rate = Number(process.env.PG_BESIDE_RATE ?? 800);
  const clients = 16;
  const pool = new pg.Pool({ connectionString: process.env.PG_BESIDE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: clients, application_name: 'pg-beside' });
  let stop = false;
  process.on('SIGTERM', () => { stop = true; });
  // The server may end without its exit handler (killed): the side load ends with it all the same.
  setInterval(() => { try { process.kill(parent, 0); } catch { stop = true; } }, 500).unref();
  const t0 = performance.now();
  let sent = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (!stop) {
      const wait = t0 + (sent++ / rate) * 1000 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await pool.query({ name: 'beside', text: 'SELECT sum(i) FROM generate_series(1, 6000) i' }).catch(() => { stop = true; });
    }
  }));
  await pool.end();
}
