/**
 * Operations routes, no API key: `/health` (liveness), `/ready` (store and queue reachable),
 * `/metrics` (Prometheus; behind a bearer token when METRICS_TOKEN is set), `/openapi.json` and `/docs`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app/context.ts';
import type { Metrics } from '../ops/metrics.ts';
import { openApiDocument } from './openapi.ts';
import { recentStoreOutage } from '../store/unavailable.ts';
import { docsPage } from './docs-page.ts';
import { healthNotes, onHealthNote } from '../ops/health-notes.ts';

export function registerOpsRoutes(app: FastifyInstance, ctx: AppContext, metrics: Metrics): void {
  // Built on first ask, not at start-up (tens of ms, and most processes are never asked).
  let docs: { json: string; html: string } | undefined;
  const docsOnce = () => {
    if (!docs) {
      const doc = openApiDocument(ctx.settings.baseUrl, ctx.adapters.endpoints());
      docs = { json: JSON.stringify(doc), html: docsPage(doc) };
    }
    return docs;
  };
  // Alive all the same; `notes` say what the process found wrong around it (docs/operations.md).
  app.get('/health', async () => { const notes = healthNotes(); return notes ? { status: 'ok', notes } : { status: 'ok' }; });
  const unhear = onHealthNote((check, message) => { if (message) ctx.log.warn({ check }, message); else ctx.log.info({ check }, `${check}: back to normal`); });
  app.addHook('onClose', async () => unhear());
  app.get('/ready', async (_req, reply) => {
    const checks: Record<string, string> = {};
    await Promise.all([
      ctx.store.ping().then(() => {
        // A store that answers a ping may still refuse writes (a full disk): not ready for a while after.
        const outage = recentStoreOutage(ctx.store, ctx.now());
        checks.store = outage ? `unavailable: writes failed ${Math.round((ctx.now() - outage.at) / 1000)} s ago (${outage.message})` : 'ok';
      }, (e) => { checks.store = `unavailable: ${(e as Error).message}`; }),
      ctx.queue.ping().then(() => { checks.queue = 'ok'; }, (e) => { checks.queue = `unavailable: ${(e as Error).message}`; }),
    ]);
    const ok = checks.store === 'ok' && checks.queue === 'ok';
    return reply.code(ok ? 200 : 503).send(ok ? { status: 'ready', checks } : { error: true, errorMessage: `503 Service Unavailable: ${JSON.stringify(checks)}`, checks });
  });
  // Counting work items by state reads the whole table: at most once per metricsCacheMs, whatever
  // the number of scrapers, and scrapes that arrive together share one count.
  let counted = -Infinity;
  let counting: Promise<void> | null = null;
  const recount = async () => {
    try {
      const counts = await ctx.store.itemCounts();
      for (const [state, n] of Object.entries(counts)) metrics.workItems.set({ state }, n);
      metrics.queueDepth.set(await ctx.queue.depth());
    } catch { /* the gauges keep their last values while the store is away */ }
    counted = ctx.now();
  };
  const token = ctx.settings.metricsToken ? Buffer.from(`Bearer ${ctx.settings.metricsToken}`) : null;
  app.get('/metrics', async (req, reply) => {
    if (token) {
      const given = Buffer.from(String(req.headers.authorization ?? ''));
      if (given.length !== token.length || !timingSafeEqual(given, token)) {
        return reply.code(401).type('application/json; charset=utf-8')
          .send({ error: true, errorMessage: '401 Unauthorized: /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
      }
    }
    if (ctx.now() - counted >= ctx.settings.metricsCacheMs) {
      counting ??= recount().finally(() => { counting = null; });
      await counting;
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(docsOnce().json));
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(docsOnce().html));
}
