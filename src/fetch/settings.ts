/**
 * Executor settings: one typed object with defaults, and the reader of the environment variables
 * that set it. A malformed value is a startup error naming the variable, never a silent default.
 */

import { signedInFromEnv, type SignedInSettings } from './signed-in.ts';
import { credentialsFromEnv, type HostCredential } from './credentials.ts';
import { FETCH_PROFILES, type FetchProfile } from './fingerprint.ts';
import type { ProxyRotation, ProxyTier } from './proxy.ts';

export type ReplayFallback = 'none' | 'volatile' | 'path';

export interface ExecutorSettings {
  /** Proxy URLs: http://, https://, socks4://, socks5:// (credentials as user:pass@). Empty: direct. */
  proxyUrls: string[];
  /** round_robin: every request takes the next proxy. sticky: a session keeps one proxy until retired. */
  proxyRotation: ProxyRotation;
  /** Requests in flight per host (host:port). */
  perHostConcurrency: number;
  /** Requests started per second per host; 0 = no rate limit. */
  perHostRps: number;
  /** Token-bucket burst per host (default: max(1, perHostRps)). */
  perHostBurst: number;
  /** Time limit of one attempt: every redirect hop and the whole body. */
  timeoutMs: number;
  /** Time limit of one `run` including retries and backoff waits. */
  totalTimeoutMs: number;
  /** A body (decoded) larger than this aborts with SourceError('network', 'too large'). */
  maxResponseBytes: number;
  /** Extra attempts after a retryable failure (network, 5xx, rate_limited, blocks when proxies rotate). */
  retries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A Retry-After longer than this is not waited for here: the error goes back to the engine. */
  maxRetryAfterMs: number;
  maxRedirects: number;
  /** Write every exchange to HAR: a `.har` file path, or a directory (one file per run). */
  recordHar?: string;
  /** Serve responses from HAR files (a file or a directory of *.har): no network at all. */
  replayHar?: string;
  /** Replay matching after exact method+URL fails: ignore volatile params, or the whole query. */
  replayFallback: ReplayFallback;
  chromiumPath: string;
  /** Pages open at once in the headless browser. */
  browserMaxPages: number;
  /** ALLOW_PRIVATE_TARGETS=true: user URLs may reach loopback/private addresses. */
  allowPrivateTargets: boolean;
  /** ALLOW_PRIVATE_TARGETS=<list>: these CIDRs / host names are allowed even though private. */
  allowedTargets: string[];
  /** Accept-Language locales for generated browser headers. */
  locales: string[];
  /** FETCH_PROFILE: the browsers web requests claim to be, handshake included; `node` = undici with browser headers. */
  fetchProfile: FetchProfile;
  /** Sessions kept at once (LRU): bounds memory in a long-running server. */
  maxSessions: number;
  /** PROXY_TIERS: proxies by tier, cheapest first (empty: `proxyUrls` is the one tier). */
  proxyTiers: ProxyTier[];
  /** Requests started per second to one host through one proxy (the site sees one IP); 0 = no cap. */
  perProxyRps: number;
  /** Adaptive pacing aims at this many requests in flight per host (per host and proxy when proxied). */
  pacingTargetConcurrency: number;
  /** Longest gap between requests that pacing backs off to. */
  pacingMaxDelayMs: number;
  /** Pooled identities per host, their maximum uses, age and error score. */
  sessionPoolSize: number;
  sessionMaxUses: number;
  sessionMaxAgeMs: number;
  sessionMaxErrorScore: number;
  /** Network failures in a row that bench a proxy; the first bench and the longest. */
  proxyFailThreshold: number;
  proxyBenchMs: number;
  proxyBenchMaxMs: number;
  /** Time a host spends on a higher tier before one identity probes the tier below. */
  proxyTierProbeMs: number;
  /** Operator session headers per host (NETWORK_POSTS_COOKIES, SHORTVIDEO_COOKIES): see credentials.ts. */
  hostCredentials: HostCredential[];
  /** Signed-in cookie sets of the map product (MAPS_COOKIES, MAPS_COOKIES_FILE): see signed-in.ts. */
  signedIn: SignedInSettings;
}

