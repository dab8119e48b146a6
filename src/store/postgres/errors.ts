/**
 * Telling "PostgreSQL is not there right now" apart from a bug. The store rethrows the first kind as
 * StoreUnavailableError so the HTTP layer answers 503 (and /ready fails) instead of 500; the pool
 * drops the broken connections and opens new ones once the server is back.
 */

/** Thrown by the PostgreSQL store when the database cannot be reached or went away mid-query. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

// Node socket errors seen when the server is down, restarting or unreachable.
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

// SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention: admin/crash shutdown,
// cannot connect now, database dropped), plus 53300 (too many connections), which a retry later fixes.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '53300']);

// node-postgres reports some losses only in the message.
const MESSAGES = [
  'connection terminated',
  'timeout exceeded when trying to connect',
  'client has encountered a connection error and is not queryable',
  'client was closed and is not queryable',
  'connection timeout',
  'the database system is starting up',
  'the database system is shutting down',
];

/**
 * True when `e` (or its cause) means the database is unreachable, not that the query was wrong.
 *
 * @example
 *   try { await store.getRequest(id) } catch (e) { if (isStoreUnavailable(e)) return reply.code(503).send(...) }
 */
export function isStoreUnavailable(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    if (x instanceof StoreUnavailableError) return true;
    const err = x as { code?: unknown; message?: unknown; errors?: unknown };
    const code = typeof err.code === 'string' ? err.code : '';
    if (NET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return true;
    const msg = typeof err.message === 'string' ? err.message.toLowerCase() : '';
    if (MESSAGES.some((m) => msg.includes(m))) return true;
    // AggregateError from a dual-stack connect (127.0.0.1 and ::1 both refused).
    if (Array.isArray(err.errors) && err.errors.length && err.errors.every((y) => isStoreUnavailable(y))) return true;
  }
  return false;
}

/**
 * Wraps an unavailability error in StoreUnavailableError; returns anything else unchanged.
 *
 * @example throw asStoreError(e)
 */
export function asStoreError(e: unknown): unknown {
  if (e instanceof StoreUnavailableError || !isStoreUnavailable(e)) return e;
  const m = (e as Error)?.message || (e as { code?: string })?.code || 'unknown error';
  return new StoreUnavailableError(`PostgreSQL unavailable: ${m}`, { cause: e });
}
