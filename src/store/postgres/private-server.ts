/**
 * A throw-away PostgreSQL server for tests that must stop and restart the database (the shared one is
 * never touched). Needs the `initdb` and `pg_ctl` binaries; as root they run as the `postgres` user.
 *
 * @example
 *   const pg = await startPrivatePostgres();
 *   if (pg) { await pg.stop(); await pg.start(); await pg.destroy(); }
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  /** mode 'immediate' is a crash as far as clients can tell; 'fast' is an orderly shutdown. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

function which(bin: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A TCP port nobody listens on right now. @example const port = await freePort(); */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Why a private server cannot run here, or null when it can.
 *  @example test('restart', { skip: privatePostgresUnavailable() ?? false }, ...) */
export function privatePostgresUnavailable(): string | null {
  if (!which('initdb') || !which('pg_ctl')) return 'initdb/pg_ctl not on PATH';
  if (process.getuid?.() === 0) {
    if (!which('runuser')) return 'running as root without runuser';
    if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and no postgres user';
  }
  return null;
}

/** Initialises and starts a server on a free loopback port; null when the binaries are missing.
 *  @example const pg = await startPrivatePostgres(); await openPostgresStore(pg!.url); */
export async function startPrivatePostgres(): Promise<PrivatePostgres | null> {
  if (privatePostgresUnavailable()) return null;
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'trawl-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (bin: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() { run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '30', 'start']); },
    async stop(mode = 'fast') { run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']); },
    async destroy() {
      spawnSync(asRoot ? 'runuser' : 'pg_ctl', asRoot ? ['-u', 'postgres', '--', 'pg_ctl', '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await server.start();
  } catch (e) {
    await server.destroy();
    throw e;
  }
  return server;
}
