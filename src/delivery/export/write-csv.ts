import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { closeQuietly } from './atomic.ts';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { fieldOf, tabularValue, type Row } from './values.ts';
import type { WriteOutcome } from './write-json.ts';

export interface CsvOptions {
  /** Start with a UTF-8 byte-order mark so Excel reads non-ASCII text right. Default true. */
  bom?: boolean;
  /**
   * Prefix text starting with = + - @ (and tab/CR) with `'` so a spreadsheet never runs scraped
   * text as a formula (OWASP "CSV injection"). Off by default: it changes the data (a phone number
   * "+1 212…" becomes "'+1 212…") and readExportAsJson cannot tell it apart from a real quote mark.
   */
  escapeFormulas?: boolean;
}

/**
 * Writes RFC 4180 CSV (CRLF line ends, `"` quoting) in one pass over `rows`, header first.
 * Typing convention, which readExportAsJson relies on: every string (the header too) is quoted,
 * numbers and `true`/`false` are bare, null is an empty bare field, "" is `""`.
 * @example await writeCsvFile(rowsOf([{ a: 'x' }]), '/tmp/x.csv.tmp', ['a'])
 */
export async function writeCsvFile(rows: AsyncIterable<Row>, path: string, columns: readonly string[], opts: CsvOptions = {}): Promise<WriteOutcome> {
  let count = 0;
  const width = columns.length;
  async function* records(): AsyncGenerator<unknown[]> {
    if (width > 0) yield [...columns];
    for await (const row of rows) {
      count++;
      const rec = new Array<unknown>(width);
      for (let i = 0; i < width; i++) rec[i] = tabularValue(fieldOf(row, columns[i]));
      if (width > 0) yield rec;
    }
  }
  const stringifier = stringify({
    bom: opts.bom ?? true,
    quoted_string: true,
    record_delimiter: 'windows',
    escape_formulas: opts.escapeFormulas ?? false,
    cast: { boolean: (v: boolean) => (v ? 'true' : 'false') },
  });
  const out = createWriteStream(path);
  try {
    await pipeline(Readable.from(records()), stringifier, out);
  } finally {
    await closeQuietly(out); // on failure, the temp file must be closed before it is removed
  }
  return { rows: count, columns: [...columns] };
}
