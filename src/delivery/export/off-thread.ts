/**
 * Export files written on a worker thread (issue 15): this side only reads the stored records texts
 * and posts them in batches; parsing and encoding happen in ./export-job.ts. EXPORT_THREADS threads
 * at most (default 1: exports are rare, and one thread leaves the other core to the API); 0 writes
 * on the calling thread, as before.
 *
 * @example await writeExportOffThread({ format: 'csv', path }, () => textsOfRequest(), 1)
 */
import { MessageChannel } from 'node:worker_threads';
import { ThreadPool } from '../../ops/thread-pool.ts';
import type { ExportResult } from './write-export.ts';
// Types only: the export writers (exceljs, hyparquet) load on the thread, never here (issue 15:
// importing them on the API's thread stalled it for seconds on the first export).
import type { Batch, ExportJob } from './export-job.ts';

/** Characters of records text per message: small enough that reading one batch is a short task here. */
const BATCH_CHARS = 256 * 1024;

let pool: { size: number; pool: ThreadPool } | null = null;

function poolOf(size: number): ThreadPool {
  if (pool?.size !== size) {
    void pool?.pool.close();
    pool = { size, pool: new ThreadPool(new URL('./export-job.ts', import.meta.url), size) };
  }
  return pool.pool;
}

/** One batch of up to BATCH_CHARS characters from `it`, or null at its end. */
async function batchOf(it: AsyncIterator<string>): Promise<string[] | null> {
  const out: string[] = [];
  let size = 0;
  while (size < BATCH_CHARS) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
    size += r.value.length;
  }
  return out.length ? out : null;
}

/**
 * Writes the records in `texts()` (JSON array texts, as stored; called once per pass) as an export
 * file, on one of `threads` worker threads, or here when `threads` is 0.
 */
export async function writeExportOffThread(job: ExportJob, texts: () => AsyncIterable<string>, threads: number): Promise<ExportResult> {
  if (!(threads > 0)) return (await import('./export-job.ts')).writeExportOfTexts(job, texts);
  const { port1, port2 } = new MessageChannel();
  const passes = new Map<number, AsyncIterator<string>>();
  port1.on('message', ({ pass }: { pass: number }) => {
    let it = passes.get(pass);
    if (!it) passes.set(pass, (it = texts()[Symbol.asyncIterator]()));
    batchOf(it).then((b: Batch) => port1.postMessage(b), (e: Error) => port1.postMessage({ error: e.message } satisfies Batch));
  });
  try {
    return await poolOf(threads).run<ExportResult>(job, port2);
  } finally {
    port1.close();
  }
}
