import { dirname } from 'node:path';
import { writeAtomically } from './atomic.ts';
import { ExportError } from './errors.ts';
import { parseExportFormat, type ExportFormat } from './formats.ts';
import { rowsOf, scanTwice, type RowSource } from './source.ts';
import { writeCsvFile, type CsvOptions } from './write-csv.ts';
import { writeJsonFile } from './write-json.ts';
import { writeParquetFile, type ParquetOptions } from './write-parquet.ts';
import { writeXlsxFile, type XlsxOptions } from './write-xlsx.ts';

export interface ExportOptions extends CsvOptions, XlsxOptions, ParquetOptions {
  /**
   * Exactly these columns, in this order (task `settings.output_columns`). A missing value is null;
   * a dotted name reaches into a nested value when no key has that exact name.
   * Without it the columns are the union of the rows' keys in first-seen order.
   */
  columns?: readonly string[];
  /** Where a one-shot source is spooled when a second pass is needed. Default: the file's directory. */
  spoolDir?: string;
}

export interface ExportResult {
  /** Records written. */
  rows: number;
  /** Size of the final file. */
  bytes: number;
  /** The columns of the file, in file order (for json without `columns`: the keys seen). */
  columns: string[];
}

/**
 * Writes `rows` as an export file of `format` at `filePath`, streaming: rows are pulled one at a
 * time and never all held in memory. The file appears under its name only when complete (temp
 * file + fsync + rename), so a crash never leaves half a file there.
 *
 * `rows` may be an array, any (async) iterable, or a function returning a fresh one. json needs
 * one pass. csv/xlsx need the header first and parquet the column types: given `opts.columns`,
 * csv/xlsx read once; otherwise (and always for parquet) the rows are read twice — a function or
 * array source is simply called/iterated again (it must yield the same rows), any other iterable is
 * spooled to a temporary NDJSON file beside the output during the first pass.
 *
 * @example
 * const r = await writeExport('csv', () => store.rowsOf(taskId), '/data/files/t1.csv', { columns: ['name', 'phone'] });
 * // r = { rows: 120, bytes: 8123, columns: ['name', 'phone'] }
 */
export async function writeExport(
  format: ExportFormat,
  rows: RowSource,
  filePath: string,
  opts: ExportOptions = {},
): Promise<ExportResult> {
  const fmt = parseExportFormat(format);
  const columns = opts.columns === undefined ? undefined : checkColumns(opts.columns);
  if (typeof filePath !== 'string' || filePath === '') throw new ExportError('bad_input', 'filePath must be a non-empty string');
  return writeAtomically(filePath, async (tmp) => {
    if (fmt === 'json') return writeJsonFile(rowsOf(rows), tmp, columns);
    if (columns && fmt !== 'parquet') {
      return fmt === 'csv' ? writeCsvFile(rowsOf(rows), tmp, columns, opts) : writeXlsxFile(rowsOf(rows), tmp, columns, opts);
    }
    const src = await scanTwice(rows, columns, opts.spoolDir ?? dirname(filePath));
    try {
      const cols = src.scan.columns;
      switch (fmt) {
        case 'csv':
          return await writeCsvFile(src.again(), tmp, cols, opts);
        case 'xlsx':
          return await writeXlsxFile(src.again(), tmp, cols, opts);
        default:
          return await writeParquetFile(src.again(), tmp, cols, src.scan.kinds, opts);
      }
    } finally {
      await src.cleanup();
    }
  });
}

function checkColumns(columns: readonly string[]): string[] {
  if (!Array.isArray(columns)) throw new ExportError('bad_input', 'columns must be an array of strings');
  const seen = new Set<string>();
  for (const c of columns) {
    if (typeof c !== 'string' || c === '') throw new ExportError('bad_input', `columns must be non-empty strings, got ${JSON.stringify(c)}`);
    if (seen.has(c)) throw new ExportError('bad_input', `columns must not repeat, ${JSON.stringify(c)} appears twice`);
    seen.add(c);
  }
  return [...columns];
}
