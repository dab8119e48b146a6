/**
 * `trawl businesses export`: the businesses a search selects (the filters of POST /businesses, as the
 * given account sees them) written as a task file (xlsx, csv, json, parquet; src/delivery/export),
 * every record field plus added_timestamp/updated_timestamp, so `trawl businesses import` reads it back
 * as the same records. The store is walked a page of 1,000 at a time, never held whole.
 *
 * @example await exportRecords(store, { accountId: '', limit: 1000 }, 'csv', 'out.csv')
 */
import type { Store } from '../store/contract.ts';
import type { BusinessQuery, BusinessRecord } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { writeExport, type ExportFormat } from '../delivery/export/index.ts';

export interface ExportSummary { file: string; format: ExportFormat; rows: number; bytes: number }

async function* walk(store: Store, q: BusinessQuery, onPage?: (rows: number) => void): AsyncGenerator<BusinessRecord> {
  const db = businessStoreOf(store);
  let after: string | undefined;
  let rows = 0;
  for (;;) {
    const page = await db.searchBusinesses({ ...q, limit: 1000, includeTotal: false, after });
    for (const r of page.items) yield r;
    rows += page.items.length;
    onPage?.(rows);
    if (!page.hasMore) return;
    after = page.last;
  }
}

export async function exportRecords(store: Store, q: BusinessQuery, format: ExportFormat, file: string, onProgress?: (rows: number) => void, escapeFormulas?: boolean): Promise<ExportSummary> {
  // A function source: csv, xlsx and parquet take their columns from a first walk, then write in a second.
  const r = await writeExport(format, () => walk(store, q, onProgress) as AsyncIterable<Record<string, unknown>>, file, { escapeFormulas });
  return { file, format, rows: r.rows, bytes: r.bytes };
}
