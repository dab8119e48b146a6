/**
 * Failed authentications per client address: a token bucket that only failures draw from. An address
 * that spent its bucket is answered 429 before its key is even looked at, so guessing keys, or
 * flooding the API with unauthenticated calls, costs the server next to nothing.
 *
 * Held in this process's memory: with several API instances, each counts its own failures.
 *
 * @example
 *   const gate = new AuthFailureGate(1, 60);
 *   if (gate.retryAfterSec(ip) > 0) reply 429; ... on a 401: gate.failed(ip);
 */
import { retryAfterSec } from '../billing/rate-limit.ts';

/** Beyond this many tracked addresses, buckets that are full again are forgotten. */
const MAX_TRACKED = 50_000;

export class AuthFailureGate {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSec: number, private readonly burst: number, private readonly now: () => number = Date.now) {}

  private level(address: string, t: number): { tokens: number; at: number } | undefined {
    const b = this.buckets.get(address);
    if (b) {
      // A clock that stepped back refills nothing (and takes nothing away).
      b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, t - b.at) / 1000) * this.perSec);
      b.at = Math.max(b.at, t);
    }
    return b;
  }

  /** 0 while `address` may still try; otherwise the whole seconds until its next failure is allowed. */
  retryAfterSec(address: string): number {
    const b = this.level(address, this.now());
    return !b || b.tokens >= 1 ? 0 : retryAfterSec(b.tokens, this.perSec);
  }

  /** Counts one failed authentication of `address`. */
  failed(address: string): void {
    const t = this.now();
    const b = this.level(address, t) ?? { tokens: this.burst, at: t };
    b.tokens = Math.max(0, b.tokens - 1);
    this.buckets.set(address, b);
    if (this.buckets.size > MAX_TRACKED) this.prune(t);
  }

  private prune(t: number): void {
    for (const [a, b] of this.buckets) if (b.tokens + (Math.max(0, t - b.at) / 1000) * this.perSec >= this.burst) this.buckets.delete(a);
  }
}
