import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { bigintValue, type Row } from './values.ts';

/**
 * Records of a parquet file, read with hyparquet one row group at a time (memory ≈ one row group).
 * Values are made JSON-ready: INT64 → number (or decimal string beyond 2^53), timestamps → ISO
 * strings, JSON columns → their parsed values, raw bytes → base64.
 * @example for await (const rec of readParquetRecords('/data/t1.parquet')) rec.name
 */
export async function* readParquetRecords(path: string): AsyncGenerator<Row> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    if (end > start) {
      const rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end });
      for (const row of rows) {
        const rec: Row = {};
        for (const key of Object.keys(row)) rec[key] = jsonReady(row[key]);
        yield rec;
      }
    }
    start = end;
  }
}

function jsonReady(v: unknown): unknown {
  if (typeof v === 'bigint') return bigintValue(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return v.map(jsonReady);
  if (v !== null && typeof v === 'object') {
    const out: Row = {};
    for (const key of Object.keys(v)) out[key] = jsonReady((v as Row)[key]);
    return out;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}
