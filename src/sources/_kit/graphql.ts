/**
 * GraphQL as sites serve it to their own pages: requests with a full `query` or a persisted-query
 * hash (`extensions.persistedQuery.sha256Hash`, Apollo's automatic persisted queries), sent as a
 * POST body (one operation or a batch array) or as a GET URL; answers read into `data` or a typed
 * `GraphqlError`. A persisted hash the server no longer knows, or a query its schema rejects, is
 * `stale_request` (retryable): the adapter can catch `GraphqlError` with that `code` and resend
 * the full query or a fresh hash.
 *
 * @example
 *   const step = graphqlStep('reviews', 'https://site.example/graphql', { operationName: 'Reviews', variables: { id, after }, sha256Hash: HASH });
 *   const data = readGraphql<{ business: { reviews: unknown } }>(response.body);
 */
import type { Step } from './adapter.ts';
import { SourceError, type SourceErrorType } from './errors.ts';
import { stripXssi } from './xssi.ts';

/** One operation. Give `query`, `sha256Hash`, or both (APQ: the hash first, the query on a miss). */
export interface GraphqlOperation {
  operationName?: string;
  query?: string;
  variables?: Record<string, unknown>;
  /** sha256 of the query text, as the site's own client registered it. */
  sha256Hash?: string;
  /** Extra `extensions` fields some servers expect beside `persistedQuery`. */
  extensions?: Record<string, unknown>;
}

/**
 * The JSON payload of one operation (fields left out when not given).
 * @example graphqlPayload({ operationName: 'Q', sha256Hash: 'ab' }) // { operationName: 'Q', variables: {}, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }
 */
export function graphqlPayload(op: GraphqlOperation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (op.operationName) out.operationName = op.operationName;
  out.variables = op.variables ?? {};
  if (op.query) out.query = op.query;
  const ext = { ...(op.extensions ?? {}), ...(op.sha256Hash ? { persistedQuery: { version: 1, sha256Hash: op.sha256Hash } } : {}) };
  if (Object.keys(ext).length) out.extensions = ext;
  if (!op.query && !op.sha256Hash) throw new Error('a GraphQL operation needs a query or a sha256Hash');
  return out;
}

/** The POST body: one operation, or a batch array when given several. */
export function graphqlBody(op: GraphqlOperation | GraphqlOperation[]): string {
  return JSON.stringify(Array.isArray(op) ? op.map(graphqlPayload) : graphqlPayload(op));
}

/**
 * The GET form: `operationName`, `variables` and `extensions` JSON-encoded as query parameters
 * (and `query` when given), added to the endpoint's own parameters.
 * @example graphqlUrl('https://x.example/graphql', { operationName: 'Q', variables: { a: 1 }, sha256Hash: 'ab' })
 */
export function graphqlUrl(endpoint: string, op: GraphqlOperation): string {
  const u = new URL(endpoint);
  for (const [k, v] of Object.entries(graphqlPayload(op))) u.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return u.toString();
}

/** A step that sends the operation(s): POST JSON by default, GET with `method: 'GET'` (one operation). */
export function graphqlStep(kind: string, endpoint: string, op: GraphqlOperation | GraphqlOperation[], o: { method?: 'GET' | 'POST'; headers?: Record<string, string>; state?: Record<string, unknown> } = {}): Step {
  const get = o.method === 'GET';
  if (get && Array.isArray(op)) throw new Error('a GraphQL batch is sent with POST');
  return {
    kind,
    url: get ? graphqlUrl(endpoint, op as GraphqlOperation) : endpoint,
    method: get ? 'GET' : 'POST',
    headers: { accept: 'application/json', ...(get ? {} : { 'content-type': 'application/json' }), ...(o.headers ?? {}) },
    ...(get ? {} : { body: graphqlBody(op) }),
    expect: 'json',
    ...(o.state ? { state: o.state } : {}),
  };
}

