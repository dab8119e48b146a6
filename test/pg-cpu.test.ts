// bench/pg-cpu.ts: a backend reached over the server's Unix socket has no client port in its title,
// so the service bench's PostgreSQL arm on a socket counted none of its backends' CPU (issue 37,
// session 19). With the arm's database named, those backends count as its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { pgCpuMs } from '../bench/pg-cpu.ts';
import { pgTestUrl, PG_SKIP } from '../src/store/postgres/testing.ts';

const url = pgTestUrl();
const SOCKET_DIR = '/var/run/postgresql';
const skip = !url ? PG_SKIP : !existsSync(SOCKET_DIR) ? `no PostgreSQL socket in ${SOCKET_DIR}` : false;

test('a backend on the Unix socket counts as the client\'s own when its database is named, and only then', { skip }, async () => {
  const u = new URL(url!);
  const database = decodeURIComponent(u.pathname.slice(1));
  const c = new pg.Client({ host: SOCKET_DIR, port: Number(u.port || 5432), user: decodeURIComponent(u.username) || undefined, database });
  await c.connect();
  try {
    const before = [pgCpuMs(process.pid), pgCpuMs(process.pid, database)];
    // About 0.2-0.5 s of the backend's CPU: well above /proc's 10 ms ticks.
    await c.query('SELECT count(*) FROM generate_series(1, 4000000)');
    const after = [pgCpuMs(process.pid), pgCpuMs(process.pid, database)];
    assert.equal(after[0].own - before[0].own, 0, 'no client port: not counted without the database');
    assert.ok(after[1].own - before[1].own >= 50, `counted with it: ${after[1].own - before[1].own} ms`);
  } finally {
    await c.end();
  }
});
