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
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants, type BrotliOptions } from 'node:zlib';
import { promisify } from 'node:util';

const compressLater = promisify(brotliCompress) as (buf: Buffer, o: BrotliOptions) => Promise<Buffer>;

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
      const buf = utf8 ?? Buffer.from(text);
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
