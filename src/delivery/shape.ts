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

/** The records inside an array text (`[a,b]` → `a,b`). */
const inner = (json: string) => json.trim().slice(1, -1).trim();

/**
 * Yields the JSON text of the `data` array, chunk by chunk. `errors` collects failed queries. A
 * query stored in parts (QueryResult.more) is joined into one array without ever being one string.
 * A query passed through whole comes as its UTF-8 bytes when the result has them (recordsUtf8).
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
    let json = r.recordsJson;
    if (pick || unique) {
      let records = JSON.parse(json) as Record<string, unknown>[];
      if (unique) records = records.filter(unique);
      json = JSON.stringify(pick ? records.map(pick) : records);
    }
    if (flat) {
      const part = inner(json);
      if (!part) continue;
      yield first ? part : `,${part}`;
      first = false;
    } else if (!open && !r.more) {
      if (r.recordsUtf8 && json === r.recordsJson) {
        if (!first) yield ',';
        yield r.recordsUtf8;
      } else yield first ? json : `,${json}`;
      first = false;
    } else {
      if (!open) { yield first ? '[' : ',['; first = false; open = true; filled = false; }
      const part = inner(json);
      if (part) { yield filled ? `,${part}` : part; filled = true; }
      if (!r.more) { yield ']'; open = false; }
    }
  }
  yield ']';
}
