/**
 * Failed authentications per client address (and, through AuthGate, per key prefix): a token bucket that only failures draw from. An address
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

/** The part of a presented key its failures are counted under: `trw_` and 8 more characters (6 bytes
 *  of the key's 24 random ones), '' for a call with no key. */
export const keyPrefixOf = (key: string | undefined): string => (key ?? '').slice(0, 12);

/** Addresses whose good key prefixes are remembered, at most (oldest forgotten first). */
const MAX_GOOD = 50_000;

/**
 * The gate in front of authentication (issue 28): failures are counted per client address and key
 * prefix, so 60 bad keys from one address (a shared NAT, an office) no longer lock out every valid
 * key behind it. A client rotating keys (a new prefix each time) still meets the address's own bucket,
 * `wide` times larger; a key prefix that authenticated from that address before passes it.
 *
 * @example
 *   const gate = new AuthGate(1, 60);
 *   gate.retryAfterSec(ip, key) > 0 → 429; on a 401: gate.failed(ip, key); on success: gate.passed(ip, key)
 */
export class AuthGate {
  private readonly byKey: AuthFailureGate;
  private readonly byAddress: AuthFailureGate;
  private readonly good = new Map<string, Set<string>>();

  constructor(perSec: number, burst: number, now: () => number = Date.now, wide = 10) {
    this.byKey = new AuthFailureGate(perSec, burst, now);
    this.byAddress = new AuthFailureGate(perSec * wide, burst * wide, now);
  }

  /** 0 while this address may try this key; otherwise the whole seconds to wait. */
  retryAfterSec(address: string, key: string | undefined): number {
    const prefix = keyPrefixOf(key);
    const own = this.byKey.retryAfterSec(`${address} ${prefix}`);
    if (own > 0) return own;
    return this.good.get(address)?.has(prefix) ? 0 : this.byAddress.retryAfterSec(address);
  }

  failed(address: string, key: string | undefined): void {
    this.byKey.failed(`${address} ${keyPrefixOf(key)}`);
    this.byAddress.failed(address);
  }

  /** A key authenticated from `address`: its prefix passes the address's bucket from now on. */
  passed(address: string, key: string | undefined): void {
    const prefix = keyPrefixOf(key);
    let set = this.good.get(address);
    if (set?.has(prefix)) return;
    if (!set) {
      if (this.good.size >= MAX_GOOD) this.good.delete(this.good.keys().next().value!);
      set = new Set();
      this.good.set(address, set);
    }
    if (set.size < 16) set.add(prefix);
  }
}
