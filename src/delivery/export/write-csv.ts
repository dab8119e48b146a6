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
   * Formula escaping (OWASP "CSV injection", decision in docs/exports.md): text a spreadsheet could
   * run as a formula (starting with = + - @, tab, CR) is prefixed with `'`. Default (undefined):
   * every such text except a plain number or phone (`+14153127128`, `-12.5`, `+1 (415) 312-7128`:
   * digits, spaces and `+ - ( ) . /` only, so no function, reference or DDE call can be in it), which
   * is written as it is; true: all of them, numbers too; false: none. readExportAsJson takes the
   * mark off again (see FORMULA_LIKE).
   */
  escapeFormulas?: boolean;
}

/** A number or phone as text: a sign, then digits with spaces and `( ) . / -` only (no letter, no
 *  operator but the signs): a spreadsheet reads it as a number or an error, never runs anything. */
const PLAIN_NUMBER = /^[+-]?\(?\d[\d ().\/-]*$/;

/**
 * Text a spreadsheet could run as a formula, after any number of `'`. One more `'` is put in front
 * of such text, also of text that already starts with `'`s before a formula character, so that
 * reading can always take exactly one off: the escaping is reversible whatever the data holds.
 */
export const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

/** The cell text as written: formula-looking text prefixed with `'` (see FORMULA_LIKE, CsvOptions.escapeFormulas). */
export function escapeCell(text: string, formulas: boolean | undefined): string {
  // Text that would read back wrong (`'` + formula character) is always marked, in every mode.
  if (ESCAPED.test(text)) return `'${text}`;
  if (formulas === false || !FORMULA_LIKE.test(text)) return text;
  return formulas === undefined && PLAIN_NUMBER.test(text) ? text : `'${text}`;
}

/** Reverse of escapeCell. @example unescapeCell("'=1+1") // '=1+1' */
export function unescapeCell(text: string): string {
  return ESCAPED.test(text) ? text.slice(1) : text;
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
  const formulas = opts.escapeFormulas;
  const cell = (v: unknown) => (typeof v === 'string' ? escapeCell(v, formulas) : v);
  async function* records(): AsyncGenerator<unknown[]> {
    // Column names can come from the user (output_columns): escaped like any other text.
    if (width > 0) yield columns.map(cell);
    for await (const row of rows) {
      count++;
      const rec = new Array<unknown>(width);
      for (let i = 0; i < width; i++) rec[i] = cell(tabularValue(fieldOf(row, columns[i])));
      if (width > 0) yield rec;
    }
  }
  const stringifier = stringify({
    bom: opts.bom ?? true,
    quoted_string: true,
    record_delimiter: 'windows',
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
