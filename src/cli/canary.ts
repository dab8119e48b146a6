/**
 * `trawl canary [--source NAME] [--json] [--timeout SECONDS]`: does each source still work against
 * the live site? Runs every source's canary query (the `canary` of its registry row, next to the
 * source) as a real synchronous API request of that endpoint: a service started in this process
 * with the operator's fetch settings (proxies, tiers, profiles: the environment, as `trawl serve`
 * reads it), but its own throw-away SQLite store and account, so nothing reaches the deployment's
 * store, bill or queue. The request takes the path every user request takes (parameter checks, the
 * runner, the executor with its SSRF guard and detection table, the adapter's parse and finish), one
 * attempt per query (the executor's own retries still apply), one source after the other.
 *
 * Each source's records are judged (./canary-check.ts) against the endpoint's declared record
 * schema, the fields the canary names and its minimum count: ok, degraded, blocked,
 * layout_changed or misconfigured (no browser, a setting it cannot read), with the reason; a run
 * none of whose sources was reached (DNS or connection failures on every one) is unreachable. With REPLAY_HAR set the answers come from the archive instead of
 * the sites (tests; the output then says `mode: replay`).
 *
 * Exit code: 0 every source ok; else the worst status seen: 3 degraded, 4 blocked, 5 layout_changed,
 * 6 unreachable, 7 misconfigured; 1 the canary itself could not run; 2 bad arguments.
 *
 * @example  npx trawl canary --source videosite-videos --json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsFromEnv } from '../config/settings.ts';
import { openBackends } from '../config/backends.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import { SOURCES, registryOf } from '../sources/registry.ts';
import type { SourceRow } from '../sources/_kit/source.ts';
import { createLogger } from '../ops/log.ts';
import { MICROS_PER_UNIT } from '../billing/money.ts';
import { EXIT_CODES, judge, unreachableRun, worst, type CanaryAnswer, type CanaryStatus } from './canary-check.ts';
import { executorSettingsFromEnv } from '../fetch/settings.ts';
import { NO_BROWSER } from '../fetch/browser.ts';

export interface CanaryOptions {
  /** One source: its endpoint path, with or without the leading slash (`videosite-videos`, `maps/search`). */
  source?: string;
  json?: boolean;
  /** Seconds one source's request may take (default 120). */
  timeout?: string;
  /** Prints the usage, the sources and the exit codes; runs nothing. */
  help?: boolean;
}

export interface CanaryResult {
  source: string;
  status: CanaryStatus;
  reason: string | null;
  records: number;
  min: number;
  query: string;
  ms: number;
}

type Service = Awaited<ReturnType<typeof import('../service/start.ts').startService>>;

const usage = 'usage: trawl canary [--source NAME] [--json] [--timeout SECONDS]';

const help = `${usage}
Runs each source's canary query (a stable public target, declared in its src/sources/<name>/index.ts)
against the live site and checks the records against the declared schema, the canary's fields and its
minimum count. Meant for cron, e.g.  17 * * * *  cd /srv/trawl && npx trawl canary --json > /var/log/trawl/canary.json || logger -t trawl-canary "exit $?"
Exit codes: 0 every source ok, 3 degraded (too few records, network, target gone), 4 blocked (wall,
captcha, consent, rate limit, login), 5 layout_changed (the parser or the schema no longer fits),
6 unreachable (no source reached: this machine's DNS or network), 7 misconfigured (no browser at
CHROMIUM_PATH, a setting that cannot be read), 1 the canary could not run, 2 bad arguments.
docs/operations.md explains each.`;

/**
 * Runs the command; returns the exit code. `rows`: the registry (tests add their own); `write`: stdout.
 *
 * @example  process.exitCode = await canaryCommand({ json: true });
 */
