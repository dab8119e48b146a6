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

export interface ShapeOptions {
  flat?: boolean;
  fields?: string[];
  dropDuplicates?: boolean;
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

/** Yields the JSON text of the `data` array, chunk by chunk. `errors` collects failed queries. */
export async function* dataChunks(results: AsyncIterable<QueryResult>, o: ShapeOptions, errors: { query: string; error: string }[] = []): AsyncGenerator<string> {
  const flat = !!(o.flat || o.dropDuplicates);
  const pick = o.fields ? pickFields(o.fields) : null;
  const unique = o.dropDuplicates ? firstOfEach() : null;
  yield '[';
  let first = true;
  for await (const r of results) {
    if (r.error) errors.push({ query: r.query, error: r.error });
    let json = r.recordsJson;
    if (pick || unique) {
      let records = JSON.parse(json) as Record<string, unknown>[];
      if (unique) records = records.filter(unique);
      json = JSON.stringify(pick ? records.map(pick) : records);
    }
    if (flat) {
      const inner = json.trim().slice(1, -1).trim();
      if (!inner) continue;
      yield first ? inner : `,${inner}`;
    } else {
      yield first ? json : `,${json}`;
    }
    first = false;
  }
  yield ']';
}
