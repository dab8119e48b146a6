/**
 * Sessions: what makes a run of requests look like one browser. A session (an identity) has
 * generated browser headers (fixed for its lifetime), its own cookie jar and a proxy.
 *
 * Per host (`get(key, host)`), identities are pooled the way Crawlee's SessionPool does it: a work
 * item leases one of the host's identities (the same one for all its steps to that host), and an
 * identity serves many work items while it works. It is retired when its error score reaches
 * `maxErrorScore` (a block or captcha: at once; 429s and soft blocks: three more than successes
 * heal), when it is `maxAgeMs` old, after `maxUses` requests, or when its proxy is benched or left
 * the host's tier. Without a host (`get(key)`), a key has its own identity, as before pooling.
 */
import { HeaderGenerator } from 'header-generator';
import { CookieJar } from 'tough-cookie';
import { fingerprintOf, generatorBrowsers, type FetchProfile, type Fingerprint } from './fingerprint.ts';
import type { ProxyEntry, ProxyPool } from './proxy.ts';

export interface SessionHandle {
  /** The work item's key (per-key sessions), or `host#n` (pooled identities). */
  readonly key: string;
  /** How many times this key's session was retired before this one was made. */
  readonly generation: number;
  /** Generated browser headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The browser the headers name, for the handshake (undefined: undici, FETCH_PROFILE=node). */
  readonly fingerprint?: Fingerprint;
  readonly jar: CookieJar;
  /** False until the jar stored a cookie: lets a request skip the jar lookup (tens of µs). */
  hasCookies: boolean;
  /** Set with sticky rotation; round-robin picks a proxy per request instead. */
  readonly proxy?: ProxyEntry;
  retired: boolean;
  /** Pooled identities: the host they serve and the proxy tier they were made on. */
  readonly host?: string;
  readonly tier?: number;
  /** A probe of a cheaper tier: leased to one work item, never shared from the pool. */
  readonly probe?: boolean;
  uses: number;
  /** False until one of its requests got an answer: until then it sends one at a time (the
   *  executor's warm-up), and the pool lends it to other work items only after the answered ones. */
  answered: boolean;
  errorScore: number;
  readonly createdAt: number;
}

/** What an answer costs an identity's score. A block or captcha retires at once: the site has
 *  flagged this IP and fingerprint together, and the next request would meet the same wall. A 429 or
 *  soft block may be a burst rather than a verdict: it takes three without successes in between. */
export const ERROR_WEIGHTS = { blocked: 3, captcha: 3, rate_limited: 1, soft_block: 1 } as const;
export type ScoredError = keyof typeof ERROR_WEIGHTS;

export interface SessionLimits {
  /** Identities per host; work items share them beyond that. */
  poolSize: number;
  maxUses: number;
  maxAgeMs: number;
  maxErrorScore: number;
  /** What a success takes off the score. */
  errorScoreDecrement: number;
}

/** Defaults (docs/executor.md says why). */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { poolSize: 50, maxUses: 50, maxAgeMs: 3_000_000, maxErrorScore: 3, errorScoreDecrement: 0.5 };

/** How the pool gets a proxy for a new identity and checks an old one (the executor's tiers). */
export interface IdentitySource {
  /** A proxy (and its tier) for a new identity of `host`; throws when every proxy is benched. */
  proxyFor(host: string): { proxy?: ProxyEntry; tier: number; probe: boolean };
  /** False when the identity's proxy is benched for `host` or the host moved off its tier. */
  stillValid(s: SessionHandle): boolean;
  /** Lower is better: which shared identity to lease (the executor: when its proxy is free). */
  rank?(s: SessionHandle): number;
}

/** Headers a generated set may carry that we must not send as generated. */
const DROP = new Set(['connection', 'host', 'content-length', 'cookie']);

/**
 * Lower-cases generated headers, drops hop-by-hop ones, and limits Accept-Encoding to what Node
 * can decode (no zstd on Node 20).
 *
 * @example
 *   normalizeGenerated({ 'User-Agent': 'Mozilla/5.0 ...', Connection: 'keep-alive' })
 */
export function normalizeGenerated(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const name = k.toLowerCase();
    if (!DROP.has(name)) out[name] = v;
  }
  out['accept-encoding'] = 'gzip, deflate, br';
  return out;
}

/**
 * A header set whose client hints do not tell its User-Agent's story: a Firefox one with any (Firefox sends
 * none; seen in the generator's data), or a Chromium one with no
 * `sec-ch-ua` (every Chromium since 89 sends it), a Chromium version other than the User-Agent's, or
 * a headless brand. The generator's data holds about 1 such set in 250 (measured on 5,000 draws:
 * 18 without hints, 5 with `"HeadlessChrome";v="145"` or v="147" beside a Chrome/125 User-Agent).
 */