/** One entry of an answer's `errors`. */
export interface GraphqlErrorEntry {
  message: string;
  code: string | null;
  path: Array<string | number> | null;
}

/** Why an answer carried no data, as far as adapters care. */
export type GraphqlErrorCode = 'persisted_query_not_found' | 'validation' | 'rate_limited' | 'unauthorized' | 'not_found' | 'server' | 'no_data';

/** An answer without data: `code` says why, `errors` are the server's own entries. */
export class GraphqlError extends SourceError {
  readonly code: GraphqlErrorCode;
  readonly errors: GraphqlErrorEntry[];
  constructor(code: GraphqlErrorCode, errors: GraphqlErrorEntry[], message: string) {
    super(TYPE_OF[code], message);
    this.name = 'GraphqlError';
    this.code = code;
    this.errors = errors;
  }
}

const TYPE_OF: Record<GraphqlErrorCode, SourceErrorType> = {
  persisted_query_not_found: 'stale_request',
  validation: 'stale_request',
  rate_limited: 'rate_limited',
  unauthorized: 'blocked',
  not_found: 'not_found',
  server: 'network',
  no_data: 'layout_changed',
};

function entriesOf(v: unknown): GraphqlErrorEntry[] {
  if (!Array.isArray(v)) return [];
  return v.map((e) => {
    const o = (e && typeof e === 'object' ? e : { message: String(e) }) as Record<string, any>;
    // Apollo: extensions.code; graphql-java servers: extensions.classification (e.g. ValidationError).
    const code = o.extensions?.code ?? o.extensions?.errorType ?? o.extensions?.classification ?? o.code ?? null;
    return { message: typeof o.message === 'string' ? o.message : JSON.stringify(o).slice(0, 200), code: code === null ? null : String(code), path: Array.isArray(o.path) ? o.path : null };
  });
}

function codeOf(errors: GraphqlErrorEntry[]): GraphqlErrorCode {
  const has = (re: RegExp) => errors.some((e) => re.test(e.code ?? '') || re.test(e.message));
  if (has(/PERSISTED_?QUERY_?NOT_?FOUND|PersistedQueryNotFound|PersistedQueryNotSupported/i)) return 'persisted_query_not_found';
  if (has(/GRAPHQL_(VALIDATION_FAILED|PARSE_FAILED)|^ValidationError$|^Cannot query field|^Unknown (argument|type|fragment)|^Variable "\$|^Field "[^"]+" (argument|of type)|^Syntax Error/i)) return 'validation';
  if (has(/RATE[_ ]?LIMIT|THROTTL|too many requests/i)) return 'rate_limited';
  if (has(/UNAUTHENTICATED|FORBIDDEN|UNAUTHORI[SZ]ED|not authori[sz]ed|login required/i)) return 'unauthorized';
  if (has(/NOT_?FOUND|does not exist|not found/i)) return 'not_found';
  if (has(/INTERNAL_SERVER_ERROR|SERVICE_UNAVAILABLE|timeout|timed out/i)) return 'server';
  return 'no_data';
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(stripXssi(body));
  } catch {
    throw new GraphqlError('no_data', [], `GraphQL answer is not JSON: ${body.slice(0, 80)}`);
  }
}

/**
 * The value (parsed) is a GraphQL answer, or a batch with one: an object with `data` or `errors`.
 * @example isGraphqlAnswer([{ data: {} }]) // true
 */
export function isGraphqlAnswer(v: unknown): boolean {
  const one = (a: unknown) => !!a && typeof a === 'object' && !Array.isArray(a) && ('data' in a || 'errors' in a);
  return Array.isArray(v) ? v.some(one) : one(v);
}

