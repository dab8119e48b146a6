/**
 * The registry row every source folder exports from its `index.ts`: which endpoint it serves, how
 * to load its adapter (lazily: adapters and their data cost start-up time), which saved responses
 * `trawl parse` reads, and what its parsers were verified against. `src/sources/registry.ts` lists
 * the rows; the server, the CLI, the docs page and OpenAPI read them from there.
 *
 * @example
 *   export const source = defineSource({
 *     endpoint: '/forum-comments',
 *     adapter: async () => (await import('./adapter.ts')).adapter,
 *     capture: { kinds: ['thread page (JSON)'], parse: async () => (await import('./capture.ts')).parseCapture },
 *     verifiedBy: 'constructed samples',
 *     samples: [{ file: 'constructed-thread.json' }],
 *   });
 */
import type { SourceAdapter } from './adapter.ts';

/** Reads one saved response into the records the endpoint would return for it; throws an Error
 *  saying what it expected when the text is not such a response. */
export type CaptureParser = (text: string, query?: string) => unknown[] | Promise<unknown[]>;

/** A response the registry test parses with the row's capture parser and checks against the
 *  endpoint's declared record schema. */
export interface SourceSample {
  /** Path of the saved response: relative to the source folder (a `constructed-*` sample), or,
   *  with `fixture: true`, relative to FIXTURES_DIR (a real capture; skipped when absent). */
  file: string;
  fixture?: boolean;
  /** The query the records answer (passed to the capture parser; records carry it as `query`). */
  query?: string;
  /** For a constructed JSON sample that carries a `_comment` beside the served body: the property
   *  holding the body (a string, or JSON that is re-serialised). */
  unwrap?: string;
  /** The response holds no records by design (e.g. a page that only names what to fetch next):
   *  the check is then that it parses into none. */
  empty?: boolean;
}

/**
 * The one query `trawl canary` (src/cli/canary.ts) runs against the live site to tell an operator
 * whether the source still works: a stable public target (a famous place, an archived thread, an
 * organisation's channel) that should give the same kind of records for years. When the target
 * itself goes away the canary says `degraded` with `not_found`: choose another one here.
 */
export interface Canary {
  query: string;
  /** Request parameters as the API takes them. Keep the request small (a `limit`): it is a live request. */
  params?: Record<string, string | number | boolean>;
  /** Fewer records than this is `degraded`. */
  min: number;
  /** Record fields every record fills (not null, '' or []): one left empty is `layout_changed`. Only
   *  fields the site always has for this target. */
  fields: string[];
}

export interface SourceRow {
  /** The declared endpoint path this source serves, e.g. '/forum-comments'. */
  endpoint: string;
  /** Loads the adapter on first use. */
  adapter: () => Promise<SourceAdapter>;
  /** For `trawl parse`: the response kinds it reads, in words, and a loader of the parser. */
  capture?: { kinds: string[]; parse: () => Promise<CaptureParser> };
  /** What the parsers were checked against: 'real captures', 'constructed samples', 'shipped data'. */
  verifiedBy: 'real captures' | 'constructed samples' | 'shipped data' | (string & {});
  /** Where the source folder is (`import.meta.url` of its index.ts): resolves `samples`. */
  folder?: string;
  /** Saved responses the registry test checks against the declared record schema. */
  samples?: SourceSample[];
  /** The live check `trawl canary` runs (web sources; lookups read shipped data or mail servers). */
  canary?: Canary;
}

/**
 * Checks a row's shape once at import time (an endpoint is a path) and returns it unchanged.
 * @example defineSource({ endpoint: '/x', adapter: async () => adapter, verifiedBy: 'constructed samples' })
 */
export function defineSource(row: SourceRow): SourceRow {
  if (!row.endpoint.startsWith('/')) throw new Error(`source endpoint "${row.endpoint}" must start with /`);
  if (row.samples?.length && !row.folder) throw new Error(`source ${row.endpoint}: samples need folder (import.meta.url)`);
  const c = row.canary;
  if (c && (!c.query || !Number.isInteger(c.min) || c.min < 1 || !c.fields.length)) throw new Error(`source ${row.endpoint}: a canary needs a query, min >= 1 and the fields it checks`);
  return row;
}