export function incoherentClientHints(h: Readonly<Record<string, string>>): boolean {
  // Firefox sends no client hints: a set that has them says two browsers at once.
  if (/Firefox\//.test(h['user-agent'] ?? '')) return h['sec-ch-ua'] !== undefined;
  const ua = /Chrome\/(\d+)/.exec(h['user-agent'] ?? '');
  if (!ua) return false;
  const ch = h['sec-ch-ua'];
  if (ch === undefined || /Headless/i.test(ch)) return true;
  const v = /"Chromium";v="(\d+)"/.exec(ch);
  return !v || v[1] !== ua[1];
}

export interface SessionPoolOptions {
  proxies: ProxyPool;
  locales: string[];
  maxSessions: number;
  /** Which browsers sessions claim to be (default `node`: undici with the browser mix's headers). */
  profile?: FetchProfile;
  /** The handshake profiles the browser-true transport has (impersonate.ts `handshakeProfiles`). */
  handshakes?: () => readonly string[];
  limits?: SessionLimits;
  identities?: IdentitySource;
  now?: () => number;
}

export class SessionPool {
  private readonly sessions = new Map<string, SessionHandle>();
  private readonly retiredCount = new Map<string, number>();
  private readonly generator: HeaderGenerator;
  private readonly opts: SessionPoolOptions;
  private readonly limits: SessionLimits;
  private readonly now: () => number;
  /** Pooled identities per host. */
  private readonly pools = new Map<string, SessionHandle[]>();
  /** The hosts each work-item key leased on (for `release`). */
  private readonly leasedHosts = new Map<string, Set<string>>();
  private made = 0;

  constructor(opts: SessionPoolOptions) {
    this.opts = opts;
    const profile = opts.profile ?? 'node';
    this.limits = opts.limits ?? DEFAULT_SESSION_LIMITS;
    this.now = opts.now ?? (() => performance.now());
    this.generator = new HeaderGenerator({
      browsers: generatorBrowsers(profile),
      devices: ['desktop'],
      operatingSystems: ['windows', 'macos', 'linux'],
      locales: opts.locales,
      // Browser-true requests mostly travel on HTTP/2: the browser's HTTP/2 header order.
      httpVersion: profile === 'node' ? '1' : '2',
    });
  }

  /**
   * A fresh set of browser headers (the session-less default uses one too).
   *
   * @example
   *   pool.generateHeaders()['user-agent']
   */
  generateHeaders(): Record<string, string> {
    let h = normalizeGenerated(this.generator.getHeaders() as Record<string, string>);
    // The generator's data holds some Chromium header sets whose client hints contradict the
    // User-Agent: a bot wall flags that at once. Draw again (1 in 250 each: 20 draws leave none).
    for (let i = 0; i < 20 && incoherentClientHints(h); i++) h = normalizeGenerated(this.generator.getHeaders() as Record<string, string>);
    return h;
  }

  /**
   * The handshake that matches generated `headers` (undefined with FETCH_PROFILE=node).
   *
   * @example
   *   pool.fingerprintFor(pool.generateHeaders())?.handshake // 'chrome_147'
   */
  fingerprintFor(headers: Readonly<Record<string, string>>): Fingerprint | undefined {
    const profile = this.opts.profile ?? 'node';
    return profile === 'node' || !this.opts.handshakes ? undefined : fingerprintOf(headers, profile, this.opts.handshakes());
  }

  /**
   * The session of `key`, created on first use; the most recently used sessions are kept.
   *
   * @example
   *   const s = pool.get('request-1/query-3'); s.headers['user-agent']
   */
  get(key: string, host?: string): SessionHandle {
    if (host !== undefined) return this.lease(key, host);
    const hit = this.sessions.get(key);
    if (hit && !hit.retired) {
      // Map order is the LRU order: move to the end.
      this.sessions.delete(key);
      this.sessions.set(key, hit);
      return hit;
    }
    const generation = this.retiredCount.get(key) ?? 0;
    const headers = this.generateHeaders();
    const s: SessionHandle = {
      key,
      generation,
      headers,
      fingerprint: this.fingerprintFor(headers),
      jar: new CookieJar(undefined, { looseMode: true }),
      hasCookies: false,
      proxy: this.opts.proxies.rotation === 'sticky' ? this.opts.proxies.forKey(key, generation) : undefined,
      retired: false,
      uses: 0,
      answered: false,
      errorScore: 0,
      createdAt: this.now(),
    };
    this.remember(key, s);
    return s;
  }

  private remember(leaseKey: string, s: SessionHandle): void {
    this.sessions.delete(leaseKey);
    this.sessions.set(leaseKey, s);
    while (this.sessions.size > this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
      this.retiredCount.delete(oldest);
    }
  }

  /** Still fit to send a request: not retired, young enough, uses left, proxy and tier valid. */
  usable(s: SessionHandle): boolean {
    if (s.retired) return false;
    const l = this.limits;
    if (s.uses >= l.maxUses || this.now() - s.createdAt >= l.maxAgeMs || s.errorScore >= l.maxErrorScore || (s.host !== undefined && this.opts.identities && !this.opts.identities.stillValid(s))) {
      s.retired = true;
      return false;
    }
    return true;
  }

  /** A work item's identity for `host`: its current lease while usable, else one from the host's pool. */
  private lease(key: string, host: string, avoid?: SessionHandle): SessionHandle {
    const leaseKey = `${key}\n${host}`;
    const hit = this.sessions.get(leaseKey);
    if (hit && hit !== avoid && this.usable(hit)) return hit;
    let hosts = this.leasedHosts.get(key);
    if (!hosts) this.leasedHosts.set(key, (hosts = new Set()));
    hosts.add(host);
    const pool = (this.pools.get(host) ?? []).filter((s) => this.usable(s));
    let s: SessionHandle | undefined;
    if (pool.length >= this.limits.poolSize) {
      const ids = this.opts.identities;
      const rank = ids?.rank ? (x: SessionHandle) => ids.rank!(x) : (x: SessionHandle) => x.uses;
      let best = Infinity;
      for (const c of pool) {
        if (c === avoid) continue;
        const r = rank(c);
        if (r < best) {
          best = r;
          s = c;
        }
      }
    }
    if (!s) {
      const src = this.opts.identities?.proxyFor(host) ?? { proxy: this.opts.proxies.next(), tier: 0, probe: false };
      const headers = this.generateHeaders();
      s = { key: `${host}#${++this.made}`, generation: (hit?.generation ?? -1) + 1, headers, fingerprint: this.fingerprintFor(headers), jar: new CookieJar(undefined, { looseMode: true }), hasCookies: false,
        proxy: src.proxy, retired: false, host, tier: src.tier, probe: src.probe, uses: 0, answered: false, errorScore: 0, createdAt: this.now() };
      if (!src.probe && pool.length < this.limits.poolSize) pool.push(s);
    }
    this.pools.set(host, pool);
    this.remember(leaseKey, s);
    return s;
  }

  /**
   * The work item leaves its identity for `host` for another one of the pool (or a new one): its
   * answer was a stub (src/engine/stubs.ts), which the site gives some sessions and exit IPs. The
   * identity left takes a soft block's weight, so one that keeps getting stubs is retired.
   *
   * @example
   *   pool.moveOn('request-1:0', 'www.google.com:443'); pool.get('request-1:0', 'www.google.com:443') // another identity
   */
  moveOn(key: string, host: string): void {
    const held = this.sessions.get(`${key}\n${host}`);
    if (!held) return;
    this.markBad(held, 'soft_block');
    this.lease(key, host, held);
  }

  /** A success: heals the score a little. */
  markGood(s: SessionHandle): void {
    s.errorScore = Math.max(0, s.errorScore - this.limits.errorScoreDecrement);
  }

  /** A refusal: adds its weight; at `maxErrorScore` the identity is retired. */
  markBad(s: SessionHandle, e: ScoredError): void {
    s.errorScore += ERROR_WEIGHTS[e];
    if (s.errorScore >= this.limits.maxErrorScore) s.retired = true;
  }

  /** Identities pooled for `host` (tests, metrics). */
  pooled(host: string): readonly SessionHandle[] {
    return this.pools.get(host) ?? [];
  }

  /**
   * Marks a session as burnt (blocked, captcha): the key's next `get` builds a new identity with
   * new headers, empty cookies and (sticky rotation) the next proxy.
   *
   * @example
   *   const fresh = pool.retire(session);
   */
  retire(s: SessionHandle, key: string = s.key): SessionHandle {
    // A pooled identity is shared: the work item that met the wall (`key`) leases a new one.
    if (s.host !== undefined) {
      s.retired = true;
      return this.lease(key, s.host);
    }
    if (!s.retired) {
      s.retired = true;
      this.retiredCount.set(s.key, s.generation + 1);
    }
    return this.get(s.key);
  }

  /** Forget a key when its work item is done (its pooled identities stay in their pools). */
  release(key: string): void {
    this.sessions.delete(key);
    this.retiredCount.delete(key);
    const hosts = this.leasedHosts.get(key);
    if (hosts) for (const h of hosts) this.sessions.delete(`${key}\n${h}`);
    this.leasedHosts.delete(key);
  }
}
