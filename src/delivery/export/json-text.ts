import { Readable } from 'node:stream';
import { toJsonText } from './values.ts';

// Rows are batched into ~64 KiB strings: one stream write per row costs more than the JSON itself.
const CHUNK = 1 << 16;

/**
 * Text of a JSON array, one element per line, produced lazily from `items` (pulling only as fast as
 * the consumer reads). Serves both the json export file and `convertFileResult` responses.
 * @example for await (const s of jsonArrayText([{ a: 1 }])) process.stdout.write(s) // "[\n{"a":1}\n]\n"
 */
export async function* jsonArrayText(items: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<string> {
  let chunk = '[';
  let first = true;
  for await (const item of items) {
    chunk += (first ? '\n' : ',\n') + toJsonText(item);
    first = false;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + (first ? ']\n' : '\n]\n');
}

/**
 * A byte stream of the JSON array of `items`, with backpressure; hand it to an HTTP reply.
 * @example reply.type('application/json').send(jsonArrayStream(readExportAsJson('csv', path)))
 */
export function jsonArrayStream(items: AsyncIterable<unknown> | Iterable<unknown>): Readable {
  return Readable.from(jsonArrayText(items), { objectMode: false, encoding: 'utf8' });
}
