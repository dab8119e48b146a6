/**
 * Proxies: parse the configured URLs, build one undici dispatcher per proxy (HTTP(S) through
 * ProxyAgent, SOCKS4/5 through fetch-socks' connector), and pick one per request or per session.
 */
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { createRequire } from 'node:module';
import type { socksConnector as SocksConnector } from 'fetch-socks';

type SocksProxy = Extract<Parameters<typeof SocksConnector>[0], { port: number }>;

/** fetch-socks (CommonJS, with socks and its own copy of undici) loads only when a SOCKS proxy is
 *  configured: loaded at start-up it took longer than the rest of the fetch layer (issue 15). */
const socksConnector: typeof SocksConnector = (p) => (createRequire(import.meta.url)('fetch-socks') as typeof import('fetch-socks')).socksConnector(p);

export interface ProxyEntry {
  /** The URL with credentials masked: safe for logs and events. */
  label: string;
  /** The URL with credentials: for transports other than undici (never logged). */
  url: string;
  dispatcher: Dispatcher;
  /** Index of its tier in PROXY_TIERS (0: PROXY_URLS or the cheapest). */
  tier: number;
  tierName: string;
}

/** round_robin: every request takes the next proxy. sticky: a session keeps one proxy until retired. */
export type ProxyRotation = 'round_robin' | 'sticky';

/** One tier of PROXY_TIERS: a name (for metrics) and its proxy URLs. */
export interface ProxyTier {
  name: string;
  urls: string[];
}

/**
 * A URL with its password masked.
 *
 * @example
 *   redactProxy('http://bob:s3cret@10.0.0.2:3128') // 'http://bob:***@10.0.0.2:3128'
 */
export function redactProxy(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href.replace(/\/$/, '');
  } catch {
    return '(invalid proxy URL)';
  }
}

/**
 * One dispatcher for one proxy URL. HTTP targets go to an HTTP proxy as absolute-URI requests
 * (no CONNECT); HTTPS targets are tunnelled with CONNECT. Credentials in the URL become
 * Proxy-Authorization (HTTP) or SOCKS auth.
 *
 * @example
 *   const d = proxyDispatcher('socks5://user:pw@10.0.0.3:1080');
 */
export function proxyDispatcher(url: string, agentOpts: Agent.Options = {}): Dispatcher {
  const u = new URL(url);
  if (u.protocol === 'http:' || u.protocol === 'https:') {
    return new ProxyAgent({ ...agentOpts, uri: url, proxyTunnel: false });
  }
  const version = u.protocol.startsWith('socks4') ? 4 : 5;
  const proxy: SocksProxy = {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 1080,
    type: version,
    ...(u.username ? { userId: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
  // Our own undici Agent around fetch-socks' connector keeps one undici version in the request path.
  return new Agent({ ...agentOpts, connect: socksConnector(proxy) as unknown as Agent.Options['connect'] });
}

/** FNV-1a: a stable hash, so a sticky key maps to the same proxy in every worker process. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class ProxyPool {
  /** Tier 0's proxies: what rotation without a host (round robin, sticky keys) draws from. */
  readonly entries: ProxyEntry[];
  /** Every tier's proxies, cheapest tier first. */
  readonly tiers: ProxyEntry[][];
  readonly rotation: ProxyRotation;
  private cursor = 0;

  constructor(urls: string[] | ProxyTier[], rotation: ProxyRotation, agentOpts: Agent.Options = {}) {
    const tiers: ProxyTier[] = urls.length && typeof urls[0] !== 'string' ? (urls as ProxyTier[]) : [{ name: 'default', urls: urls as string[] }];
    this.tiers = tiers.map((t, tier) => t.urls.map((url) => ({ label: redactProxy(url), url, dispatcher: proxyDispatcher(url, agentOpts), tier, tierName: t.name })));
    this.entries = this.tiers[0] ?? [];
    this.rotation = rotation;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Next proxy in rotation; undefined when no proxy is configured.
   *
   * @example
   *   pool.next()?.label
   */
  next(): ProxyEntry | undefined {
    if (this.entries.length === 0) return undefined;
    const e = this.entries[this.cursor % this.entries.length];
    this.cursor = (this.cursor + 1) % this.entries.length;
    return e;
  }

  /**
   * Proxy for a sticky key: the same key gets the same proxy (in every process) until its
   * session is retired `generation` times, each retirement moving to the next proxy.
   *
   * @example
   *   pool.forKey('query-17', 0)
   */
  forKey(key: string, generation: number): ProxyEntry | undefined {
    if (this.entries.length === 0) return undefined;
    return this.entries[(stableHash(key) + generation) % this.entries.length];
  }

  async close(): Promise<void> {
    await Promise.all(this.tiers.flat().map((e) => e.dispatcher.close().catch(() => undefined)));
  }
}
