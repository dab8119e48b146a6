/**
 * Whether an error means "the store cannot be reached right now" (answer 503 and let the client
 * retry) rather than a bug: refused or dropped connections, a database shutting down or busy.
 *
 * @example isStoreUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })) // true
 */
const CODES = new Set([
  'STORE_UNAVAILABLE',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN',
  'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR',
  // PostgreSQL: admin/crash shutdown, cannot connect now, too many connections, connection failures.
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
]);

export function isStoreUnavailable(e: unknown): boolean {
  for (let cur: any = e, depth = 0; cur && depth < 5; cur = cur.cause, depth++) {
    if (typeof cur.code === 'string' && CODES.has(cur.code)) return true;
    const m = typeof cur.message === 'string' ? cur.message : '';
    if (/Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(m)) return true;
    if (Array.isArray(cur.errors) && cur.errors.some((x: unknown) => isStoreUnavailable(x))) return true;
  }
  return false;
}
