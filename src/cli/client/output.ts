/**
 * Where a finished request's records go: json (one array per query, as the API answers) and jsonl
 * (one record per line) are written here from the data; csv, xlsx and parquet are the server's own
 * task files (the request was submitted with `format`), streamed as they are.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extname } from 'node:path';
import { UsageError } from './args.ts';

export const LOCAL_FORMATS = ['json', 'jsonl'] as const;
export const FILE_FORMATS = ['csv', 'xlsx', 'parquet'] as const;
export type OutFormat = (typeof LOCAL_FORMATS)[number] | (typeof FILE_FORMATS)[number];
const ALL: readonly string[] = [...LOCAL_FORMATS, ...FILE_FORMATS];

/** --format wins; else the extension of --out; else json. */
export function outFormat(format: string | undefined, out: string | undefined): OutFormat {
  const f = (format ?? (out ? extname(out).slice(1) : '') ?? '').toLowerCase() || 'json';
  if (!ALL.includes(f)) {
    if (format) throw new UsageError(`--format must be one of ${ALL.join(', ')}, got "${format}"`);
    return 'json';
  }
  return f as OutFormat;
}

export const isFileFormat = (f: OutFormat): f is (typeof FILE_FORMATS)[number] => (FILE_FORMATS as readonly string[]).includes(f);

export function dataText(data: unknown[], f: 'json' | 'jsonl'): string {
  if (f === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  return data.flatMap((q) => (Array.isArray(q) ? q : [q])).map((r) => JSON.stringify(r)).join('\n') + (data.length ? '\n' : '');
}

/** Writes text or a response body to the file, or to stdout without one. */
export async function writeOut(what: string | Response, out: string | undefined): Promise<void> {
  const source = typeof what === 'string' ? Readable.from([what]) : Readable.fromWeb(what.body as import('node:stream/web').ReadableStream);
  if (!out) {
    await pipeline(source, process.stdout, { end: false });
    return;
  }
  await pipeline(source, createWriteStream(out));
}

/**
 * Records written as a csv, xlsx or parquet file by the writer the server's task files use (a run in
 * parts: ./parts.ts), to `out` or, through a temporary file, to stdout. `escapeFormulas` as the
 * request's `escape_formulas`.
 */
export async function writeRecordsFile(format: (typeof FILE_FORMATS)[number], rows: Record<string, unknown>[], out: string | undefined, escapeFormulas?: boolean): Promise<void> {
  const { writeExport } = await import('../../delivery/export/index.ts');
  if (out) {
    await writeExport(format, rows, out, { escapeFormulas });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-run-'));
  try {
    const file = join(dir, `records.${format}`);
    await writeExport(format, rows, file, { escapeFormulas });
    await pipeline(createReadStream(file), process.stdout, { end: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows as aligned columns, two spaces apart. @example table([['id', 'status'], ['r1', 'Success']]) */
export const table = (rows: (string | number)[][]): string => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
};

/** Unix seconds as UTC `YYYY-MM-DD HH:MM:SS` (`minutes`: without the seconds); '' for none. */
export const when = (unixSec: number | null | undefined, minutes = false): string =>
  (unixSec ? new Date(unixSec * 1000).toISOString().replace('T', ' ').slice(0, minutes ? 16 : 19) : '');