export const DEFAULT_SETTINGS: ExecutorSettings = {
  proxyUrls: [],
  proxyRotation: 'round_robin',
  perHostConcurrency: 10,
  perHostRps: 0,
  perHostBurst: 1,
  timeoutMs: 30_000,
  totalTimeoutMs: 120_000,
  maxResponseBytes: 20 * 1024 * 1024,
  retries: 2,
  retryBaseMs: 500,
  retryMaxMs: 10_000,
  maxRetryAfterMs: 30_000,
  maxRedirects: 10,
  recordHar: undefined,
  replayHar: undefined,
  replayFallback: 'volatile',
  chromiumPath: '/usr/bin/chromium',
  browserMaxPages: 2,
  allowPrivateTargets: false,
  allowedTargets: [],
  locales: ['en-US', 'en'],
  fetchProfile: 'browser',
  maxSessions: 10_000,
  proxyTiers: [],
  perProxyRps: 0,
  pacingTargetConcurrency: 10,
  pacingMaxDelayMs: 60_000,
  sessionPoolSize: 50,
  sessionMaxUses: 50,
  sessionMaxAgeMs: 3_000_000,
  sessionMaxErrorScore: 3,
  proxyFailThreshold: 3,
  proxyBenchMs: 30_000,
  proxyBenchMaxMs: 1_800_000,
  proxyTierProbeMs: 600_000,
  hostCredentials: [],
  signedIn: { hosts: ['www.google.com'], accounts: [], benchMs: 6 * 3_600_000 },
};

function int(env: Record<string, string | undefined>, name: string, min: number, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.trim());
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < min) {
    throw new Error(`setting ${name}=${JSON.stringify(raw)} must be an integer >= ${min}`);
  }
  return n;
}

function num(env: Record<string, string | undefined>, name: string, min: number, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.trim());
  if (!Number.isFinite(n) || n < min) throw new Error(`setting ${name}=${JSON.stringify(raw)} must be a number >= ${min}`);
  return n;
}

const list = (raw: string | undefined): string[] => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks4:', 'socks4a:', 'socks5:', 'socks5h:']);

/**
 * Reads the executor settings from environment variables (names in docs/executor.md).
 *
 * @example
 *   const s = executorSettingsFromEnv({ PROXY_URLS: 'http://u:p@10.0.0.2:3128,socks5://10.0.0.3:1080', PER_HOST_RPS: '5' });
 *   s.proxyUrls.length // 2
 */
function checkProxyUrl(name: string, p: string): void {
  let u: URL;
  try {
    u = new URL(p);
  } catch {
    throw new Error(`setting ${name}: ${JSON.stringify(p.replace(/\/\/[^@/]*@/, '//***@'))} is not a URL`);
  }
  if (!PROXY_SCHEMES.has(u.protocol)) throw new Error(`setting ${name}: scheme ${u.protocol} is not supported (http, https, socks4, socks5)`);
}

/**
 * PROXY_TIERS: `name=url,url;name=url`, cheapest tier first.
 *
 * @example parseProxyTiers('datacenter=http://10.0.0.2:3128,http://10.0.0.3:3128;residential=http://u:p@res.example:8000')
 */
export function parseProxyTiers(raw: string): ProxyTier[] {
  return raw.split(';').map((s) => s.trim()).filter(Boolean).map((part) => {
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    if (!/^[a-z][a-z0-9_-]*$/i.test(name)) throw new Error(`setting PROXY_TIERS: each tier is name=url,url (tiers separated by ';'); got a tier without a name`);
    const urls = list(part.slice(eq + 1));
    if (!urls.length) throw new Error(`setting PROXY_TIERS: tier ${name} has no proxy URL`);
    for (const u of urls) checkProxyUrl('PROXY_TIERS', u);
    return { name, urls };
  });
}

