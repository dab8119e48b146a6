import { open, type FileHandle } from 'node:fs/promises';
import { ByteWriter, ParquetWriter, parquetWriteRows, type BasicType } from 'hyparquet-writer';
import { ExportError } from './errors.ts';
import { assertAcyclic, fieldOf, plainValue, toJsonText, type Plain, type Row, type ValueKind } from './values.ts';
import type { WriteOutcome } from './write-json.ts';

export interface ParquetOptions {
  /**
   * Rows per row group. hyparquet-writer transposes a whole group into columns before encoding, so
   * this bounds memory: about rowGroupSize × row size, twice. Default 10,000.
   */
  rowGroupSize?: number;
}

/**
 * The parquet type of a column from the kinds its values had (nulls aside). One kind maps to its
 * natural type (whole numbers to INT64, others to DOUBLE); a column that mixes kinds, or holds
 * objects/arrays, is JSON (UTF-8 JSON text, logical type JSON), which keeps every value exactly.
 * @example parquetTypeOf(new Set(['integer', 'null'])) // 'INT64'
 */
function parquetTypeOf(kinds: ReadonlySet<ValueKind>): BasicType {
  const k = new Set(kinds);
  k.delete('null');
  if (k.size === 0) return 'STRING';
  if (k.size === 2 && k.has('integer') && k.has('number')) return 'DOUBLE';
  if (k.size > 1) return 'JSON';
  const [only] = k;
  switch (only) {
    case 'boolean':
      return 'BOOLEAN';
    case 'integer':
      return 'INT64';
    case 'number':
      return 'DOUBLE';
    case 'string':
      return 'STRING';
    case 'date':
      return 'TIMESTAMP';
    default:
      return 'JSON';
  }
}

function fits(type: BasicType, p: Exclude<Plain, null>): boolean {
  switch (type) {
    case 'BOOLEAN':
      return typeof p === 'boolean';
    case 'INT64':
      return Number.isSafeInteger(p);
    case 'DOUBLE':
      return typeof p === 'number';
    case 'STRING':
      return typeof p === 'string';
    case 'TIMESTAMP':
      return p instanceof Date;
    default:
      return true; // JSON holds anything
  }
}

/** Converts a value for a column of `type`; a value that does not fit is a clear error, not a bad file. */
function cellFor(type: BasicType, column: string, v: unknown): unknown {
  const p = plainValue(v);
  if (p === null) return null;
  if (!fits(type, p)) {
    throw new ExportError('bad_input', `parquet column ${JSON.stringify(column)} is ${type} but a row has ${toJsonText(p)}; the rows changed between passes`);
  }
  if (type === 'INT64') return BigInt(p as number);
  // The library serialises JSON columns itself and would overflow its stack on a cycle.
  if (type === 'JSON') assertAcyclic(p);
  return p;
}

/** hyparquet-writer's ByteWriter, flushed to a file after each row group (the library awaits it). */
class FileSink extends ByteWriter {
  private constructor(private readonly fh: FileHandle) {
    super(1 << 16);
  }
  static async open(path: string): Promise<FileSink> {
    return new FileSink(await open(path, 'w'));
  }
  async flush(): Promise<void> {
    if (this.index === 0) return;
    // Copy: the library keeps appending into the same buffer after we return.
    await this.fh.write(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }
  async finish(): Promise<void> {
    await this.flush();
    await this.fh.close();
  }
  async abort(): Promise<void> {
    await this.fh.close().catch(() => {});
  }
}

/**
 * Writes a parquet file (snappy, statistics on) from rows whose column types are already known,
 * one row group at a time, so memory is bounded by the row-group size and not the row count.
 * @example await writeParquetFile(rowsOf([{ a: 1 }]), '/tmp/x.parquet.tmp', ['a'], new Map([['a', new Set(['integer'])]]))
 */
export async function writeParquetFile(
  rows: AsyncIterable<Row>,
  path: string,
  columns: readonly string[],
  kinds: ReadonlyMap<string, ReadonlySet<ValueKind>>,
  opts: ParquetOptions = {},
): Promise<WriteOutcome> {
  const rowGroupSize = Math.max(1, Math.floor(opts.rowGroupSize ?? 10_000));
  const types = columns.map((c) => parquetTypeOf(kinds.get(c) ?? new Set()));
  const sink = await FileSink.open(path);
  let count = 0;
  try {
    if (columns.length === 0) {
      // parquetWriteRows needs a column; a schema with only the root is a valid empty file.
      for await (const _ of rows) count++;
      const pq = new ParquetWriter({ writer: sink, schema: [{ name: 'root', num_children: 0 }], createdBy: 'trawl' });
      await pq.finish();
      return { rows: count, columns: [] };
    }
    async function* cells(): AsyncGenerator<Row> {
      for await (const row of rows) {
        count++;
        const out: Row = {};
        for (let i = 0; i < columns.length; i++) out[columns[i]] = cellFor(types[i], columns[i], fieldOf(row, columns[i]));
        yield out;
      }
    }
    await parquetWriteRows({
      writer: sink,
      rows: cells(),
      columns: columns.map((name, i) => ({ name, type: types[i] })),
      rowGroupSize,
      createdBy: 'trawl',
    });
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return { rows: count, columns: [...columns] };
}
