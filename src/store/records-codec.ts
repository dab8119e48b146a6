/**
 * Stored records compressed (issue 15, bounded storage): the embedded store keeps a query's records
 * as a brotli BLOB instead of JSON text. A map search's 20 places (51.6 KB of JSON) take 8.6 KB at
 * quality 1 (6.0x, 0.09 ms to compress, 0.07 ms to expand; docs/performance/storage.md).
 *
 * Migration-free: the column keeps its type, and SQLite stores any value in it; a row written before
 * (JSON text) comes back as a string and is returned as is, a compressed one comes back as a Buffer.
 * Texts shorter than MIN_BYTES stay text: `[]` and one small record gain nothing.
 *
 * @example const codec = recordsCodec(1); const v = codec.pack(json); unpackRecords(v) === json
 */
import { brotliCompress, brotliCompressSync, brotliDecompress, brotliDecompressSync, constants, type BrotliOptions } from 'node:zlib';
import { promisify } from 'node:util';
import type { QueryResult } from './results/contract.ts';
import { utf8Of } from './utf8.ts';

const compressLater = promisify(brotliCompress) as (buf: Buffer, o: BrotliOptions) => Promise<Buffer>;
const expandLater = promisify(brotliDecompress) as (buf: Buffer | Uint8Array) => Promise<Buffer>;

/** Below this many characters a text is stored as is (brotli's gain is a few bytes, its cost fixed). */
export const MIN_BYTES = 512;

export interface RecordsCodec {
  /** What to store for a records text: a Buffer (compressed) or the text itself. `utf8`: the text's
   *  UTF-8 bytes when the caller has them (then they are not encoded again). */
  pack(text: string, utf8?: Buffer): string | Buffer;
  /** The same value, compressed on libuv's thread pool rather than this thread (a big result,
   *  issue 39: the same bytes as `pack`, brotli with the same parameters). */
  packOffThread(text: string, utf8: Buffer): Promise<string | Buffer>;
}

/**
 * `quality` 0-11 (brotli), null = store text (RESULT_COMPRESSION=off).
 *
 * @example recordsCodec(null).pack('[1]') // '[1]'
 */
export function recordsCodec(quality: number | null): RecordsCodec {
  if (quality === null) return { pack: (text) => text, packOffThread: async (text) => text };
  const options = (buf: Buffer): BrotliOptions => ({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  return {
    pack(text, utf8) {
      if (text.length < MIN_BYTES) return text;
      const buf = utf8 ?? utf8Of(text);
      return brotliCompressSync(buf, options(buf));
    },
    async packOffThread(text, utf8) {
      return text.length < MIN_BYTES ? text : compressLater(utf8, options(utf8));
    },
  };
}

/**
 * A stored records value back to its JSON text: a Buffer is brotli, a string is a row stored
 * uncompressed (older rows, small texts, or compression off).
 *
 * @example unpackRecords('[]') // '[]'
 */
export function unpackRecords(v: string | Buffer | Uint8Array): string {
  if (typeof v === 'string') return v;
  return brotliDecompressSync(v).toString('utf8');
}

/**
 * Compressed values at least this big are expanded on libuv's thread pool (issue 39): 16 KB of
 * brotli is about 100 KB of text, 0.3 ms or more to expand here, already more than the crossing
 * (a pool job and a turn, about 0.1 ms); a map search's 20 places (8.6 KB) stay on this thread.
 */
export const EXPAND_OFF_THREAD_BYTES = 16 * 1024;

/**
 * One stored results row as a QueryResult. A big compressed value is expanded off this thread and
 * kept as its UTF-8 bytes (`recordsUtf8`): a reader passing the result through sends those bytes in
 * slices, and its text is decoded only if a reader asks for `recordsJson` (decoding 49 MB of text, a
 * query of 20,000 places, held this thread a second).
 *
 * @example const q = await unpackedResult({ queryIndex: 0, query: 'q', count: 1, error: null }, row.records)
 */
export async function unpackedResult(base: Omit<QueryResult, 'recordsJson'>, v: string | Buffer | Uint8Array): Promise<QueryResult> {
  if (typeof v === 'string' || v.length < EXPAND_OFF_THREAD_BYTES) return { ...base, recordsJson: unpackRecords(v) };
  const utf8 = await expandLater(v);
  let text: string | undefined;
  return Object.defineProperty({ ...base, recordsUtf8: utf8 }, 'recordsJson', {
    enumerable: true,
    get: () => (text ??= utf8.toString('utf8')),
  }) as QueryResult;
}

/**
 * RESULT_COMPRESSION: `off`, or the brotli quality 0-11 (default 1: most of the gain for the least
 * CPU, see docs/performance/storage.md).
 *
 * @example compressionFromEnv('off') // null
 */
export function compressionFromEnv(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return 1;
  if (/^(off|none|0?false|no)$/i.test(v.trim())) return null;
  const q = Number(v);
  if (!Number.isInteger(q) || q < 0 || q > 11) throw new Error(`RESULT_COMPRESSION must be off or a brotli quality 0-11 (got "${v}")`);
  return q;
}
