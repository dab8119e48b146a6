/**
 * WAL checkpoints on a thread of their own (issue 15). A checkpoint copies the write-ahead log into
 * the database file and syncs it; SQLite runs one automatically in whichever commit crosses
 * `wal_autocheckpoint`, so under load a map search's completion or a janitor batch on the API thread
 * now and then took 30-47 ms instead of 1-4 ms (bench/probe.ts's PROBE_LOG lined up with the server's
 * profile), and every `/health` probe behind it waited as long.
 *
 * This thread opens its own connection to the same file and runs a PASSIVE checkpoint every
 * `everyMs`: it copies what is committed without waiting for, or blocking, readers and writers;
 * once the log is copied the next write starts it over from the beginning, so the API's connection
 * stays below its own `wal_autocheckpoint` and never checkpoints (it still would, cheaply, if this
 * thread fell behind or died: the setting stays as the safety net).
 *
 * @example
 *   const cp = startCheckpointer('./data/trawl.db', 200);
 *   await cp.stop();
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.lib);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Ends the thread after a last checkpoint and closes its connection. */
  stop(): Promise<void>;
}

/** Starts the checkpoint thread for the database `file` (already in WAL mode). */
export function startCheckpointer(file: string, everyMs: number): Checkpointer {
  const lib = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(BOOT, { eval: true, workerData: { lib, file, everyMs } });
  // The API's connection keeps checkpointing by itself if this thread cannot start or dies; the
  // operator sees why on stderr.
  worker.on('error', (e) => process.emitWarning(`SQLite checkpoint thread for ${file} ended: ${e.message}; checkpoints run in commits again`));
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const late = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(late);
    },
  };
}
