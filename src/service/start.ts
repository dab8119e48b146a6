/**
 * Composes the service: backends, the use-case context, the HTTP server, and (unless `workers` is
 * off) the engine — queue consumers running the runner, the webhook dispatcher, task files, and the
 * janitor that drops results after their retention.
 *
 * @example
 *   const svc = await startService({ settings: settingsFromEnv(process.env) });
 *   await svc.listen(); ... await svc.close();
 */
import { startJanitor } from '../app/janitor.ts';
import { ItemWriter } from '../app/item-writer.ts';
import { EventEmitter, setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { targetGuard, type Settings } from '../config/settings.ts';
import type { Store, RequestRow } from '../store/contract.ts';
import type { WorkQueue } from '../engine/queue.ts';
import type { RateLimiter } from '../billing/rate-limit.ts';
import type { AppContext, AppEvents } from '../app/context.ts';
import type { AdapterRegistry } from '../sources/_kit/adapter.ts';
import { createLogger, type Logger } from '../ops/log.ts';
import { createMetrics, metricHost, type Metrics } from '../ops/metrics.ts';
import { buildServer } from '../http/server.ts';
import { buildOpsServer } from '../http/ops-server.ts';
import { Runner, type FetchStep } from '../engine/runner.ts';
import { SlotLending } from '../engine/lending.ts';
import { asksEnrichment } from '../enrich/supported.ts';
import { parseOnThreads, parseThreads } from '../engine/parse-thread.ts';
import { WebhookDispatcher } from '../app/webhook-dispatcher.ts';
import { MonitorScheduler } from '../app/monitor-scheduler.ts';
import { finishTask } from '../app/tasks.ts';
import { startTaskRecovery } from '../app/task-recovery.ts';
import { checkUrl } from '../fetch/ssrf.ts';
import type { ExecutorOptions } from '../fetch/executor.ts';
import { openBackends, type Backends } from '../config/backends.ts';
import { BusinessCapture } from '../app/business-capture.ts';
import { defaultRegistry, SOURCES, type SourceRegistry } from '../sources/registry.ts';
import { dataEndpoints } from '../contract/endpoints/index.ts';

const pagedEndpoints = new Set(dataEndpoints.filter((e) => 'cursor' in e.params).map((e) => e.path));


/** Enrichment fetches are bounded by the executor's own time limits, not by the query's signal.
 *  Every attempt in flight listens on it (a site's pages are fetched at once): no listener cap. */
const NEVER = new AbortController().signal;
setMaxListeners(0, NEVER);
export interface ServiceOptions {
  settings: Settings;
  env?: NodeJS.ProcessEnv;
  backends?: { store: Store; queue: WorkQueue; rateLimiter: RateLimiter; clusterStore?: Backends['clusterStore']; close(): Promise<void> };
  adapters?: AdapterRegistry;
  /** The parse threads' job module when `adapters` is not the served table (tests: the loopback map
   *  site's adapter on the threads, test/support/site-parse-job.ts); without it such a registry
   *  parses and plans on the API thread. */
  parseJobModule?: URL;
  /** Network I/O for web adapters; defaults to the executor. */
  fetchStep?: FetchStep;
  /** The executor's options beside the service's own (tests and benches: a transport that accepts a loopback certificate). */
  executorOptions?: Pick<ExecutorOptions, 'transport' | 'resolver'>;
  now?: () => number;
  log?: Logger;
}

export interface Service {
  ctx: AppContext;
  server: FastifyInstance;
  metrics: Metrics;
  owner: string;
  listen(): Promise<string>;
  /** Serves only /health, /ready and /metrics on `port` (worker-only processes); returns its URL. */
  listenOps(port: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startService(o: ServiceOptions): Promise<Service> {
  const settings = o.settings;
  const log = o.log ?? createLogger(settings.logLevel);
  const backends = o.backends ?? (await openBackends({ ...(o.env ?? process.env), DATA_DIR: settings.dataDir }, { serving: true }));
  const events = new EventEmitter() as AppEvents;
  events.setMaxListeners(0);
  const ctx: AppContext = {
    settings, store: backends.store, queue: backends.queue, rateLimiter: backends.rateLimiter,
    adapters: o.adapters ?? defaultRegistry(), now: o.now ?? Date.now, log, events,
    checkTargetUrl: (url) => checkUrl(url, { ...targetGuard(settings), allowCredentials: true }),
  };
  // Every process writes the items large requests were accepted without: its own submits' at once,
  // and what a process that died left, at start and every few seconds (app/item-writer.ts).
  const itemWriter = new ItemWriter(ctx);
  ctx.itemWriter = itemWriter;
  const metrics = createMetrics();
  const server = await buildServer(ctx, metrics);
  const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  let executor: { close(): Promise<void> } | null = null;
  let clusterLink: { close(): Promise<void> } | null = null;
  let parser: { close(): Promise<void> } | null = null;
  let dispatcher: WebhookDispatcher | null = null;
  let monitors: MonitorScheduler | null = null;
  let opsServer: FastifyInstance | null = null;
  let capture: BusinessCapture | null = null;
  let stopLending = () => {};
  const timers: NodeJS.Timeout[] = [];

  const onFinished = (r: RequestRow) => {
    metrics.billedUnits.inc({ product: r.product, unit: r.unit }, r.usage);
    // A file that failed for a passing cause is left PENDING for the recovery sweep (finishTask logged it).
    finishTask(ctx, r).catch(() => {});
  };

  if (settings.workers) {
    let fetchStep = o.fetchStep;
    let endSession: ((key: string) => void) | undefined;
    if (!fetchStep) {
      const { Executor } = await import('../fetch/executor.ts');
      const { executorSettingsFromEnv } = await import('../fetch/settings.ts');
      // Worker processes pace, bench proxies and back off as one client (src/fetch/cluster, docs/executor.md).
      const clusterStore = await backends.clusterStore?.();
      const cluster = clusterStore ? new (await import('../fetch/cluster/link.ts')).ClusterLink(clusterStore, { log }) : undefined;
      await cluster?.start();
      clusterLink = cluster ?? null;
      const ex = new Executor({ ...executorSettingsFromEnv(o.env ?? process.env), allowPrivateTargets: settings.allowPrivateTargets, allowedTargets: settings.allowedTargets }, {
        ...o.executorOptions,
        cluster,
        onEvent: (e: any) => {
          if (e?.type === 'error' && e.errorType) metrics.fetchErrors.inc({ type: String(e.errorType) });
          else if (e?.type === 'proxy') metrics.proxyOutcomes.inc({ host: metricHost(e.host), tier: e.tier ?? 'direct', outcome: e.outcome });
        },
      });
      executor = ex;
      // The work item's key leases pooled identities of each host it visits (docs/executor.md).
      fetchStep = (step, key, signal) => ex.run(step, key, signal);
      endSession = (key) => ex.releaseSession(key);
    }
    // The served table's parses run on parse threads (they load its adapters there); another
    // registry (tests' own adapters) parses here.
    const served = !o.adapters || (o.adapters as Partial<SourceRegistry>).rows === SOURCES;
    const parseStep = served || o.parseJobModule ? parseOnThreads(parseThreads(o.env ?? process.env), { module: o.parseJobModule }) : null;
    parser = parseStep;
    capture = new BusinessCapture(ctx.store, { shared: settings.sharedBusinesses, now: ctx.now, log });
    const captured = capture;
    const lending: SlotLending = new SlotLending({
      store: ctx.store, owner, leaseMs: settings.leaseMs, sliceMs: settings.sliceMs, now: ctx.now, run: (item): Promise<void> => runner.run(item),
      onError: (e) => log.warn({ err: (e as Error).message }, 'lent slot: item failed'),
      onLoan: (event) => metrics.slotLoans.inc({ event }),
    });
    stopLending = () => lending.stop();
    const runner = new Runner({
      lending,
      store: ctx.store, queue: ctx.queue, adapterFor: (e) => ctx.adapters.load(e), fetchStep, parseStep: parseStep ?? undefined, planStep: parseStep?.plan, cpuSlots: settings.cpuSlots, owner, leaseMs: settings.leaseMs, now: ctx.now, backoffBaseMs: settings.retryBaseMs,
      lookupSettings: settings.lookup, endSession, log,
      // Decision 23: an endpoint that takes a `cursor` is paged; its records carry next_page_cursor.
      paged: (endpoint) => pagedEndpoints.has(endpoint),
      // Enrichment code (phone and e-mail data) loads only when a request asks for one.
      enrich: async (endpoint, records, params) => asksEnrichment(params)
        ? (await import('../enrich/index.ts')).enrichRecords(endpoint, records, params, settings.lookup, (step) => fetchStep!(step, 'enrichment', NEVER)) : records,
      enriches: asksEnrichment,
      onRequestFinished: (r, results, deliveries) => events.emit('finished', r, results, deliveries),
      afterComplete: (item, records) => captured.add(item, records),
      onItem: (e) => {
        metrics.itemsRun.inc({ endpoint: e.endpoint, outcome: e.outcome });
        metrics.itemSeconds.observe({ endpoint: e.endpoint }, e.ms / 1000);
        if (e.errorType) {
          metrics.sourceErrors.inc({ endpoint: e.endpoint, type: e.errorType });
          if (e.detail) log.warn({ endpoint: e.endpoint, type: e.errorType, detail: e.detail }, 'query refused');
          if (e.errorType === 'layout_changed') log.error({ endpoint: e.endpoint }, 'layout changed: a source page no longer has the expected data');
        }
      },
    });
    events.on('finished', onFinished);
    ctx.queue.start((item, slotFree) => runner.run(item, slotFree), { concurrency: settings.concurrency, owner, leaseMs: settings.leaseMs });
    dispatcher = new WebhookDispatcher(ctx);
    dispatcher.start();
    monitors = new MonitorScheduler(ctx, settings.monitorTickMs);
    monitors.start();
    // Tasks whose request ended before a crash, or whose file met a full disk, get their file.
    timers.push(startTaskRecovery(ctx, settings.taskRetryMs));
    timers.push(startJanitor(ctx, settings.janitorMs));
  }
  itemWriter.start();

  return {
    ctx, server, metrics, owner,
    async listen() {
      const address = await server.listen({ port: settings.port, host: settings.host, backlog: settings.connections.backlog });
      // Port 0 lets the OS pick: the links the service writes (results_location, file URLs) must
      // name the port it got, unless BASE_URL set them.
      const port = (server.server.address() as { port?: number } | null)?.port;
      if (settings.port === 0 && port && settings.baseUrl.endsWith(':0')) settings.baseUrl = `${settings.baseUrl.slice(0, -2)}:${port}`;
      return address;
    },
    async listenOps(port, host = settings.host) {
      opsServer ??= await buildOpsServer(ctx, metrics);
      return opsServer.listen({ port, host });
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await server.close();
      await opsServer?.close();
      await itemWriter.stop();
      // Graceful: running items finish; anything still leased goes back to the queue.
      stopLending();
      await ctx.queue.stop();
      await ctx.store.releaseItems(owner, ctx.now()).catch(() => 0);
      // The places of the last completions, before the store closes.
      await capture?.flush().catch((e) => log.warn({ err: (e as Error).message }, 'business capture failed'));
      await dispatcher?.stop();
      await monitors?.stop();
      events.off('finished', onFinished);
      await executor?.close();
      await clusterLink?.close();
      await parser?.close();
      await backends.close();
    },
  };
}
