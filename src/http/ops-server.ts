/**
 * The operations endpoints alone (`/health`, `/ready`, `/metrics`, no API): what a worker-only
 * process (`trawl worker`) serves on METRICS_PORT, so Prometheus can scrape the counters only workers
 * have (items run, source errors by type, billed units, fetch errors).
 *
 * @example
 *   const ops = await buildOpsServer(ctx, metrics);
 *   await ops.listen({ port: 9464, host: '127.0.0.1' });
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../app/context.ts';
import type { Metrics } from '../ops/metrics.ts';
import { registerOpsRoutes } from './routes-ops.ts';

export async function buildOpsServer(ctx: AppContext, metrics: Metrics): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, return503OnClosing: true });
  registerOpsRoutes(app, ctx, metrics);
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: true, errorMessage: `404 Not Found: this port serves /health, /ready and /metrics only (${req.method} ${req.url.split('?', 1)[0].slice(0, 200)})` }));
  await app.ready();
  return app;
}
