/**
 * At most N holders per key (per mail domain): mail servers throttle, tarpit or blocklist clients that
 * open many sessions at once, so probes of one domain queue while other domains proceed.
 */
export class KeyedLimiter {
  private readonly active = new Map<string, { running: number; waiting: Array<() => void> }>();
  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  }

  /**
   * Waits for a slot of `key` and returns its release function (call it exactly once).
   * Rejects with the signal's reason if aborted while waiting.
   * @example const release = await limiter.acquire('example.com'); try { ... } finally { release(); }
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let slot = this.active.get(key);
    if (!slot) {
      slot = { running: 0, waiting: [] };
      this.active.set(key, slot);
    }
    const s = slot;
    const release = (): void => {
      const next = s.waiting.shift();
      if (next) return next();
      s.running--;
      if (s.running === 0) this.active.delete(key);
    };
    if (s.running < this.limit) {
      s.running++;
      return Promise.resolve(once(release));
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(once(release));
      };
      const onAbort = (): void => {
        const i = s.waiting.indexOf(grant);
        if (i >= 0) s.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      s.waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Sessions running now for `key` (for tests and metrics). */
  running(key: string): number {
    return this.active.get(key)?.running ?? 0;
  }
}

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      f();
    }
  };
}
