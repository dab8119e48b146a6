/**
 * Streams a finished request's `data` as JSON text, shaped as asked: one array per query (default),
 * one flat array (`flat`, or `dropDuplicates` per interface 4.2), only some `fields`. Stored result
 * text is passed through untouched when no shaping is asked, so a 1000 x 500 result costs no parse.
 *
 * @example
 *   for await (const chunk of dataChunks(store.readResults(id), { flat: true })) res.write(chunk);
 */
import type { QueryResult } from '../store/contract.ts';
import { firstOfEach } from '../engine/dedupe.ts';
import { firstOfEachEmail } from '../engine/selection.ts';
import { splitNote, type StubCounts } from '../engine/note.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

type Keep = (r: Record<string, unknown>) => boolean;
/** Both tests (each one sees only what the other kept), or the one given, or null. */
export const both = (a: Keep | null, b: Keep | null): Keep | null => (a && b ? (r) => a(r) && b(r) : a ?? b);

export interface ShapeOptions {
  flat?: boolean;
  fields?: string[];
  dropDuplicates?: boolean;
  /** A task's dropEmailDuplicates: places whose e-mail address an earlier place had are left out (./selection.ts). */
  dropEmailDuplicates?: boolean;
}

function pickFields(fields: string[]): (r: unknown) => unknown {
  return (r) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) return r;
    const o: Record<string, unknown> = {};
    for (const f of fields) if (f in (r as object)) o[f] = (r as Record<string, unknown>)[f];
    return o;
  };
}

/** `fields=a, b,,c` → ['a', 'b', 'c']; undefined for none. */
export function parseFields(v: unknown): string[] | undefined {
  if (typeof v !== 'string') return undefined;
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : undefined;
}

/** A failed (or early-ended) query, as the `errors` array of a request shows it. */
export interface QueryError {
  query: string;
  error: { type: string; message: string };
}

/**
 * A stored reason `<type>: <message>` as `{type, message}`; text without a type reads as internal.
 *
 * @example reasonOf('network: ENOTFOUND example.com') // { type: 'network', message: 'ENOTFOUND example.com' }
 */
export function reasonOf(stored: string): { type: string; message: string } {
  const m = /^([a-z_]+): ([\s\S]*)$/.exec(stored);
  return m ? { type: m[1], message: m[2] } : { type: 'internal', message: stored };
}

/** An area query's coverage as the `areas` field lists it. */
export interface QueryArea { query: string; [k: string]: unknown }

/** The records inside an array text (`[a,b]` → `a,b`), or inside its UTF-8 bytes. */
function inner(json: string | Buffer): string | Buffer {
  if (typeof json === 'string') return json.trim().slice(1, -1).trim();
  const blank = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
  let a = 0, z = json.length;
  while (a < z && blank(json[a])) a++;
  while (z > a && blank(json[z - 1])) z--;
  a++; z--;
  while (a < z && blank(json[a])) a++;
  while (z > a && blank(json[z - 1])) z--;
  return a < z ? json.subarray(a, z) : Buffer.alloc(0);
}

/**
 * Characters (or bytes) of one query's text a chunk carries at most: a query of 20,000 places is
 * 49 MB, and as one chunk the socket's encoding alone held the API thread 0.7 s (issue 39); in
 * slices, yieldEvery gives other requests a turn between them.
 */
export const SLICE = 256 * 1024;

/** A text (or its bytes) in slices of about `SLICE`; a string is never cut inside a surrogate pair
 *  (each slice is encoded on its own, and half a pair would be sent as U+FFFD). */
export function* slices(v: string | Buffer, size = SLICE): Generator<string | Buffer> {
  if (v.length <= size) return yield v;
  for (let a = 0; a < v.length;) {
    let z = Math.min(a + size, v.length);
    if (typeof v !== 'string') yield v.subarray(a, z);
    else {
      if (z < v.length && (v.charCodeAt(z - 1) & 0xfc00) === 0xd800) z += z - 1 > a ? -1 : 1;
      yield v.slice(a, z);
    }
    a = z;
  }
}