/** `data` of one answer object, or the GraphqlError it stands for. */
function dataOf<T>(answer: unknown, label: string): T {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new GraphqlError('no_data', [], `${label}: not a GraphQL answer object`);
  const o = answer as Record<string, unknown>;
  const errors = entriesOf(o.errors);
  // Partial answers (data beside errors) keep the data: a missing branch is a null field.
  if (o.data !== null && o.data !== undefined && typeof o.data === 'object') return o.data as T;
  const code = codeOf(errors);
  const msg = errors.length ? errors.map((e) => (e.code ? `${e.code}: ${e.message}` : e.message)).join('; ').slice(0, 300) : 'no data and no errors';
  throw new GraphqlError(code, errors, `${label}: ${msg}`);
}

/**
 * The `data` of an answer (text or parsed; a batch array gives its first answer's data). Throws
 * `GraphqlError` when there is no data: `stale_request` for an unknown persisted hash or a query the
 * schema rejects, `rate_limited`, `blocked`, `not_found`, `network` (server error), else `layout_changed`.
 * @example readGraphql('{"data":{"a":1}}') // { a: 1 }
 */
export function readGraphql<T = any>(body: unknown): T {
  const v = parseBody(body);
  if (Array.isArray(v)) {
    if (!v.length) throw new GraphqlError('no_data', [], 'GraphQL batch answer is empty');
    return dataOf<T>(v[0], 'GraphQL answer');
  }
  return dataOf<T>(v, 'GraphQL answer');
}

/**
 * The `data` of every answer of a batch (a single answer counts as a batch of one); throws on the
 * first answer without data, naming its position.
 * @example readGraphqlBatch('[{"data":{"a":1}},{"data":{"a":2}}]').length // 2
 */
export function readGraphqlBatch<T = any>(body: unknown): T[] {
  const v = parseBody(body);
  const list = Array.isArray(v) ? v : [v];
  return list.map((a, i) => dataOf<T>(a, `GraphQL answer ${i + 1} of ${list.length}`));
}

const HEX64 = '([0-9a-f]{64})';

/**
 * The persisted-query hash a page (HTML or script text) names for `operation`: a preloaded
 * `.../<operation>/<hash>` URL, or the operation declared within a few hundred characters of its
 * `sha256Hash` / `operationId` / `documentId` (before or after the name); null when it names none.
 * Embedded JSON is often HTML-escaped, so `&quot;` is read as `"` first.
 * @example persistedHashOf('{"operationName":"Q","sha256Hash":"' + 'a'.repeat(64) + '"}', 'Q') // 'aaaa…'
 */
export function persistedHashOf(page: string, operation: string): string | null {
  const text = page.includes('&quot;') ? page.replace(/&quot;/g, '"') : page;
  const op = operation.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const direct = new RegExp(`${op}/${HEX64}`).exec(text);
  if (direct) return direct[1];
  const key = `(?:sha256Hash|operationId|documentId)["']?\\s*:\\s*["']${HEX64}["']`;
  for (let i = text.indexOf(operation); i >= 0; i = text.indexOf(operation, i + 1)) {
    const after = new RegExp(`^[\\s\\S]{0,400}?${key}`).exec(text.slice(i, i + 600));
    if (after) return after[1];
    const before = new RegExp(`${key}[^{}]{0,200}$`).exec(text.slice(Math.max(0, i - 300), i));
    if (before) return before[1];
  }
  return null;
}

/**
 * An HTML page where a GraphQL endpoint's JSON was expected is a bot wall or an interstitial the
 * executor's detection did not type (e.g. a challenge served with 200): `blocked`, so the query is
 * retried with a fresh session (on another proxy when there are several), never read as "no data".
 * Returns null for a body that is not HTML.
 * @example htmlInPlaceOfAnswer('<!DOCTYPE html><title>Just a moment...</title>', 200, 'Reviews')?.type // 'blocked'
 */
export function htmlInPlaceOfAnswer(body: string, status: number, label: string): SourceError | null {
  if (!/^\s*</.test(body)) return null;
  const title = /<title[^>]*>([^<]{0,80})/i.exec(body)?.[1]?.trim();
  return new SourceError('blocked', `${label}: HTTP ${status}, an HTML page${title ? ` ("${title}")` : ''} in place of the GraphQL answer`);
}
