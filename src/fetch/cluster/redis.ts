/**
 * The cluster store in Redis (chosen with REDIS_URL, like the queue). Each operation is one Lua
 * script, atomic, on the Redis server's clock (TIME), so one lease is one round trip and two
 * processes can never reserve the same start.
 *
 * Keys under `<prefix>:cl:`: `pace:<key>` a hash {next, paused} that expires a minute after its last
 * reserved start; `st` a hash of shared states (`ns\nkey` → `version|expires|value`), `log` a sorted
 * set of the same fields by version (the change feed), `ver` the version counter, `members` a
 * sorted set of process ids by the time they stop counting.
 */
import { Redis } from 'ioredis';
import type { ClusterStore, SharedEntry, SlotLease } from './store.ts';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`;

// KEYS[1] pace hash; ARGV count, gap. Returns {firstIn, pausedFor} as strings (Lua numbers reply as integers).
const LEASE = `${NOW}
local count = tonumber(ARGV[1])
local gap = tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'next', 'paused')
local nxt = tonumber(h[1]) or 0
local paused = tonumber(h[2]) or 0
local first = math.max(now, nxt, paused)
local last = first + count * gap
redis.call('HSET', KEYS[1], 'next', string.format('%.17g', last), 'paused', string.format('%.17g', paused))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(last, paused) - now) + 60000)
return {string.format('%.17g', first - now), string.format('%.17g', math.max(0, paused - now))}`;

// KEYS[1] pace hash; ARGV pause ms.
const PAUSE = `${NOW}
local until_ = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('HGET', KEYS[1], 'paused')) or 0
if until_ > paused then redis.call('HSET', KEYS[1], 'paused', string.format('%.17g', until_)) end
local ttl = redis.call('PTTL', KEYS[1])
local want = math.ceil(until_ - now) + 60000
if ttl < want then redis.call('PEXPIRE', KEYS[1], want) end
return 1`;

// KEYS st, log, ver; ARGV field, value, ttl. The log keeps the last 10000 versions.
const PUT = `${NOW}
local v = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[1], v .. '|' .. string.format('%.17g', now + tonumber(ARGV[3])) .. '|' .. ARGV[2])
redis.call('ZADD', KEYS[2], v, ARGV[1])
if v % 1000 == 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', v - 10000)
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    local e = tonumber(string.match(all[i + 1], '^%d+|([^|]+)|'))
    if e and e < now then redis.call('HDEL', KEYS[1], all[i]) end
  end
end
return v`;

// KEYS st, log, ver; ARGV cursor ('' = everything). Returns {cursor, field, value, left, ...}.
const CHANGES = `${NOW}
local ver = redis.call('GET', KEYS[3]) or '0'
local out = {ver}
local fields
if ARGV[1] == '' then
  fields = redis.call('HKEYS', KEYS[1])
else
  fields = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf', 'LIMIT', 0, 5000)
end
for _, f in ipairs(fields) do
  local raw = redis.call('HGET', KEYS[1], f)
  if raw then
    local e, val = string.match(raw, '^%d+|([^|]+)|(.*)$')
    local left = tonumber(e) - now
    if left > 0 then
      table.insert(out, f)
      table.insert(out, val)
      table.insert(out, string.format('%.17g', left))
    end
  end
end
return out`;

// KEYS members; ARGV id, ttl (or '' to leave).
const HEARTBEAT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[2] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], 3600000)
return redis.call('ZCARD', KEYS[1])`;

type Scripted = Redis & {
  clLease(key: string, count: number, gap: number): Promise<[string, string]>;
  clPause(key: string, ms: number): Promise<number>;
  clPut(st: string, log: string, ver: string, field: string, value: string, ttl: number): Promise<number>;
  clChanges(st: string, log: string, ver: string, cursor: string): Promise<string[]>;
  clHeartbeat(members: string, id: string, ttl: string): Promise<number>;
};

export interface RedisClusterStoreOptions {
  url: string;
  /** Key prefix, as REDIS_PREFIX (default 'trawl'). */
  prefix?: string;
}

export class RedisClusterStore implements ClusterStore {
  readonly kind = 'redis' as const;
  private readonly redis: Scripted;
  private readonly p: string;

  constructor(o: RedisClusterStoreOptions) {
    this.p = `${o.prefix ?? 'trawl'}:cl`;
    // One retry, no offline queue: a call during an outage fails at once and the caller paces alone
    // (./link.ts) instead of piling up requests behind a reconnect.
    this.redis = new Redis(o.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectionName: `${this.p}:trawl-cluster` }) as Scripted;
    this.redis.on('error', () => undefined); // reported by the failing calls (the link logs the outage once)
    this.redis.defineCommand('clLease', { numberOfKeys: 1, lua: LEASE });
    this.redis.defineCommand('clPause', { numberOfKeys: 1, lua: PAUSE });
    this.redis.defineCommand('clPut', { numberOfKeys: 3, lua: PUT });
    this.redis.defineCommand('clChanges', { numberOfKeys: 3, lua: CHANGES });
    this.redis.defineCommand('clHeartbeat', { numberOfKeys: 1, lua: HEARTBEAT });
  }

  /** Resolves once connected (the first calls would otherwise fail: no offline queue). */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`redis cluster store: not connected within ${timeoutMs} ms`)), timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  async lease(key: string, count: number, gapMs: number): Promise<SlotLease> {
    const [first, paused] = await this.redis.clLease(`${this.p}:pace:${key}`, count, gapMs);
    return { firstInMs: Number(first), gapMs, count, pausedForMs: Number(paused) };
  }

  async pause(key: string, pauseMs: number): Promise<void> {
    await this.redis.clPause(`${this.p}:pace:${key}`, Math.max(0, pauseMs));
  }

  async put(ns: string, key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.clPut(`${this.p}:st`, `${this.p}:log`, `${this.p}:ver`, `${ns}\n${key}`, value, ttlMs);
  }

  async changes(cursor: string | undefined): Promise<{ cursor: string; entries: SharedEntry[] }> {
    const out = await this.redis.clChanges(`${this.p}:st`, `${this.p}:log`, `${this.p}:ver`, cursor ?? '');
    const entries: SharedEntry[] = [];
    for (let i = 1; i + 2 < out.length; i += 3) {
      const f = out[i]!;
      const nl = f.indexOf('\n');
      entries.push({ ns: f.slice(0, nl), key: f.slice(nl + 1), value: out[i + 1]!, expiresInMs: Number(out[i + 2]) });
    }
    return { cursor: out[0]!, entries };
  }

  async heartbeat(id: string, ttlMs: number): Promise<number> {
    return this.redis.clHeartbeat(`${this.p}:members`, id, String(ttlMs));
  }

  async leave(id: string): Promise<void> {
    await this.redis.clHeartbeat(`${this.p}:members`, id, '');
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
