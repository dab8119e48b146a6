/**
 * The HTTP server, built from the contract: one route per declared data endpoint and account
 * operation, authentication and the per-account rate limit in one hook, and one error mapper that
 * turns everything into the interface's JSON error bodies (decisions 6 and 12): a client never has
 * to parse HTML or plain text, except the DELETE confirmation.
 *
 * @example
 *   const server = await buildServer(ctx, metrics);
 *   await server.listen({ port: 8080 });
 */
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app/context.ts';
import { AppError, REASONS, UNAUTHORIZED } from '../app/errors.ts';
import { AuthGate } from './auth-failures.ts';
import { unstorableAt } from '../app/body.ts';
import { MAX_HEADER_BYTES, headLimit, headerBytes, keyFromTarget } from './limits.ts';
import { capConnections, timeoutOptions } from './connection-cap.ts';
import { authenticate } from '../app/accounts.ts';
import { ParamError, type RawParams } from '../contract/params.ts';
import { rawParams } from './request.ts';
import { registerDataRoutes } from './routes-data.ts';
import { registerAccountRoutes } from './routes-account.ts';
import { registerOpsRoutes } from './routes-ops.ts';
import { bearerKey, registerMcpRoutes } from './routes-mcp.ts';
import { registerAppRoutes } from './routes-app.ts';
import type { Metrics } from '../ops/metrics.ts';
import { maskUrl, scrub } from '../ops/log.ts';
import { isStoreUnavailable, noteStoreOutage } from '../store/unavailable.ts';


/** The largest JSON body of any operation; some take less (AccountOperation.bodyLimit). */
const BODY_LIMIT = 1024 * 1024;

/** What a refused head's connection still reads and drops before it is closed (see clientErrorHandler). */
const LINGER_BYTES = 64 * 1024;

