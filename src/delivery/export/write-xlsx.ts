import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { closeQuietly } from './atomic.ts';
import { fieldOf, tabularValue, type Row } from './values.ts';
import type { WriteOutcome } from './write-json.ts';
import { escapeXlsxText } from './xlsx-text.ts';

/** Excel's hard limit: 1,048,576 rows per sheet, one of them our header. */
export const XLSX_MAX_DATA_ROWS = 1_048_575;

export interface XlsxOptions {
  /** Name of the first sheet; later ones get " (2)", " (3)"… Default "data". */
  sheetName?: string;
  /** Data rows per sheet before a new sheet starts (tests lower it). Default and maximum 1,048,575. */
  maxRowsPerSheet?: number;
}

// exceljs' streaming writer has no backpressure: `commit()` pushes row XML into the zip entry's
// PassThrough without looking at its return value, so a fast producer piles up the whole sheet in
// memory (measured: ~115 MB external for 200k place rows) while deflate lags behind. Every
// YIELD_EVERY rows we look at that PassThrough's buffered length (exceljs/readable-stream internals,
// read defensively) and wait while it is above MAX_BACKLOG. export.test.ts pins the bound.
const YIELD_EVERY = 256;
const MAX_BACKLOG = 1 << 20;

/**
 * Writes an .xlsx workbook with exceljs' streaming WorkbookWriter: header row (frozen), then one row
 * per record, committed as it goes. Cells are typed (number, boolean, text); nulls are empty cells;
 * dates and nested values are text (ISO 8601 / compact JSON); control characters and CR are kept
 * with Excel's `_xHHHH_` escapes. More rows than a sheet holds continue
 * on a new sheet with the header repeated.
 * @example await writeXlsxFile(rowsOf([{ a: 1 }]), '/tmp/x.xlsx.tmp', ['a'])
 */
export async function writeXlsxFile(rows: AsyncIterable<Row>, path: string, columns: readonly string[], opts: XlsxOptions = {}): Promise<WriteOutcome> {
  const perSheet = Math.min(Math.max(1, Math.floor(opts.maxRowsPerSheet ?? XLSX_MAX_DATA_ROWS)), XLSX_MAX_DATA_ROWS);
  const baseName = sanitizeSheetName(opts.sheetName ?? 'data');
  const out = createWriteStream(path);
  const outDone = finished(out);
  outDone.catch(() => {}); // awaited below; an early failure must not be an unhandled rejection
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const width = columns.length;
  let sheet: ExcelJS.Worksheet | undefined;
  let sheets = 0;
  let inSheet = 0;
  let count = 0;

  const openSheet = () => {
    sheet?.commit();
    sheets++;
    const name = sheets === 1 ? baseName : `${baseName.slice(0, 31 - ` (${sheets})`.length)} (${sheets})`;
    sheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    if (width > 0) sheet.addRow(columns.map(escapeXlsxText)).commit();
    inSheet = 0;
  };

  try {
    openSheet();
    for await (const row of rows) {
      if (inSheet === perSheet) openSheet();
      count++;
      inSheet++;
      const values = new Array<unknown>(width);
      let empty = true;
      for (let i = 0; i < width; i++) {
        const v = tabularValue(fieldOf(row, columns[i]));
        if (v !== null) empty = false;
        values[i] = v === null ? undefined : typeof v === 'string' ? escapeXlsxText(v) : v;
      }
      if (width > 0) {
        const r = sheet!.addRow(values);
        // exceljs drops a row without cells; a height (Excel's default) makes it write <row/>, so an
        // all-null record is still a row when read back.
        if (empty) r.height = 15;
        r.commit();
      }
      if (count % YIELD_EVERY === 0) await settle(sheet!, out);
    }
    sheet!.commit();
    await book.commit();
    await outDone;
  } catch (e) {
    await closeQuietly(out);
    throw e;
  }
  return { rows: count, columns: [...columns] };
}

/** Bytes queued between exceljs and the deflate step, plus those queued for the file. */
function backlogOf(sheet: ExcelJS.Worksheet, out: WriteStream): number {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes ?? [];
  let n = out.writableLength;
  for (const p of pipes) n += (p as { _writableState?: { length?: number } })?._writableState?.length ?? 0;
  return n;
}

/** Waits while the zip/file backlog is large; rejects if the file stream fails meanwhile. */
async function settle(sheet: ExcelJS.Worksheet, out: WriteStream): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  while (backlogOf(sheet, out) > MAX_BACKLOG) {
    if (out.destroyed) throw new Error('xlsx output stream closed early');
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
}

/** Excel refuses sheet names over 31 characters or with any of : \ / ? * [ ]. */
function sanitizeSheetName(name: string): string {
  const clean = name.replace(/[:\\/?*[\]]/g, ' ').trim().slice(0, 31);
  return clean || 'data';
}
