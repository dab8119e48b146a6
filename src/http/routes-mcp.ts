/**
 * `/mcp`: the MCP server's Streamable HTTP endpoint (issue 36; docs/integrations.md), stateless: each
 * HTTP request gets a fresh server instance (the SDK's `createMcpHandler`), so any instance behind a
 * load balancer answers any call. The credential is the account's API key (`X-API-KEY`, or
 * `Authorization: Bearer <key>` as MCP clients send it), checked by the server's onRequest hook like
 * every call's; each tool calls the API in process with that key (`app.inject`), so a tool call is
 * authenticated, rate limited, metered and billed exactly as the API call it makes.
 *
 * @example registerMcpRoutes(app, ctx, registry)
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AppContext } from '../app/context.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import type { DataEndpoint } from '../contract/endpoint.ts';
import type { ApiCall } from '../mcp/api.ts';
import { mcpServer } from '../mcp/server.ts';
import { mcpTools } from '../mcp/tools.ts';


/** `Authorization: Bearer <key>`'s key, or undefined. */
export function bearerKey(auth: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth ?? '');
  return m?.[1];
}

/** The API in process, with `key`: Fastify's inject runs the whole request path (hooks, routes). */
function injectApi(app: FastifyInstance, key: string): ApiCall {
  return async (method, url, body) => {
    const res = await app.inject({
      method, url, headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, headers: res.headers as Record<string, string | undefined>, text: res.body };
  };
}

export function registerMcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const endpoints = ctx.adapters.endpoints().map(endpointFor).filter((e): e is DataEndpoint => !!e);
  const tools = mcpTools(endpoints);
  const handler = createMcpHandler(({ requestInfo }) => {
    const key = requestInfo?.headers.get('x-api-key') || bearerKey(requestInfo?.headers.get('authorization') ?? undefined) || '';
    return mcpServer(tools, injectApi(app, key), ctx.settings.mcp);
  }, { legacy: 'stateless', onerror: (e) => ctx.log.debug({ err: e.message }, 'mcp') });
  app.addHook('onClose', async () => { await handler.close(); });

  app.route({
    method: ['POST', 'GET', 'DELETE'], url: '/mcp',
    handler: async (req, reply) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}/mcp`, { method: req.method, headers });
      const res = await handler.fetch(request, req.method === 'POST' ? { parsedBody: req.body } : {});
      reply.code(res.status);
      res.headers.forEach((v, k) => { reply.header(k, v); });
      return reply.send(res.body ? Readable.fromWeb(res.body as never) : '');
    },
  });
}
