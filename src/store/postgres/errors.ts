/**
 * Telling "PostgreSQL is not there right now" apart from a bug. The store rethrows the first kind as
 * StoreUnavailableError so the HTTP layer answers 503 (and /ready fails) instead of 500; the pool
 * drops the broken connections and opens new ones once the server is back.
 */
// Recognising an outage is shared by every backend.
import { isStoreUnavailable } from '../unavailable.ts';

/** Thrown by the PostgreSQL store when the database cannot be reached or went away mid-query. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
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
