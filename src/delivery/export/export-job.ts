/**
 * An export written on a worker thread (issue 15: a 10k-row parquet export stalled the API for
 * 620-790 ms). Runs in a ThreadPool thread (src/ops/thread-pool.ts); the records come from the
 * caller over `port` as the stored JSON texts, so parsing, column scans and encoding all happen here.
 * Conversation: this side posts `{ pass }` (a pass over the rows: csv/xlsx/parquet read them twice),
 * the caller answers with a batch of records texts, `null` at the end of the pass, or `{ error }`.
 * The caller's side is ./off-thread.ts.
 */
import { once } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import { writeExport, type ExportResult } from './write-export.ts';
import { ExportError } from './errors.ts';
import type { ExportFormat } from './formats.ts';
import { firstOfEach } from '../../engine/dedupe.ts';
import { both } from '../shape.ts';
import { firstOfEachEmail } from '../../engine/selection.ts';

export interface ExportJob {
  format: ExportFormat;
  path: string;
  columns?: string[];
  /** Keep the first record of each identity (a dropDuplicates request). */
  dropDuplicates?: boolean;
  /** Leave out places whose e-mail address an earlier place had (a task's dropEmailDuplicates). */
  dropEmailDuplicates?: boolean;
  /** CSV formula escaping: undefined = all but plain numbers and phones, true = all, false = none (CsvOptions). */
  escapeFormulas?: boolean;
}

export type Batch = string[] | null | { error: string };

export default async function exportJob(job: ExportJob, port: MessagePort): Promise<ExportResult> {
  let passes = 0;
  const ask = async (pass: number): Promise<Batch> => {
    const got = once(port, 'message');
    port.postMessage({ pass });
    return (await got)[0] as Batch;
  };
  async function* texts(): AsyncGenerator<string> {
    const pass = passes++;
    for (;;) {
      const batch = await ask(pass);
      if (batch === null) return;
      if (!Array.isArray(batch)) throw new ExportError('bad_input', `reading the records failed: ${batch.error}`);
      yield* batch;
    }
  }
  return writeExportOfTexts(job, texts);
}

/** The export of the records in `texts()` (JSON array texts; called once per pass), on this thread. */
export function writeExportOfTexts(job: ExportJob, texts: () => AsyncIterable<string>): Promise<ExportResult> {
  return writeExport(job.format, () => recordsOf(texts(), job), job.path, { ...(job.columns ? { columns: job.columns } : {}), escapeFormulas: job.escapeFormulas });
}

async function* recordsOf(texts: AsyncIterable<string>, job: Pick<ExportJob, 'dropDuplicates' | 'dropEmailDuplicates'>): AsyncGenerator<Record<string, unknown>> {
  const unique = both(job.dropDuplicates ? firstOfEach() : null, job.dropEmailDuplicates ? firstOfEachEmail() : null);
  for await (const text of texts) {
    for (const rec of JSON.parse(text) as Record<string, unknown>[]) if (!unique || unique(rec)) yield rec;
  }
}