export async function canaryCommand(o: CanaryOptions, env: NodeJS.ProcessEnv = process.env, rows: readonly SourceRow[] = SOURCES,
  write: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const withCanary = rows.filter((r) => r.canary);
  if (o.help) {
    write(`${help}\nsources: ${withCanary.map((r) => r.endpoint.slice(1)).join(', ')}\n`);
    return 0;
  }
  const names = withCanary.map((r) => r.endpoint.slice(1)).join(', ');
  const wanted = o.source === undefined ? withCanary : withCanary.filter((r) => r.endpoint === `/${o.source!.replace(/^\/+/, '')}`);
  if (!wanted.length) return fail(`${o.source ? `no canary for "${o.source}"` : 'no source declares a canary'}; sources: ${names}\n${usage}`);
  const timeoutSec = o.timeout === undefined ? 120 : Number(o.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) return fail(`--timeout must be a positive number of seconds, got ${JSON.stringify(o.timeout)}\n${usage}`);

  const started = new Date().toISOString();
  const mode = env.REPLAY_HAR?.trim() ? 'replay' : 'live';
  const report = (results: CanaryResult[], printed: boolean): number => {
    const status = worst(results.map((r) => r.status));
    if (o.json) write(`${JSON.stringify({ mode, started_at: started, status, exit_code: EXIT_CODES[status], sources: results }, null, 2)}\n`);
    else {
      if (!printed) for (const r of results) write(line(r));
      const why = status === 'unreachable' ? ': no source was reachable, a DNS or network failure of this machine, not the sites'
        : status === 'misconfigured' ? ': this server\'s own setup, see the reasons' : '';
      write(`${status === 'ok' ? 'all ok' : `worst: ${status}${why}`} (${results.length} source${results.length === 1 ? '' : 's'}, ${mode})\n`);
    }
    return EXIT_CODES[status];
  };
  // A setting the service cannot read keeps every source from being asked: misconfigured, saying which.
  let base: ReturnType<typeof settingsFromEnv>;
  let chromiumPath: string;
  try {
    base = settingsFromEnv(env);
    chromiumPath = executorSettingsFromEnv(env).chromiumPath;
  } catch (e) {
    const reason = `misconfigured: ${(e as Error).message}`;
    return report(wanted.map((row) => ({ source: row.endpoint, status: 'misconfigured', reason, records: 0, min: row.canary!.min, query: row.canary!.query, ms: 0 })), false);
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-canary-'));
  let svc: Service | undefined;
  try {
    const settings = {
      ...base, dataDir: dir, port: 0, workers: true, maxAttempts: 1, syncTimeoutMs: timeoutSec * 1000, logLevel: 'silent',
    };
    // Only DATA_DIR: never the deployment's DATABASE_URL or REDIS_URL.
    const backends = await openBackends({ DATA_DIR: dir });
    const { startService } = await import('../service/start.ts');
    svc = await startService({ settings, backends, env, adapters: registryOf(rows), log: createLogger('silent') });
    const { createAccount } = await import('../app/accounts.ts');
    const { apiKey } = await createAccount(svc.ctx.store, settings, { name: 'canary', balanceMicros: 1_000_000 * MICROS_PER_UNIT, ratePerSec: 1_000, burst: 1_000 });
    const judged: (CanaryResult & { offline?: boolean })[] = [];
    // Lines as sources end, once one was reached; until then they wait: if none is, all are unreachable.
    let reached = false;
    for (const row of wanted) {
      const r = await runOne(svc, apiKey, row, chromiumPath);
      judged.push(r);
      if (o.json) continue;
      if (!reached && !r.offline) {
        reached = true;
        for (const x of judged.slice(0, -1)) write(line(x));
      }
      if (reached) write(line(r));
    }
    return report(unreachableRun(judged).map(({ offline: _, ...r }) => r), reached);
  } catch (e) {
    process.stderr.write(`trawl canary: could not run: ${(e as Error).message}\n`);
    return 1;
  } finally {
    if (svc) await closeWithin(svc, CLOSE_GRACE_MS);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How long closing the service may take before the command ends without it. */
const CLOSE_GRACE_MS = 5_000;

/** Closes the service, or stops waiting after `ms`: a query still running after its timeout (cancelled,
 *  but its fetch or lookup not yet given up) must not keep a cron job alive; the command line exits
 *  the process with the code. */
async function closeWithin(svc: Service, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([svc.close(), new Promise((resolve) => { timer = setTimeout(resolve, ms); })]);
  clearTimeout(timer);
}

/** One source's request through the service's own API (no socket: Fastify's inject), judged. The
 *  API does not tell where it looked for a browser; the operator running this is told. */
async function runOne(svc: Service, apiKey: string, row: SourceRow, chromiumPath: string): Promise<CanaryResult & { offline?: boolean }> {
  const c = row.canary!;
  const qs = new URLSearchParams({ query: c.query, async: 'false' });
  for (const [k, v] of Object.entries(c.params ?? {})) qs.set(k, String(v));
  const t0 = performance.now();
  const res = await svc.server.inject({ method: 'GET', url: `${row.endpoint}?${qs}`, headers: { 'x-api-key': apiKey } });
  const answer = await answerOf(svc, apiKey, res);
  const decl = endpointFor(row.endpoint);
  const j = decl ? judge(c, decl.record, answer) : { status: 'degraded' as const, reason: `${row.endpoint} is not declared in the contract` };
  const reason = j.reason && j.reason.includes(NO_BROWSER) ? `${j.reason} (CHROMIUM_PATH: ${chromiumPath})` : j.reason;
  return { source: row.endpoint, status: j.status, reason, records: 'records' in answer ? answer.records.length : 0, min: c.min, query: c.query, ms: Math.round(performance.now() - t0), ...('offline' in j && j.offline ? { offline: true } : {}) };
}

/** The records or the error of a synchronous answer: 200 with data (and `errors` on failure), 204
 *  with X-Request-Error on endpoints that answer so, 202 when it did not end in time. */
async function answerOf(svc: Service, apiKey: string, res: { statusCode: number; body: string; headers: Record<string, unknown> }): Promise<CanaryAnswer> {
  let body: any;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = null;
  }
  if (res.statusCode === 204) {
    const [type, ...rest] = String(res.headers['x-request-error'] ?? 'unknown: the request failed without a reason').split(': ');
    return { error: { type, message: rest.join(': ') } };
  }
  if (res.statusCode === 202) {
    // Not ended in time: stop it, so closing the service does not wait for it.
    if (body?.id) await svc.server.inject({ method: 'DELETE', url: `/requests/${body.id}`, headers: { 'x-api-key': apiKey } });
    return { error: { type: 'timeout', message: `no answer within ${svc.ctx.settings.syncTimeoutMs / 1000} s` } };
  }
  if (res.statusCode !== 200 || !body) return { error: { type: `http_${res.statusCode}`, message: body?.message ?? body?.error ?? res.body.slice(0, 300) } };
  const error = body.errors?.[0]?.error;
  if (body.status === 'Failure' && error) return { error: { type: String(error.type), message: String(error.message) } };
  return { records: Array.isArray(body.data?.[0]) ? body.data[0] : [] };
}

function line(r: CanaryResult): string {
  const secs = `${(r.ms / 1000).toFixed(1)} s`;
  return `${r.status.padEnd(15)} ${r.source.padEnd(26)} ${String(r.records).padStart(4)} records (min ${r.min})  ${secs}${r.reason ? `  ${r.reason}` : ''}\n`;
}

function fail(message: string): number {
  process.stderr.write(`trawl canary: ${message}\n`);
  return 2;
}