/**
 * The records of an array text (or its UTF-8 bytes) as array texts of about `size` characters or
 * more each, cut at a comma between two records: a shaped read parses, shapes and writes a slice of
 * records at a time. UTF-8 bytes can be cut on ASCII: no byte of a multi-byte character is one.
 *
 * @example [...recordSlices('[1,{"a":[2,3]},4]', 1)] // ['[1]', '[{"a":[2,3]}]', '[4]']
 */
export function* recordSlices(v: string | Buffer, size = SLICE): Generator<string> {
  const body = inner(v);
  const text = (a: number, z: number) => `[${typeof body === 'string' ? body.slice(a, z) : body.toString('utf8', a, z)}]`;
  let depth = 0, inString = false, escaped = false, start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = typeof body === 'string' ? body.charCodeAt(i) : body[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 0 && i - start >= size) {
      yield text(start, i);
      start = i + 1;
    }
  }
  yield text(start, body.length);
}

/**
 * Yields the JSON text of the `data` array, chunk by chunk. `errors` collects failed queries. A
 * query stored in parts (QueryResult.more) is joined into one array without ever being one string.
 * A query passed through whole comes as its UTF-8 bytes when the result has them (recordsUtf8), and
 * a big one in slices (SLICE).
 */
export async function* dataChunks(results: AsyncIterable<QueryResult>, o: ShapeOptions, errors: QueryError[] = [], areas: QueryArea[] = [], stubs: StubCounts = { retried: 0, served: 0 }): AsyncGenerator<string | Buffer> {
  const flat = !!(o.flat || o.dropDuplicates);
  const pick = o.fields ? pickFields(o.fields) : null;
  const unique = both(o.dropDuplicates ? firstOfEach() : null, o.dropEmailDuplicates ? firstOfEachEmail() : null);
  yield '[';
  let first = true;
  // Inside a query's parts: whether it is open (its '[' written) and has records yet.
  let open = false;
  let filled = false;
  for await (const r of results) {
    if (r.error && !r.more) {
      const { reason, summary, stubs: st } = splitNote(r.error);
      if (reason) errors.push({ query: r.query, error: reasonOf(reason) });
      if (summary) areas.push({ query: r.query, ...summary });
      if (st) {
        stubs.retried += st.retried;
        stubs.served += st.served;
      }
    }
    // Unshaped, the stored text goes out as it is: its bytes when the result has them (a big
    // compressed result is never decoded to a string then), else the text.
    const json: string | Buffer = r.recordsUtf8 ?? r.recordsJson;
    if (!flat && !open && !r.more && !pick && !unique) {
      if (!first) yield ',';
      yield* slices(json);
      first = false;
      continue;
    }
    // The records inside the array, in parts joined by commas (shaped: a slice of records at a
    // time, a turn after each of a big query's slices, so 20,000 places are never parsed, shaped and
    // written in one go); each part goes out in slices.
    const parts: Iterable<string | Buffer> | AsyncIterable<string> = pick || unique ? shapedParts(json, pick, unique) : [inner(json)];
    if (flat) {
      for await (const part of parts) {
        if (!part.length) continue;
        if (!first) yield ',';
        yield* slices(part);
        first = false;
      }
      continue;
    }
    if (!open) { yield first ? '[' : ',['; first = false; open = true; filled = false; }
    for await (const part of parts) {
      if (!part.length) continue;
      if (filled) yield ',';
      yield* slices(part);
      filled = true;
    }
    if (!r.more) { yield ']'; open = false; }
  }
  yield ']';
}

/** The shaped records of one query's text, as the insides of their arrays, a slice of records at a time. */
async function* shapedParts(json: string | Buffer, pick: ((r: unknown) => unknown) | null, unique: Keep | null): AsyncGenerator<string> {
  let turn = false;
  for (const slice of recordSlices(json)) {
    if (turn) await nextTurn();
    turn = true;
    let records = JSON.parse(slice) as Record<string, unknown>[];
    if (unique) records = records.filter(unique);
    yield inner(JSON.stringify(pick ? records.map(pick) : records)) as string;
  }
}
