/**
 * `trawl serve` exactly as a user starts it (bin/trawl.js, real adapters, SQLite in a fresh
 * directory, PORT=0): resolves with its URL and the key of the first account it prints once.
 * Clients are tested against it with endpoints that need no network (reverse geocoding, phones).
 *
 * @example
 *   const s = await startServe();
 *   await fetch(`${s.url}/profile/balance`, { headers: { 'x-api-key': s.key } });
 *   await s.close();
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface Served { url: string; key: string; dir: string; close(): Promise<void> }

/** `entry`: the command line to run (the sources through tsx by default; the production bundle,
 *  dist/server/trawl.js, in test/build.test.ts). `dataDir`: a data directory to start on, kept at
 *  close (its first start prints the key; a later one does not, and `key` is then ''). */
export function startServe(env: Record<string, string> = {}, timeoutMs = 60_000, entry = 'bin/trawl.js', dataDir?: string): Promise<Served> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'trawl-serve-'));
  const child = spawn(process.execPath, [entry, 'serve'], {
    env: { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => { tail.push(l); if (tail.length > 20) tail.shift(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(t);
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let key = '';
    const timer = setTimeout(() => { void close(); reject(new Error(`trawl serve not ready within ${timeoutMs} ms: ${tail.join('\n')}`)); }, timeoutMs);
    void exited.then(() => { clearTimeout(timer); reject(new Error(`trawl serve exited before it was ready: ${tail.join('\n')}`)); });
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const m = l.match(/(trw_[A-Za-z0-9_-]+)/);
      if (m) key = m[1];
      if (!l.startsWith('{')) return;
      try {
        const log = JSON.parse(l) as { msg?: string; url?: string };
        if (log.msg === 'trawl listening' && log.url && (key || dataDir)) { clearTimeout(timer); resolve({ url: log.url, key, dir, close }); }
      } catch { /* not a log line */ }
    });
  });
}
