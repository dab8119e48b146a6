/**
 * Service settings, read once from the environment. Every knob has a default that runs the service
 * on one machine with the embedded store. The backends (DATABASE_URL, REDIS_URL, QUEUE) are read by
 * ./backends.ts alone.
 *
 * @example const s = settingsFromEnv(process.env); s.port // 8080
 */
import { privateTargetsFromEnv } from '../fetch/settings.ts';
import { mcpOptionsFromEnv, type McpOptions } from './mcp-options.ts';
import { mapTilesFromEnv, type MapTiles } from './map-tiles.ts';
import { connectionDefaults, descriptorLimit, reserveFor } from './descriptors.ts';

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  /** Public base address used in results_location and file URLs; defaults to http://HOST:PORT. */
  baseUrl: string;
  workers: boolean;
  /** Work items run at once per worker process. */
  concurrency: number;
  /** SLICE_MS: an item that held its slot this long lends it, at its next step, to another account's waiting work (src/engine/lending.ts); 0 = never. */
  sliceMs: number;
  /** Queries in their CPU-heavy phases (parse, completion, capture) at once; 0 = no limit (src/engine/cpu-slots.ts). */
  cpuSlots: number;
  leaseMs: number;
  maxAttempts: number;
  /** CHECK_BUDGET_MS: longest a submit-time check (a task's expansion, an `area`) may run on its check thread (src/app/checks.ts). */
  checkBudgetMs: number;
  /** First retry delay of a retryable source error; later ones grow 4x (capped at 2 min). */
  retryBaseMs: number;
  /** Synchronous requests are held at most this long (decision 13). */
  syncTimeoutMs: number;
  /** Results are kept this long after a request ends (interface 8). */
  retentionMs: number;
  historyMs: number;
  /** Usage lines older than this are merged into one line per account, UTC day, product and price (USAGE_ROLLUP_DAYS); 0 = never. */
  usageRollupMs: number;
  /** TASK_RETRY_MS: how often tasks whose request ended without their file are written again (src/app/task-recovery.ts). */
  taskRetryMs: number;
  /** MONITOR_RUNS_DAYS / MONITOR_CHANGES_DAYS: monitor runs and changes are kept this long, then the janitor purges them (issue 39); 0 = kept for good. */
  monitorRunsMs: number;
  monitorChangesMs: number;
  /** How often the janitor purges expired results (issue 15). */
  janitorMs: number;
  /** Requests the janitor purges per transaction; 0 = all in one (issue 15). */
  purgeBatch: number;
  /** A streamed result gives the event loop a turn every this many characters; 0 = never (issue 15). */
  streamYieldChars: number;
  /** Worker threads writing task export files; 0 = on the main thread (issue 15). */
  exportThreads: number;
  /** DATA_MAX_BYTES: new work is refused (503) once the store and task files hold this much; 0 = no cap (issue 15). */
  dataMaxBytes: number;
  /** Webhooks and fetches may target private addresses (operator switch, decision 15). */
  allowPrivateTargets: boolean;
  /** ALLOW_PRIVATE_TARGETS as a list: the CIDRs and host names webhooks, fetches and e-mail probes may reach although private. */
  allowedTargets: string[];
  webhookTimeoutMs: number;
  /** The MCP server's limits (src/mcp/options.ts): a tool call's wait, a result's token budget. */
  mcp: McpOptions;
  /** Defaults of new accounts. */
  defaultRatePerSec: number;
  defaultBurst: number;
  defaultCurrency: string;
  logLevel: string;
  /** Failed authentications allowed per client address: a bucket of `authFailBurst` refilled at
   *  `authFailPerSec`; past it, 429 before the key is looked at. */
  authFailPerSec: number;
  authFailBurst: number;
  /** Fastify's trustProxy (TRUST_PROXY: true or the proxies' addresses/CIDRs, comma-separated): whose
   *  X-Forwarded-For names the client, for the failed-authentication limit per address. */
  trustProxy: boolean | string | undefined;
  /** Seals webhook signing secrets at rest (app/secrets.ts). */
  secretKey: string | undefined;
  /** When set, `/metrics` answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** `/metrics` recounts work items by state at most this often (a full-table count). */
  metricsCacheMs: number;
  /** BUSINESSES_SHARED: every account's scraped places feed one database all accounts see (default: each its own, docs/businesses.md). */
  sharedBusinesses: boolean;
  /** MAP_TILE_URL, MAP_TILE_ATTRIBUTION: the dashboard's optional online basemap (src/config/map-tiles.ts). */
  mapTiles: MapTiles | undefined;
  /** MONITOR_TICK_MS: how often a process with workers looks for due monitor runs and ended ones. */
  monitorTickMs: number;
  /** STRICT_PARAMS: a call with a parameter its operation does not read is refused (422) instead of
   *  answered with the parameter named in X-Unknown-Parameters (src/http/unknown-params.ts). */
  strictParams: boolean;
  /** MAX_TARGET_BYTES: the longest request target (path and query string) read; longer is 414/431 (src/http/limits.ts). */
  maxTargetBytes: number;
  /** MAX_CONNECTIONS_PER_ADDRESS, MAX_CONNECTIONS, CONNECTION_RESERVE, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS (src/http/connection-cap.ts). */
  connections: ConnectionLimits;
  /** Settings passed to local lookups (DNS servers, SMTP port, geocoding engine...). */
  lookup: Record<string, unknown>;
}

