import ExcelJS from 'exceljs';
import { parseNested, type Row } from './values.ts';
import { unescapeXlsxText } from './xlsx-text.ts';

/**
 * Records of an .xlsx file, streamed with exceljs' WorkbookReader: on every sheet the first row is
 * the header, each later row one record (all columns present, empty cell → null). Text that is a
 * JSON object/array becomes that value (how writeExport stores nested values), `_xHHHH_` escapes are
 * decoded; date cells (not
 * written by writeExport) become ISO strings; formulas give their cached result.
 * @example for await (const rec of readXlsxRecords('/data/t1.xlsx')) rec.name
 */
export async function* readXlsxRecords(path: string): AsyncGenerator<Row> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    let header: string[] | undefined;
    let expected = 0; // next row number; exceljs skips rows with no cells, which are all-null records
    for await (const row of sheet) {
      const values = row.values as unknown[];
      if (!header) {
        header = [];
        for (let i = 1; i < values.length; i++) header.push(headerText(values[i]));
        expected = row.number + 1;
        continue;
      }
      for (; expected < row.number; expected++) yield emptyRecord(header);
      expected = row.number + 1;
      const rec: Row = {};
      for (let i = 0; i < header.length; i++) rec[header[i]] = cellValue(values[i + 1]);
      yield rec;
    }
  }
}

function emptyRecord(header: string[]): Row {
  const rec: Row = {};
  for (const h of header) rec[h] = null;
  return rec;
}

function headerText(v: unknown): string {
  const c = cellValue(v);
  if (c === null) return '';
  return typeof c === 'string' ? c : typeof c === 'object' ? JSON.stringify(c) : String(c);
}

function cellValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return parseNested(unescapeXlsxText(v));
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return unescapeXlsxText((o.richText as { text?: string }[]).map((r) => r.text ?? '').join(''));
    if ('result' in o) return cellValue(o.result);
    if ('error' in o) return null;
    if (typeof o.text === 'string') return unescapeXlsxText(o.text);
  }
  return null;
}
