import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { parseCsv, type CsvField } from './csv-parse.ts';
import { unescapeCell } from './write-csv.ts';
import { ExportError } from './errors.ts';
import { parseExportFormat, type ExportFormat } from './formats.ts';
import { parseJsonArray } from './json-parse.ts';
import { readParquetRecords } from './read-parquet.ts';
import { readXlsxRecords } from './read-xlsx.ts';
import { isRow, parseNested, type Row } from './values.ts';

/**
 * Reads an export file back as JSON records, streaming (for `GET /requests/{id}?convertFileResult=true`
 * of UI tasks; pair with `jsonArrayStream` to send them). What comes back, per format:
 * - json: the records exactly as written.
 * - csv/xlsx: one record per row with every column (empty → null); numbers and booleans typed;
 *   nested values parsed back from their JSON text; dates as the ISO strings they were written as.
 * - parquet: typed by the file's schema (see readParquetRecords).
 * A missing file is `io`; a file that does not parse as its format is `corrupt_file`.
 * @example for await (const rec of readExportAsJson('csv', '/data/files/t1.csv')) send(rec)
 */
export async function* readExportAsJson(format: ExportFormat, filePath: string): AsyncGenerator<Row> {
  const fmt = parseExportFormat(format);
  try {
    await access(filePath);
  } catch (e) {
    throw new ExportError('io', `cannot read ${filePath}: ${(e as Error).message}`, { cause: e });
  }
  try {
    switch (fmt) {
      case 'json':
        yield* readJsonRecords(filePath);
        return;
      case 'csv':
        yield* readCsvRecords(filePath);
        return;
      case 'xlsx':
        yield* readXlsxRecords(filePath);
        return;
      default:
        yield* readParquetRecords(filePath);
    }
  } catch (e) {
    if (e instanceof ExportError) throw e;
    // The libraries throw plain Errors on bad zips/footers; the caller only needs to know it is broken.
    throw new ExportError('corrupt_file', `${fmt}: ${filePath} cannot be read: ${(e as Error).message}`, { cause: e });
  }
}

async function* readJsonRecords(path: string): AsyncGenerator<Row> {
  let i = 0;
  for await (const v of parseJsonArray(createReadStream(path, { encoding: 'utf8' }))) {
    if (!isRow(v)) throw new ExportError('corrupt_file', `json: element ${i} is not an object`);
    i++;
    yield v;
  }
}

async function* readCsvRecords(path: string): AsyncGenerator<Row> {
  let header: string[] | undefined;
  let line = 0;
  for await (const rec of parseCsv(createReadStream(path, { encoding: 'utf8' }))) {
    line++;
    if (!header) {
      header = rec.map((f) => unescapeCell(f.text));
      continue;
    }
    if (rec.length > header.length) {
      throw new ExportError('corrupt_file', `csv: record ${line} has ${rec.length} fields, the header ${header.length}`);
    }
    const out: Row = {};
    for (let i = 0; i < header.length; i++) out[header[i]] = i < rec.length ? csvValue(rec[i]) : null;
    yield out;
  }
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Types a CSV field by writeCsvFile's convention: quoted → text (or a nested value when the text is
 * a JSON object/array); bare empty → null; bare true/false → boolean; bare number → number.
 * @example csvValue({ text: '4.5', quoted: false }) // 4.5
 * @example csvValue({ text: '4.5', quoted: true }) // '4.5'
 */
export function csvValue(f: CsvField): unknown {
  if (f.quoted) return parseNested(unescapeCell(f.text));
  const t = f.text;
  if (t === '') return null;
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (NUMBER.test(t)) {
    const n = Number(t);
    if (Number.isFinite(n)) return n;
  }
  return parseNested(t);
}
