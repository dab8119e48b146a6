import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { closeQuietly } from './atomic.ts';
import { ExportError } from './errors.ts';
import { isRow, jsonReplacer, kindOf, plainValue, fieldOf, toJsonText, type Row, type ValueKind } from './values.ts';

export type RowIterable = Iterable<Row> | AsyncIterable<Row>;
/**
 * Rows for an export. A function returning a fresh iterable (or an array) can be read twice; that is
 * how csv/xlsx/parquet learn the columns (and parquet the types) before writing. Any other iterable
 * is read once; when a second pass is needed it is spooled to a temporary NDJSON file first.
 */
export type RowSource = RowIterable | (() => RowIterable);

/**
 * True when the source can be iterated twice without spooling.
 * @example isReiterable(() => rows) // true
 */
function isReiterable(source: RowSource): boolean {
  return typeof source === 'function' || Array.isArray(source);
}

function iterableOf(source: RowSource): RowIterable {
  const it = typeof source === 'function' ? source() : source;
  if (it === null || typeof it !== 'object' || !(Symbol.asyncIterator in it || Symbol.iterator in it)) {
    throw new ExportError('bad_input', 'rows must be an iterable, an async iterable, or a function returning one');
  }
  return it;
}

/**
 * Iterates a source once, checking that every item is a record; throws `bad_input` naming the row.
 * @example for await (const row of rowsOf([{ a: 1 }])) console.log(row.a)
 */
export async function* rowsOf(source: RowSource): AsyncGenerator<Row> {
  let n = 0;
  for await (const row of iterableOf(source) as AsyncIterable<unknown>) {
    if (!isRow(row)) {
      throw new ExportError('bad_input', `row ${n} is not an object (got ${row === null ? 'null' : Array.isArray(row) ? 'an array' : typeof row})`);
    }
    n++;
    yield row;
  }
}

/** What one pass over the rows learned: the columns in first-seen order and each column's kinds. */
export class ColumnScan {
  readonly columns: string[];
  readonly kinds = new Map<string, Set<ValueKind>>();
  rows = 0;
  private readonly fixed: boolean;

  /** With `columns` given, only those are tracked (and no new ones are discovered). */
  constructor(columns?: readonly string[]) {
    this.fixed = columns !== undefined;
    this.columns = columns ? [...columns] : [];
    for (const c of this.columns) this.kinds.set(c, new Set());
  }

  add(row: Row): void {
    this.rows++;
    if (this.fixed) {
      for (const c of this.columns) this.kinds.get(c)!.add(kindOf(plainValue(fieldOf(row, c))));
      return;
    }
    for (const key of Object.keys(row)) {
      let set = this.kinds.get(key);
      if (!set) {
        set = new Set();
        this.kinds.set(key, set);
        this.columns.push(key);
      }
      set.add(kindOf(plainValue(row[key])));
    }
  }
}

// A key no real record uses, marking a Date in the spool so the second pass gets a Date back.
const DATE_TAG = '\u0000trawl:date';

function spoolReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Date && typeof value === 'string') return { [DATE_TAG]: value };
  return jsonReplacer(key, value);
}

function spoolReviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, DATE_TAG)) {
    return new Date((value as Record<string, string>)[DATE_TAG]);
  }
  return value;
}

async function* readSpool(path: string): AsyncGenerator<Row> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line, spoolReviver) as Row;
}

/** Result of `scanTwice`: the scan, and a way to read the same rows again. */
export interface ScannedSource {
  scan: ColumnScan;
  /** A fresh pass over the same rows. */
  again(): AsyncIterable<Row>;
  /** Deletes the spool file, if one was made. Safe to call twice. */
  cleanup(): Promise<void>;
}

/**
 * First pass: learns columns and kinds. Re-iterable sources are simply read again later; others are
 * copied to an NDJSON spool in `spoolDir` during this pass (bounded memory, disk cost = one copy).
 * @example const s = await scanTwice(() => rows, undefined, '/tmp'); for await (const r of s.again()) {}
 */
export async function scanTwice(source: RowSource, columns: readonly string[] | undefined, spoolDir: string): Promise<ScannedSource> {
  const scan = new ColumnScan(columns);
  if (isReiterable(source)) {
    for await (const row of rowsOf(source)) scan.add(row);
    return { scan, again: () => rowsOf(source), cleanup: async () => {} };
  }
  const path = join(spoolDir, `.trawl-spool-${randomUUID()}.ndjson`);
  const out = createWriteStream(path);
  const cleanup = () => rm(path, { force: true });
  try {
    const failed = once(out, 'error').then(([e]) => { throw e; });
    failed.catch(() => {}); // observed below through write/close; avoid an unhandled rejection
    let chunk = '';
    for await (const row of rowsOf(source)) {
      scan.add(row);
      chunk += toJsonText(row, spoolReplacer) + '\n';
      if (chunk.length >= 1 << 16) {
        if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
        chunk = '';
      }
    }
    out.end(chunk);
    await Promise.race([once(out, 'finish'), failed]);
  } catch (e) {
    await closeQuietly(out);
    await cleanup();
    throw e;
  }
  return { scan, again: () => readSpool(path), cleanup };
}
