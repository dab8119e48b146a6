/**
 * Sessions: what makes a run of requests look like one browser. A session has generated
 * browser headers (fixed for its lifetime), its own cookie jar and, with sticky rotation, its own
 * proxy. The engine asks for one per work item (`sessionFor(key)`); when a site blocks the
 * session, it is retired and the key gets a fresh identity on its next use.
 */
import { HeaderGenerator } from 'header-generator';
import { CookieJar } from 'tough-cookie';
import { fingerprintOf, generatorBrowsers, type FetchProfile, type Fingerprint } from './fingerprint.ts';
import type { ProxyEntry, ProxyPool } from './proxy.ts';

export interface SessionHandle {
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

export interface SessionPoolOptions {
  proxies: ProxyPool;
  locales: string[];
  maxSessions: number;
  /** Which browsers sessions claim to be (default `node`: undici with the browser mix's headers). */
  profile?: FetchProfile;
  /** The handshake profiles the browser-true transport has (impersonate.ts `handshakeProfiles`). */
  handshakes?: () => readonly string[];
}

export class SessionPool {
  private readonly sessions = new Map<string, SessionHandle>();
  private readonly retiredCount = new Map<string, number>();
  private readonly generator: HeaderGenerator;
  private readonly opts: SessionPoolOptions;

  constructor(opts: SessionPoolOptions) {
    this.opts = opts;
    const profile = opts.profile ?? 'node';
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
    return normalizeGenerated(this.generator.getHeaders() as Record<string, string>);
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
  get(key: string): SessionHandle {
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
    };
    this.sessions.delete(key);
    this.sessions.set(key, s);
    while (this.sessions.size > this.opts.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
      this.retiredCount.delete(oldest);
    }
    return s;
  }

  /**
   * Marks a session as burnt (blocked, captcha): the key's next `get` builds a new identity with
   * new headers, empty cookies and (sticky rotation) the next proxy.
   *
   * @example
   *   const fresh = pool.retire(session);
   */
  retire(s: SessionHandle): SessionHandle {
    if (!s.retired) {
      s.retired = true;
      this.retiredCount.set(s.key, s.generation + 1);
    }
    return this.get(s.key);
  }

  /** Forget a key when its work item is done. */
  release(key: string): void {
    this.sessions.delete(key);
    this.retiredCount.delete(key);
  }
}