/** Paths that need no API key. */
const PUBLIC = [/^\/$/, /^\/app(\/|$)/, /^\/health$/, /^\/ready$/, /^\/metrics$/, /^\/openapi\.json$/, /^\/docs\/?$/, /^\/tasks\/files\//, /^\/favicon\.ico$/];

export function sendError(reply: FastifyReply, e: AppError): FastifyReply {
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  return reply.code(e.status).type('application/json; charset=utf-8').send({ error: true, errorMessage: e.errorMessage });
}


export async function buildServer(ctx: AppContext, metrics: Metrics): Promise<FastifyInstance> {
  const maxTarget = ctx.settings.maxTargetBytes;
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    // The lenient reader parses the raw query string itself (decision 2).
    routerOptions: { maxParamLength: 500, querystringParser: () => ({}) },
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    trustProxy: ctx.settings.trustProxy,
    // 1000 queries in a query string (as real clients send them) outgrow Node's 16 KiB default; the
    // exact caps are checked in onRequest (limits.ts). A missing Host is answered there, in JSON.
    serverFactory: (handler) => {
      const server = createServer({ maxHeaderSize: headLimit(maxTarget), requireHostHeader: false, ...timeoutOptions(ctx.settings.connections) }, handler);
      capConnections(server, ctx.settings.connections, () => metrics.connectionsRefused.inc());
      return server;
    },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      const e = err.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError(431, `the request line and headers exceed ${headLimit(maxTarget)} bytes (path and query string at most ${maxTarget}, headers at most ${MAX_HEADER_BYTES}); send fewer queries per request`)
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new AppError(408, `the request did not arrive in time (headers within ${ctx.settings.connections.headersTimeoutMs} ms, all of it within ${ctx.settings.connections.requestTimeoutMs} ms)`)
          : new AppError(400, 'the request could not be read as HTTP/1.1');
      const body = JSON.stringify({ error: true, errorMessage: e.errorMessage });
      if (!socket.writable) return socket.destroy(err);
      socket.end(`HTTP/1.1 ${e.status} ${REASONS[e.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      // Lingering close: read and drop what the client is still sending for a moment, so closing
      // with unread data does not reset the connection before the client has read the answer; at
      // most LINGER_BYTES of it (a 2 MiB target is not read to its end).
      let dropped = 0;
      socket.on('data', (d: Buffer) => { if ((dropped += d.length) > LINGER_BYTES) socket.destroy(); });
      socket.resume();
      setTimeout(() => socket.destroy(), 2_000).unref();
    },
    // The router's own refusals (unreadable percent-encoding, an over-long path parameter) in the
    // interface's JSON like every other error (decision 6).
    frameworkErrors: (err, req, reply) => {
      reply.header('x-trace-id', req.id);
      if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, new AppError(414, 'a path parameter is longer than 500 characters'));
      if (err.code === 'FST_ERR_BAD_URL') return sendError(reply, new AppError(400, 'the path is not valid percent-encoded UTF-8'));
      return sendError(reply, new AppError(400, `the request could not be routed (${String(err.code ?? 'error')})`));
    },
  });
  const authFailures = new AuthGate(ctx.settings.authFailPerSec, ctx.settings.authFailBurst, ctx.now);
  app.decorateRequest('account', null);
  app.decorateRequest('raw_params', null as unknown as RawParams);
  app.decorateRequest('presented_keys', null);
  /** A request's URL for a log line: key parameters masked, presented keys scrubbed. */
  const logUrl = (req: FastifyRequest) => scrub(maskUrl(req.url), req.presented_keys ?? []).slice(0, 500);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-trace-id', req.id);
    // Size caps and Host first: nothing below reads more than it must before the key is known.
    if (req.url.length > maxTarget) {
      return sendError(reply, new AppError(414, `the path and query string may be at most ${maxTarget} bytes, got ${req.url.length}; send fewer queries per request`));
    }
    if (headerBytes(req.raw.rawHeaders) > MAX_HEADER_BYTES) return sendError(reply, new AppError(431, `the headers may be at most ${MAX_HEADER_BYTES} bytes together`));
    if (!req.headers.host && req.raw.httpVersion === '1.1') return sendError(reply, new AppError(400, 'the Host header is required in HTTP/1.1'));
    const path = req.url.split('?', 1)[0];
    if (PUBLIC.some((p) => p.test(path))) return;
    // Authenticate before the parameters are parsed: the key is picked out of the query string alone.
    const header = req.headers['x-api-key'];
    // The MCP endpoint also takes the key as a bearer token, as MCP clients send credentials.
    const key = (Array.isArray(header) ? header[0] : header) || (path === '/mcp' ? bearerKey(req.headers.authorization) : undefined) || keyFromTarget(req.url);
    const wait = authFailures.retryAfterSec(req.ip, key);
    if (wait > 0) {
      return sendError(reply, new AppError(429, `too many failed authentications from this address; retry after ${wait} s`, { 'retry-after': String(wait) }));
    }
    if (key) req.presented_keys = [key];
    const account = await authenticate(ctx.store, key);
    if (!account) {
      authFailures.failed(req.ip, key);
      return sendError(reply, new AppError(401, UNAUTHORIZED));
    }
    authFailures.passed(req.ip, key);
    req.account = account;
    const rate = await ctx.rateLimiter.take(account.id, account.ratePerSec, account.burst);
    if (!rate.ok) {
      return sendError(reply, new AppError(429, `rate limit of ${account.ratePerSec} requests per second (burst ${account.burst}) exceeded; retry after ${rate.retryAfterSec} s`,
        { 'retry-after': String(rate.retryAfterSec) }));
    }
  });

  // Path parameters are decoded by the router: a NUL there is refused like one in the query string
  // (PostgreSQL cannot hold it, and no id contains one).
  app.addHook('preValidation', async (req) => {
    const params = req.params as Record<string, unknown> | undefined;
    for (const [name, v] of Object.entries(params ?? {})) {
      if (typeof v === 'string' && v.includes('\0')) throw new AppError(422, `path parameter ${name} contains a NUL byte (%00)`);
    }
    // Every route's JSON body: text no store can keep (a NUL, a lone surrogate) is the same 422 on both.
    const bad = unstorableAt(req.body);
    if (bad) throw new AppError(422, bad);
  });

  app.addHook('onResponse', async (req, reply) => {
    metrics.httpRequests.inc({ method: req.method, route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
    // One line per call; the URL has its apiKey masked and the X-API-KEY header is never logged.
    if (ctx.log.isLevelEnabled('info')) ctx.log.info({ reqId: req.id, method: req.method, url: logUrl(req), status: reply.statusCode, ms: Math.round(reply.elapsedTime), account: req.account?.id }, 'http');
  });

  app.setErrorHandler((err: any, req, reply) => {
    if (err instanceof AppError) return sendError(reply, err);
    if (err instanceof ParamError) return sendError(reply, new AppError(422, err.message));
    if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? BODY_LIMIT;
      return sendError(reply, new AppError(413, `the body is larger than ${limit / 1024} KiB, the most ${req.method} ${req.routeOptions.url ?? 'this operation'} takes`));
    }
    if (err?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, new AppError(415, 'send the body as application/json'));
    if (err?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err instanceof SyntaxError && (err as any).statusCode === 400)) {
      return sendError(reply, new AppError(422, `the body is not valid JSON: ${String(err.message).slice(0, 200)}`));
    }
    if (isStoreUnavailable(err)) {
      noteStoreOutage(ctx.store, err, ctx.now());
      return sendError(reply, new AppError(503, 'the store is unavailable; retry shortly', { 'retry-after': '5' }));
    }
    if (typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, new AppError(err.statusCode === 400 ? 422 : err.statusCode, String(err.message).slice(0, 300)));
    }
    const incident = randomUUID();
    const secrets = req.presented_keys ?? [];
    ctx.log.error({ incident, err: { message: scrub(String(err?.message), secrets), stack: scrub(String(err?.stack), secrets) }, url: logUrl(req) }, 'unexpected error');
    return sendError(reply, new AppError(500, incident));
  });

  const known = new Map<RegExp, string[]>();
  app.addHook('onRoute', (r) => {
    const re = new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+')}$`);
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    known.set(re, [...(known.get(re) ?? []), ...methods]);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?', 1)[0];
    for (const [re, methods] of known) {
      if (re.test(path)) {
        reply.header('allow', [...new Set(methods)].join(', '));
        return sendError(reply, new AppError(405, `${req.method} is not allowed on ${path.slice(0, 200)}`));
      }
    }
    return sendError(reply, new AppError(404, `no operation ${req.method} ${path.slice(0, 200)}`));
  });

  registerDataRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerOpsRoutes(app, ctx, metrics);
  registerMcpRoutes(app, ctx);
  registerAppRoutes(app, ctx.settings.mapTiles);
  await app.ready();
  return app;
}
