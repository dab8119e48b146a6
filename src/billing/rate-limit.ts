/**
 * Per-account rate limit (decision 21): a token bucket averaging `ratePerSec` with room for `burst`.
 * The in-memory limiter serves one process; with Redis configured the Redis limiter holds the bucket
 * so the limit spans every API instance.
 *
 * @example
 *   const rl = new MemoryRateLimiter();
 *   const r = await rl.take('acct', 20, 40); // { ok: true, retryAfterSec: 0 }
 */
export interface RateDecision {
  ok: boolean;
  /** Whole seconds until one token is back (for `Retry-After`). */
  retryAfterSec: number;
}

export interface RateLimiter {
  take(key: string, ratePerSec: number, burst: number): Promise<RateDecision>;
  close?(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, ratePerSec: number, burst: number): Promise<RateDecision> {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * ratePerSec);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true, retryAfterSec: 0 };
    }
    return { ok: false, retryAfterSec: retryAfterSec(b.tokens, ratePerSec) };
  }
}

/** Whole seconds until a bucket holding `tokens` (< 1) has one token again, at least 1. */
export function retryAfterSec(tokens: number, ratePerSec: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / ratePerSec));
}