/** MAX_TARGET_BYTES unset: 128 KiB, why in src/http/limits.ts. */
export const DEFAULT_TARGET_BYTES = 128 * 1024;

/** The API's connection caps and time-outs (applied by src/http/connection-cap.ts). */
export interface ConnectionLimits {
  /** Open connections per client (IPv4 address, IPv6 /64); 0 = no cap. */
  perAddress: number;
  /** Open connections in all; 0 = no cap. */
  total: number;
  /** Of `total`, how many only clients holding fewer than RESERVE_HOLDING connections may take. */
  reserve: number;
  /** Time for a request's line and headers to arrive (slow loris). */
  headersTimeoutMs: number;
  /** Time for a whole request (head and body) to arrive; the answer may take longer. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** The listen queue's length (the kernel caps it at net.core.somaxconn): Node's 511 drops a health
   *  check's SYN while a flood of connections waits to be accepted, and a dropped SYN is sent again
   *  only after 1, 3, 7 s. */
  backlog: number;
}

/**
 * The SSRF guard's options for webhooks and user-given URLs under ALLOW_PRIVATE_TARGETS (a switch or a list).
 *
 * @example targetGuard({ allowPrivateTargets: false, allowedTargets: ['10.0.0.0/8'] }) // { allowPrivate: false, allow: ['10.0.0.0/8'] }
 */
export function targetGuard(s: Pick<Settings, 'allowPrivateTargets' | 'allowedTargets'>): { allowPrivate: boolean; allow: string[] } {
  return { allowPrivate: s.allowPrivateTargets, allow: s.allowedTargets };
}

/**
 * The API's connection caps (src/http/connection-cap.ts). Node refuses a headers time-out longer than
 * the request time-out, so that stops the start with a message naming both.
 *
 * MAX_CONNECTIONS and CONNECTION_RESERVE default from the descriptor limit (src/config/descriptors.ts);
 * a reserve that leaves no room under the total stops the start too.
 *
 * @example connectionsFromEnv({}) // { perAddress: 256, total: 16000, reserve: 800, headersTimeoutMs: 10000, requestTimeoutMs: 60000, keepAliveTimeoutMs: 72000, backlog: 4096 } (descriptor limit 20,000)
 */
export function connectionsFromEnv(env: NodeJS.ProcessEnv, limit: number | null = descriptorLimit()): ConnectionLimits {
  const d = connectionDefaults(limit);
  const total = num(env.MAX_CONNECTIONS, d.total);
  const c = {
    perAddress: num(env.MAX_CONNECTIONS_PER_ADDRESS, 256), total, reserve: num(env.CONNECTION_RESERVE, reserveFor(total)),
    headersTimeoutMs: num(env.HEADERS_TIMEOUT_MS, 10_000),
    requestTimeoutMs: num(env.REQUEST_TIMEOUT_MS, 60_000), keepAliveTimeoutMs: num(env.KEEP_ALIVE_TIMEOUT_MS, 72_000), backlog: num(env.LISTEN_BACKLOG, 4_096),
  };
  if (c.requestTimeoutMs > 0 && c.headersTimeoutMs > c.requestTimeoutMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${c.headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${c.requestTimeoutMs})`);
  }
  if (c.total > 0 && c.reserve >= c.total) throw new Error(`CONNECTION_RESERVE (${c.reserve}) must be below MAX_CONNECTIONS (${c.total})`);
  if (limit !== null && c.total > limit) throw new Error(`MAX_CONNECTIONS (${c.total}) must be below the process's open-file limit (${limit}; ulimit -n)`);
  return c;
}

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const flag = (v: string | undefined, d: boolean) => (v === undefined || v === '' ? d : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase()));

