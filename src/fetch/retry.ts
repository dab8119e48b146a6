/**
 * Retry timing: exponential backoff with jitter, and the Retry-After header.
 */

/**
 * Delay before attempt `attempt + 1` (attempt counts from 0): base·2^attempt capped at `max`,
 * then "equal jitter" (half fixed, half random) so retries of many items spread out but never
 * collapse to zero.
 *
 * @example
 *   backoffDelay(0, 500, 10_000) // 250..500
 *   backoffDelay(5, 500, 10_000) // 5000..10000
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const d = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(d / 2 + random() * (d / 2));
}

/**
 * Retry-After (delta-seconds or an HTTP date) → milliseconds from now, or undefined when absent
 * or unreadable. A date in the past gives 0.
 *
 * @example
 *   parseRetryAfter('120') // 120000
 *   parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) // 60000
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/**
 * Waits `ms`, rejecting early with the signal's reason when it aborts.
 *
 * @example
 *   await sleep(250, signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const FINAL = Symbol('trawl.fetch.final');

/**
 * Marks an error that retrying cannot fix (a too-large body, a replay miss), even though its type
 * is retryable for the engine in general.
 *
 * @example
 *   throw markFinal(new SourceError('network', 'no recorded response for GET ...'));
 */
export function markFinal<E extends Error>(e: E): E {
  Object.defineProperty(e, FINAL, { value: true, enumerable: false });
  return e;
}

/** True for errors marked with `markFinal`. */
export function isFinal(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[FINAL] === true;
}

/** DNS answers that a name does not exist (NXDOMAIN) or has no address: asking again gives the same
 *  answer. EAI_AGAIN (resolver unreachable, SERVFAIL) is transient and stays retryable. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * `e` marked final when it (or an error it was caused by) says the name does not resolve, so neither
 * the executor nor the engine retries it: the query fails at once with that reason.
 *
 * @example finalIfNoSuchName(new SourceError('network', 'ENOTFOUND ...', { cause: dnsError }))
 */
export function finalIfNoSuchName<E extends Error>(e: E): E {
  for (let c: unknown = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    if (NO_SUCH_NAME.has((c as NodeJS.ErrnoException).code ?? '')) return markFinal(e);
  }
  return e;
}
