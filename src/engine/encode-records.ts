/**
 * A query's records as the JSON text its completion stores, encoded ENCODE_SLICE records a turn
 * (issue 39): JSON.stringify of an area query's 5,000 full map places (about 12 MB) held the API
 * thread about 0.4 s on a loaded box, and the store's one Buffer.from of that text as long again
 * (docs/performance/areas.md). A big text comes with its UTF-8 bytes, encoded a slice a turn too,
 * which the stores use instead of encoding it again (ItemOutcome.recordsUtf8).
 *
 * The text is the same, byte for byte, as JSON.stringify(records): an array's elements joined by
 * commas, an element without JSON text (undefined, a function) written as null, as JSON.stringify
 * writes them (an element's own toJSON is called with "" rather than its index: records are data,
 * none reads that key).
 *
 * @example await encodeRecords([{ a: 1 }, { b: 2 }]) // { json: '[{"a":1},{"b":2}]' }
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Records encoded in one turn: full map places (stringified and encoded as UTF-8) took 40-80 ms a
 *  slice of 200 at load 16 on 2 cores, so 100. */
export const ENCODE_SLICE = 100;

export interface EncodedRecords {
  json: string;
  /** The UTF-8 bytes of `json`, when it took more than one slice; else the store encodes it. */
  utf8?: Buffer;
}

export async function encodeRecords(records: readonly unknown[], slice = ENCODE_SLICE): Promise<EncodedRecords> {
  if (records.length <= slice) return { json: JSON.stringify(records) };
  // Concatenated, not joined: the text stays a rope that no one flattens on the way to the store
  // (the stores take the bytes), so no whole copy of it is made here.
  let json = '';
  const bytes: Buffer[] = [];
  for (let i = 0; i < records.length; i += slice) {
    if (i) await nextTurn();
    const end = Math.min(records.length, i + slice);
    let text = i ? ',' : '[';
    for (let j = i; j < end; j++) text += (j > i ? ',' : '') + (JSON.stringify(records[j]) ?? 'null');
    if (end === records.length) text += ']';
    json += text;
    bytes.push(Buffer.from(text));
  }
  await nextTurn();
  return { json, utf8: Buffer.concat(bytes) };
}
