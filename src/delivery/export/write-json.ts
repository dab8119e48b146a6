import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { closeQuietly } from './atomic.ts';
import { Readable } from 'node:stream';
import { jsonArrayText } from './json-text.ts';
import { fieldOf, plainValue, type Row } from './values.ts';

/** What a format writer reports back; `bytes` is added by the atomic wrapper. */
export interface WriteOutcome {
  rows: number;
  columns: string[];
}

/**
 * Writes rows as a JSON array in one pass. With `columns`, each element has exactly those keys in
 * that order (missing → null, dotted names reach into nested values); without, each row is written
 * as it is and `columns` reports the union of keys in first-seen order.
 * @example await writeJsonFile(rowsOf([{ a: 1 }]), '/tmp/x.json.tmp')
 */
export async function writeJsonFile(rows: AsyncIterable<Row>, path: string, columns?: readonly string[]): Promise<WriteOutcome> {
  let count = 0;
  const seen = new Set<string>();
  const found: string[] = [];
  async function* items(): AsyncGenerator<unknown> {
    for await (const row of rows) {
      count++;
      if (columns) {
        const out: Row = {};
        for (const c of columns) out[c] = plainValue(fieldOf(row, c));
        yield out;
      } else {
        for (const k of Object.keys(row)) {
          if (!seen.has(k)) {
            seen.add(k);
            found.push(k);
          }
        }
        yield row;
      }
    }
  }
  const out = createWriteStream(path);
  try {
    await pipeline(Readable.from(jsonArrayText(items()), { objectMode: false }), out);
  } finally {
    await closeQuietly(out); // on failure, the temp file must be closed before it is removed
  }
  return { rows: count, columns: columns ? [...columns] : found };
}
