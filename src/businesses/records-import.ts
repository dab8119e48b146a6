/**
 * `trawl businesses import FILE` for files of our own records (a round trip of `trawl businesses
 * export`): JSON lines, a JSON array, CSV, xlsx or parquet, told apart by the name's extension and,
 * when that says nothing, by the first bytes. Upserts in batches, keyed by os_id and keeping the file's
 * times, so a re-run changes nothing. A row that is not a business record stops the import, naming it
 * (rows before it are stored; fix the file and run again).
 *
 * @example await importRecords(store, 'businesses.csv', { owner: OPEN_DATA })
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Store } from '../store/contract.ts';
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { readExportAsJson, type ExportFormat } from '../delivery/export/index.ts';
import { businessFromRow, RowError } from './record-row.ts';

export type RecordsFormat = ExportFormat | 'jsonl';

export interface RecordsSummary { file: string; format: RecordsFormat; rows: number; added: number; updated: number; seconds: number }

/** The format of a records file, or null when it is none of them. */
export async function recordsFormatOf(file: string): Promise<RecordsFormat | null> {
  const ext = /\.(jsonl|ndjson|json|csv|xlsx|parquet)$/i.exec(file)?.[1].toLowerCase();
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext && ext !== 'json') return ext as RecordsFormat;
  const head = await firstBytes(file, 512);
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) return 'jsonl';
  if (ext) return null;
  if (head.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet';
  if (head.subarray(0, 2).toString('latin1') === 'PK') return 'xlsx';
  // A CSV export starts with its header, which names os_id.
  if (/^[^\n]*\bos_id\b/.test(text)) return 'csv';
  return null;
}

async function firstBytes(file: string, n: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(n);
    const { bytesRead } = await fh.read(b, 0, n, 0);
    return b.subarray(0, bytesRead);
  } finally { await fh.close(); }
}

async function* jsonLines(file: string): AsyncGenerator<[Record<string, unknown>, string]> {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    n++;
    if (!line.trim()) continue;
    let v: unknown;
    try { v = JSON.parse(line); } catch (e) { throw new RowError(`line ${n}: not JSON (${(e as Error).message})`); }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new RowError(`line ${n}: not a JSON object`);
    yield [v as Record<string, unknown>, `line ${n}`];
  }
}

async function* rowsOf(file: string, format: RecordsFormat): AsyncGenerator<[Record<string, unknown>, string]> {
  if (format === 'jsonl') { yield* jsonLines(file); return; }
  let n = 0;
  // CSV and xlsx rows are numbered as a spreadsheet shows them (the header is row 1).
  const at = format === 'csv' || format === 'xlsx' ? (i: number) => `row ${i + 1}` : (i: number) => `record ${i}`;
  for await (const r of readExportAsJson(format, file)) yield [r as Record<string, unknown>, at(++n)];
}

export async function importRecords(store: Store, file: string, o: { owner: string; now?: () => number; batch?: number; onProgress?: (s: RecordsSummary) => void }): Promise<RecordsSummary> {
  const t0 = Date.now();
  const format = await recordsFormatOf(file).catch((e: Error) => { throw new RowError(`cannot read ${file}: ${e.message}`); });
  if (!format) throw new RowError(`${file}: not a file of business records (JSON lines, JSON, CSV, xlsx or parquet as trawl businesses export writes them)`);
  const db = businessStoreOf(store);
  const s: RecordsSummary = { file, format, rows: 0, added: 0, updated: 0, seconds: 0 };
  let batch: BusinessRecord[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const r = await db.upsertBusinesses(o.owner, batch, (o.now ?? Date.now)());
    s.added += r.added; s.updated += r.updated; batch = [];
    o.onProgress?.(s);
  };
  for await (const [row, at] of rowsOf(file, format)) {
    batch.push(businessFromRow(row, at));
    s.rows++;
    if (batch.length >= (o.batch ?? 1000)) await flush();
  }
  await flush();
  await db.optimize();
  s.seconds = Math.round((Date.now() - t0) / 100) / 10;
  return s;
}
