/**
 * The per-account token bucket (decision 21) held in Redis, so every API instance draws from the same
 * bucket. One Lua script reads, refills, takes and writes the bucket atomically; the key expires once
 * the bucket would be full again, so idle accounts cost no memory.
 *
 * Time comes from the Redis server (TIME) unless a clock is injected (tests), so API instances whose
 * clocks disagree still refill one bucket at one rate.
 *
 * When Redis cannot answer, each API process applies the account's limit itself from an in-memory
 * bucket (and warns, at most every 10 s): an outage of the limiter becomes neither an outage of the
 * API nor an open door. With N API instances an account may then get up to N times its rate.
 * Pass `failOpen: false` to throw instead (docs/operations.md, "Rate limiter without Redis").
 *
 * @example
 *   const rl = new RedisRateLimiter({ url: 'redis://127.0.0.1:6379' });
 *   const d = await rl.take(account.id, account.ratePerSec, account.burst); // { ok, retryAfterSec }
 */
import { Redis } from 'ioredis';
import { MemoryRateLimiter, retryAfterSec, type RateDecision, type RateLimiter } from './rate-limit.ts';

export interface RedisRateLimiterOptions {
  url: string;
  /** Key prefix. Default 'trawl'; buckets live at `<prefix>:rl:<key>`. */
  prefix?: string;
  /** Injected clock in ms (tests). Default: the Redis server's clock. */
  now?: () => number;
  /** When Redis is unreachable, decide from a local in-memory bucket (true, the default) or throw. */
  failOpen?: boolean;
  /** Longest wait for Redis per decision. Default 1000 ms. */
  timeoutMs?: number;
}

// KEYS[1] bucket; ARGV: rate per second, burst, now in ms (or '' for the server's clock).
// Returns {1|0, tokens left as a string} (Lua numbers would be truncated to integers in the reply).
const SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if not tokens or not at then
  tokens = burst
  at = now
end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(burst, tokens + elapsed / 1000 * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%d', math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {ok, string.format('%.17g', tokens)}
`;

type Taker = Redis & { trawlTake(key: string, rate: number, burst: number, now: string): Promise<[number, string]> };

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Taker;
  private readonly prefix: string;
  private lastWarn = 0;
  private everReady = false;
  /** This process's own buckets, used while Redis cannot answer. */
  private readonly local: MemoryRateLimiter;

  constructor(private readonly o: RedisRateLimiterOptions) {
    this.prefix = o.prefix ?? 'trawl';
    this.local = new MemoryRateLimiter(o.now);
    this.redis = new Redis(o.url, { maxRetriesPerRequest: 1, connectionName: `${this.prefix}:trawl-ratelimit` }) as Taker;
    this.redis.on('error', (e) => this.warn(e));
    this.redis.on('ready', () => { this.everReady = true; });
    // defineCommand uses EVALSHA and falls back to EVAL after a script cache flush or a Redis restart.
    this.redis.defineCommand('trawlTake', { numberOfKeys: 1, lua: SCRIPT });
  }

  private warn(e: unknown): void {
    const t = Date.now();
    if (t - this.lastWarn < 10_000) return;
    this.lastWarn = t;
    process.emitWarning(`redis rate limiter: ${(e as Error)?.message ?? String(e)}${this.o.failOpen === false ? '' : ' (limits are applied per process meanwhile)'}`);
  }

  async take(key: string, ratePerSec: number, burst: number): Promise<RateDecision> {
    if (!(ratePerSec > 0) || !(burst >= 1)) throw new Error(`rate limit needs ratePerSec > 0 and burst >= 1 (got ${ratePerSec}, ${burst})`);
    try {
      // During an outage (connected before, not now) decide at once instead of waiting for a reconnect;
      // at start-up the first calls wait, bounded by the timeout, for the first connection.
      if (this.everReady && this.redis.status !== 'ready') throw new Error(`redis rate limiter: not connected (${this.redis.status})`);
      const now = this.o.now ? String(this.o.now()) : '';
      const [ok, left] = await timeout(this.redis.trawlTake(`${this.prefix}:rl:${key}`, ratePerSec, burst, now), this.o.timeoutMs ?? 1_000);
      if (ok === 1) return { ok: true, retryAfterSec: 0 };
      return { ok: false, retryAfterSec: retryAfterSec(Number(left), ratePerSec) };
    } catch (e) {
      if (this.o.failOpen === false) throw e;
      this.warn(e);
      return this.local.take(key, ratePerSec, burst);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function timeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`redis rate limiter: no answer within ${ms} ms`)), ms); }),
  ]);
}
