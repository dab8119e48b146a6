/**
 * Request management, tasks, business database and account operations (interface 4.6-4.9). Their
 * parameters come from src/contract/account.ts, read by the same lenient reader as data endpoints.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openForSending } from './open-file.ts';
import type { AppContext } from '../app/context.ts';
import { accountOperations } from '../contract/account.ts';
import type { AccountOperation } from '../contract/operation.ts';
import { readParams } from '../contract/params.ts';
import { reportUnknown } from './unknown-params.ts';
import { rawParams, type Handler } from './request.ts';
import { sendView } from './routes-data.ts';
import { AppError } from '../app/errors.ts';
import { requestView } from '../app/results.ts';
import { history, terminate } from '../app/history.ts';
import { balanceView } from '../app/balance.ts';
import { createTask, getTaskView, listTasks } from '../app/tasks.ts';
import { rotateWebhookSecret } from '../app/accounts.ts';
import { openSecret } from '../app/secrets.ts';
import { assertCanPay } from '../app/submit.ts';
import { parseFields } from '../delivery/shape.ts';
import { contentTypeOf, type ExportFormat } from '../delivery/export/formats.ts';
import { locationsView } from '../app/locations.ts';
import { getBusiness, searchBusinesses } from '../app/businesses.ts';
import { profileHandlers } from './routes-profile.ts';
import { createSubscription, deleteSubscription, listSubscriptions } from '../app/webhook-subscriptions.ts';
import { createMonitor, deleteMonitor, getMonitor, listChanges, listMonitors, listRuns, patchMonitor } from '../app/monitors.ts';

const op = (method: string, path: string): AccountOperation => {
  const o = accountOperations.find((x) => x.method === method && x.path === path);
  if (!o) throw new Error(`no declaration for ${method} ${path}`);
  return o;
};

const body = (req: FastifyRequest): Record<string, unknown> => {
  const b = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw new AppError(422, 'the body must be a JSON object');
  return b as Record<string, unknown>;
};

const handlers: Record<string, Handler> = {
  'GET /requests': async (ctx, req, _r, p) => history(ctx, req.account!.id, p as { type: 'running' | 'finished'; skip: number; pageSize: number }),

  'GET /requests/{requestId}': async (ctx, req, reply, p) => {
    const v = await requestView(ctx, req.account!.id, (req.params as { requestId: string }).requestId, {
      flat: p.flat === true, fields: parseFields(p.fields), convertFileResult: p.convertFileResult !== false,
    });
    return sendView(reply, v);
  },

  'DELETE /requests/{requestId}': async (ctx, req, reply) => {
    const text = await terminate(ctx, req.account!.id, (req.params as { requestId: string }).requestId);
    return reply.code(200).type('text/plain; charset=utf-8').send(text);
  },

  'GET /tasks': async (ctx, req, _r, p) => listTasks(ctx, req.account!.id, p as { query?: string; lastId?: string; pageSize: number }),

  'POST /tasks': async (ctx, req) => createTask(ctx, req.account!, body(req)),

  'GET /tasks/{taskId}': async (ctx, req) => getTaskView(ctx, req.account!.id, (req.params as { taskId: string }).taskId),

  'GET /tasks/files/{token}/{name}': async (ctx, req, reply) => {
    const { token } = req.params as { token: string; name: string };
    const t = token.length <= 100 ? await ctx.store.getTaskByFileToken(token) : null;
    if (!t?.filePath) throw new AppError(404, 'no such file');
    const f = await openForSending(t.filePath);
    if (!f) throw new AppError(404, 'the file is gone');
    return reply.code(200).type(contentTypeOf(t.format as ExportFormat)).header('content-length', String(f.size))
      .header('content-disposition', `attachment; filename="${t.id}.${t.format}"`).send(f.stream);
  },

  'POST /businesses': async (ctx, req) => {
    assertCanPay(req.account!);
    return searchBusinesses(ctx, req.account!, body(req));
  },

  'GET /businesses/{businessId}': async (ctx, req, _r, p) => {
    assertCanPay(req.account!);
    return getBusiness(ctx, req.account!, (req.params as { businessId: string }).businessId, parseFields(p.fields));
  },

  'GET /profile/balance': async (ctx, req) => balanceView(ctx, (await ctx.store.getAccount(req.account!.id))!),

  'GET /profile/webhook-secret': async (ctx, req) => ({ webhook_secret: openSecret(req.account!.webhookSecret, ctx.settings.secretKey) }),

  'POST /profile/webhook-secret': async (ctx, req) => ({ webhook_secret: await rotateWebhookSecret(ctx.store, req.account!.id, ctx.settings.secretKey) }),

  'GET /locations': async (ctx, _req, _r, p) => locationsView(ctx, String(p.country)),

  'GET /webhook-calls': async (ctx, req) => ctx.store.listWebhookCalls(req.account!.id, ctx.now() - ctx.settings.historyMs, 100),

  ...profileHandlers,

  'POST /monitors': async (ctx, req) => createMonitor(ctx, req.account!, body(req)),
  'GET /monitors': async (ctx, req, _r, p) => listMonitors(ctx, req.account!.id, p as { lastId?: string; pageSize: number }),
  'GET /monitors/{monitorId}': async (ctx, req) => getMonitor(ctx, req.account!.id, (req.params as { monitorId: string }).monitorId),
  'PATCH /monitors/{monitorId}': async (ctx, req) => patchMonitor(ctx, req.account!, (req.params as { monitorId: string }).monitorId, body(req)),
  'DELETE /monitors/{monitorId}': async (ctx, req, reply) =>
    reply.code(200).type('text/plain; charset=utf-8').send(await deleteMonitor(ctx, req.account!.id, (req.params as { monitorId: string }).monitorId)),
  'GET /monitors/{monitorId}/runs': async (ctx, req, _r, p) => listRuns(ctx, req.account!.id, (req.params as { monitorId: string }).monitorId, p as { before?: number; pageSize: number }),
  'GET /monitors/{monitorId}/changes': async (ctx, req, _r, p) =>
    listChanges(ctx, req.account!.id, (req.params as { monitorId: string }).monitorId, p as { cursor?: string; kind?: string; from?: number; to?: number; pageSize: number }),

  'POST /webhooks': async (ctx, req) => createSubscription(ctx, req.account!.id, body(req)),
  'GET /webhooks': async (ctx, req) => listSubscriptions(ctx, req.account!.id),
  'DELETE /webhooks/{subscriptionId}': async (ctx, req, reply) =>
    reply.code(200).type('text/plain; charset=utf-8').send(await deleteSubscription(ctx, req.account!.id, (req.params as { subscriptionId: string }).subscriptionId)),
};

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const [key, h] of Object.entries(handlers)) {
    const [method, path] = key.split(' ');
    const decl = op(method, path);
    const url = path.replace(/\{(\w+)\}/g, ':$1');
    // Path parameters come from the route; the rest are read from the query string.
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const queryDecls = Object.fromEntries(Object.entries(decl.params ?? {}).filter(([k]) => !pathParams.includes(k)));
    app.route({
      method: method as 'GET' | 'POST' | 'PATCH' | 'DELETE', url,
      ...(decl.bodyLimit ? { bodyLimit: decl.bodyLimit } : {}),
      handler: async (req, reply) => {
        const params = readParams(queryDecls, rawParams(req), decl.required);
        reportUnknown(ctx, req, reply, Object.keys(queryDecls));
        return h(ctx, req, reply, params);
      },
    });
  }
}
