/**
 * At most N holders per key (per mail domain): mail servers throttle, tarpit or blocklist clients that
 * open many sessions at once, so probes of one domain queue while other domains proceed. The
 * executor's per-host semaphore without its rate part.
 */
import { HostLimiter } from '../../fetch/limits.ts';

export class KeyedLimiter {
  private readonly keys: HostLimiter;
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    this.keys = new HostLimiter({ concurrency: limit, rps: 0 });
  }

  /**
   * Waits for a slot of `key` (FIFO) and returns its release function (a second call does nothing).
   * Rejects with the signal's reason if aborted while waiting.
   * @example const release = await limiter.acquire('example.com'); try { ... } finally { release(); }
   */
  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    return this.keys.acquire(key, signal);
  }

  /** Sessions running now for `key` (for tests and metrics). */
  running(key: string): number {
    return this.keys.inFlight(key);
  }
}