export function executorSettingsFromEnv(env: Record<string, string | undefined> = process.env): ExecutorSettings {
  const d = DEFAULT_SETTINGS;
  let proxyUrls = list(env.PROXY_URLS);
  for (const p of proxyUrls) checkProxyUrl('PROXY_URLS', p);
  const proxyTiers = parseProxyTiers(env.PROXY_TIERS ?? '');
  if (proxyTiers.length && proxyUrls.length) throw new Error('settings PROXY_URLS and PROXY_TIERS are both set: use one (PROXY_URLS is a single tier)');
  // The browser pool and per-key rotation read proxyUrls: the cheapest tier.
  if (proxyTiers.length) proxyUrls = proxyTiers[0]!.urls;
  const rotation = (env.PROXY_ROTATION ?? '').trim() || d.proxyRotation;
  if (rotation !== 'round_robin' && rotation !== 'sticky') {
    throw new Error(`setting PROXY_ROTATION=${JSON.stringify(rotation)} must be round_robin or sticky`);
  }
  const fallback = (env.REPLAY_FALLBACK ?? '').trim() || d.replayFallback;
  if (fallback !== 'none' && fallback !== 'volatile' && fallback !== 'path') {
    throw new Error(`setting REPLAY_FALLBACK=${JSON.stringify(fallback)} must be none, volatile or path`);
  }
  const { allowPrivateTargets, allowedTargets } = privateTargetsFromEnv(env);
  const fetchProfile = (env.FETCH_PROFILE ?? '').trim() || d.fetchProfile;
  if (!FETCH_PROFILES.includes(fetchProfile as FetchProfile)) {
    throw new Error(`setting FETCH_PROFILE=${JSON.stringify(fetchProfile)} must be one of ${FETCH_PROFILES.join(', ')}`);
  }

  const perHostRps = num(env, 'PER_HOST_RPS', 0, d.perHostRps);
  const timeoutMs = int(env, 'FETCH_TIMEOUT_MS', 1, d.timeoutMs);
  const retries = int(env, 'RETRIES', 0, d.retries);
  return {
    ...d,
    proxyUrls,
    proxyRotation: rotation,
    perHostConcurrency: int(env, 'PER_HOST_CONCURRENCY', 1, d.perHostConcurrency),
    perHostRps,
    perHostBurst: int(env, 'PER_HOST_BURST', 1, Math.max(1, Math.ceil(perHostRps))),
    timeoutMs,
    // Default: room for every attempt plus backoff waits.
    totalTimeoutMs: int(env, 'FETCH_TOTAL_TIMEOUT_MS', 1, Math.max(d.totalTimeoutMs, timeoutMs * (retries + 1) + d.retryMaxMs * retries)),
    maxResponseBytes: int(env, 'MAX_RESPONSE_BYTES', 1, d.maxResponseBytes),
    retries,
    recordHar: env.RECORD_HAR?.trim() || undefined,
    replayHar: env.REPLAY_HAR?.trim() || undefined,
    replayFallback: fallback,
    chromiumPath: env.CHROMIUM_PATH?.trim() || d.chromiumPath,
    browserMaxPages: int(env, 'BROWSER_MAX_PAGES', 1, d.browserMaxPages),
    allowPrivateTargets,
    allowedTargets,
    locales: list(env.FETCH_LOCALES).length ? list(env.FETCH_LOCALES) : d.locales,
    fetchProfile: fetchProfile as FetchProfile,
    hostCredentials: credentialsFromEnv(env),
    signedIn: signedInFromEnv(env),
    proxyTiers,
    perProxyRps: num(env, 'PER_PROXY_RPS', 0, d.perProxyRps),
    pacingTargetConcurrency: num(env, 'PACING_TARGET_CONCURRENCY', 0.1, d.pacingTargetConcurrency),
    pacingMaxDelayMs: int(env, 'PACING_MAX_DELAY_MS', 1, d.pacingMaxDelayMs),
    sessionPoolSize: int(env, 'SESSION_POOL_SIZE', 1, d.sessionPoolSize),
    sessionMaxUses: int(env, 'SESSION_MAX_USES', 1, d.sessionMaxUses),
    sessionMaxAgeMs: int(env, 'SESSION_MAX_AGE_S', 1, d.sessionMaxAgeMs / 1000) * 1000,
    sessionMaxErrorScore: num(env, 'SESSION_MAX_ERROR_SCORE', 1, d.sessionMaxErrorScore),
    proxyFailThreshold: int(env, 'PROXY_FAIL_THRESHOLD', 1, d.proxyFailThreshold),
    proxyBenchMs: int(env, 'PROXY_BENCH_MS', 1, d.proxyBenchMs),
    proxyBenchMaxMs: int(env, 'PROXY_BENCH_MAX_MS', 1, d.proxyBenchMaxMs),
    proxyTierProbeMs: int(env, 'PROXY_TIER_PROBE_MS', 1, d.proxyTierProbeMs),
  };
}

/**
 * ALLOW_PRIVATE_TARGETS: a boolean (every private address allowed, or none) or a list of CIDRs and
 * host names allowed even though private. Read here for the executor and the e-mail probes alike.
 *
 * @example privateTargetsFromEnv({ ALLOW_PRIVATE_TARGETS: '10.0.0.0/8' }) // { allowPrivateTargets: false, allowedTargets: ['10.0.0.0/8'] }
 */
export function privateTargetsFromEnv(env: NodeJS.ProcessEnv): { allowPrivateTargets: boolean; allowedTargets: string[] } {
  const raw = (env.ALLOW_PRIVATE_TARGETS ?? '').trim();
  if (/^(true|1|yes|on)$/i.test(raw)) return { allowPrivateTargets: true, allowedTargets: [] };
  if (raw === '' || /^(false|0|no|off)$/i.test(raw)) return { allowPrivateTargets: false, allowedTargets: [] };
  return { allowPrivateTargets: false, allowedTargets: list(raw) };
}
