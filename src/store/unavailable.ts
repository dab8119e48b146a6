/**
 * Whether an error means "the store cannot be reached right now" (answer 503, leave the work item to
 * its lease, let the client retry) rather than a bug. The one recogniser for every backend: the
 * PostgreSQL store wraps such errors as StoreUnavailableError (code STORE_UNAVAILABLE), and raw
 * driver, socket and SQLite errors are recognised here too.
 *
 * @example isStoreUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })) // true
 */

// Node socket errors seen when a server is down, restarting or unreachable.
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

// SQLSTATE 57P0x (operator intervention: admin/crash shutdown, cannot connect now, database dropped),
// class 53 (insufficient resources: 53100 disk full, 53200 out of memory, 53300 too many connections);
// class 08 (connection exception) is matched by prefix below. SQLite: a busy or locked file, a full
// disk (SQLITE_FULL), an I/O error (SQLITE_IOERR and its extended codes, SQLITE_IOERR_WRITE...).
// A full disk is an outage, not a final error: the write is retried once there is room again.
const CODES = new Set(['STORE_UNAVAILABLE', '57P01', '57P02', '57P03', '57P04', '57P05', '53000', '53100', '53200', '53300', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_NOMEM', 'ENOSPC']);

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

export function isStoreUnavailable(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    const err = x as { code?: unknown; message?: unknown; errors?: unknown };
    const code = typeof err.code === 'string' ? err.code : '';
    if (NET_CODES.has(code) || CODES.has(code) || code.startsWith('08') || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_BUSY')) return true;
    const msg = typeof err.message === 'string' ? err.message.toLowerCase() : '';
    if (MESSAGES.some((m) => msg.includes(m))) return true;
    // AggregateError from a dual-stack connect (127.0.0.1 and ::1 both refused).
    if (Array.isArray(err.errors) && err.errors.length && err.errors.every((y) => isStoreUnavailable(y))) return true;
  }
  return false;
}

/** The last outage each store met, for `/ready` (writes can fail while a ping still answers: a full disk). */
const outages = new WeakMap<object, { at: number; message: string }>();

/**
 * Remembers that `store` just failed with an outage (a no-op for other errors).
 * @example noteStoreOutage(ctx.store, e, ctx.now())
 */
export function noteStoreOutage(store: object, e: unknown, now = Date.now()): void {
  const err = refusedWrite(e);
  if (!err) return;
  outages.set(store, { at: now, message: `${typeof err.code === 'string' ? `${err.code}: ` : ''}${String(err.message ?? e).slice(0, 200)}` });
}

// Errors of a store that is reachable but refuses writes (disk full, I/O error, out of memory). A lost
// connection is not remembered: `/ready`'s ping sees it while it lasts, and sees its end at once.
const WRITE_REFUSED = new Set(['SQLITE_FULL', 'SQLITE_NOMEM', 'ENOSPC', '53000', '53100', '53200']);

function refusedWrite(e: unknown): { code?: unknown; message?: unknown } | null {
  for (let x: unknown = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && (WRITE_REFUSED.has(code) || code.startsWith('SQLITE_IOERR'))) return x as { code?: unknown; message?: unknown };
  }
  return null;
}

/** The outage `store` met within the last `windowMs`, or null. */
export function recentStoreOutage(store: object, now = Date.now(), windowMs = 30_000): { at: number; message: string } | null {
  const o = outages.get(store);
  return o && now - o.at < windowMs ? o : null;
}