/**
 * A byte count with an optional unit (K, M, G, T; powers of 1024; a trailing B or iB allowed); 0 when unset.
 *
 * @example byteSize('50G') // 53687091200
 */
export function byteSize(v: string | undefined): number {
  if (v === undefined || v.trim() === '') return 0;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(v);
  if (!m) throw new Error(`DATA_MAX_BYTES must be a number of bytes, optionally with K, M, G or T (got "${v}")`);
  return Math.floor(Number(m[1]) * 1024 ** ' kmgt'.indexOf((m[2] || ' ').toLowerCase()));
}

function trustProxy(v: string | undefined): Settings['trustProxy'] {
  if (v === undefined || v.trim() === '') return undefined;
  if (/^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  return v.trim();
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const port = num(env.PORT, 8080);
  const host = env.HOST || '127.0.0.1';
  return {
    port, host,
    dataDir: env.DATA_DIR || './data',
    baseUrl: (env.BASE_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/$/, ''),
    workers: !flag(env.NO_WORKERS, false),
    concurrency: num(env.CONCURRENCY, 16),
    sliceMs: num(env.SLICE_MS, 5_000),
    cpuSlots: num(env.CPU_SLOTS, 2),
    leaseMs: num(env.LEASE_MS, 60_000),
    maxAttempts: num(env.MAX_ATTEMPTS, 4),
    checkBudgetMs: num(env.CHECK_BUDGET_MS, 5_000),
    retryBaseMs: num(env.RETRY_BASE_MS, 1_000),
    syncTimeoutMs: num(env.SYNC_TIMEOUT_MS, 30 * 60_000),
    retentionMs: num(env.RETENTION_MS, 4 * 3600_000),
    historyMs: 24 * 3600_000,
    usageRollupMs: num(env.USAGE_ROLLUP_DAYS, 35) * 24 * 3600_000,
    janitorMs: num(env.JANITOR_MS, 60_000),
    monitorRunsMs: num(env.MONITOR_RUNS_DAYS, 30) * 86_400_000,
    monitorChangesMs: num(env.MONITOR_CHANGES_DAYS, 90) * 86_400_000,
    taskRetryMs: num(env.TASK_RETRY_MS, 30_000),
    purgeBatch: num(env.PURGE_BATCH, 100),
    streamYieldChars: num(env.STREAM_YIELD_KB, 256) * 1024,
    dataMaxBytes: byteSize(env.DATA_MAX_BYTES),
    exportThreads: num(env.EXPORT_THREADS, 1),
    ...privateTargetsFromEnv(env),
    webhookTimeoutMs: num(env.WEBHOOK_TIMEOUT_MS, 10_000),
    mcp: mcpOptionsFromEnv(env),
    defaultRatePerSec: num(env.DEFAULT_RATE_PER_SEC, 20),
    defaultBurst: num(env.DEFAULT_BURST, 40),
    defaultCurrency: (env.DEFAULT_CURRENCY || 'usd').toLowerCase(),
    logLevel: env.LOG_LEVEL || 'info',
    authFailPerSec: num(env.AUTH_FAIL_PER_SEC, 1),
    authFailBurst: num(env.AUTH_FAIL_BURST, 60),
    trustProxy: trustProxy(env.TRUST_PROXY),
    secretKey: env.SECRET_KEY || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsCacheMs: num(env.METRICS_CACHE_MS, 15_000),
    sharedBusinesses: flag(env.BUSINESSES_SHARED, false),
    mapTiles: mapTilesFromEnv(env),
    monitorTickMs: num(env.MONITOR_TICK_MS, 1_000),
    strictParams: flag(env.STRICT_PARAMS, false),
    maxTargetBytes: byteSize(env.MAX_TARGET_BYTES) || DEFAULT_TARGET_BYTES,
    connections: connectionsFromEnv(env),
    lookup: {
      // The e-mail probes connect to addresses of user-given domains: the same SSRF rule as fetches.
      ...privateTargetsFromEnv(env),
      dnsServers: env.DNS_SERVERS ? env.DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
      smtpPort: env.SMTP_PORT ? Number(env.SMTP_PORT) : undefined,
      contactsMaxPages: env.CONTACTS_MAX_PAGES ? Number(env.CONTACTS_MAX_PAGES) : undefined,
      heloName: env.SMTP_HELO_NAME || undefined,
      mailFrom: env.SMTP_MAIL_FROM ?? undefined,
      geocoder: env.GEOCODER_URL ? { url: env.GEOCODER_URL, kind: env.GEOCODER_KIND || 'nominatim', timeoutMs: num(env.GEOCODER_TIMEOUT_MS, 3_000) } : undefined,
    },
  };
}
