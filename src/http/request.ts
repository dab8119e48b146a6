/**
 * What every route reads of a Fastify request: the fields the server's hooks set on it, the raw query
 * string parsed once, and the shape of an account operation's handler. Its own file so the routes
 * and the server that registers them import it, not each other (no import cycle).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app/context.ts';
import type { Account } from '../store/contract.ts';
import { parseQueryString, type RawParams } from '../contract/params.ts';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
    raw_params: RawParams;
    /** Keys this request presented (header or query string), scrubbed from its log lines. */
    presented_keys: string[] | null;
  }
}

/** The raw query string, parsed leniently once per request. */
export function rawParams(req: FastifyRequest): RawParams {
  if (!req.raw_params) {
    const url = req.raw.url ?? '';
    const q = url.indexOf('?');
    req.raw_params = parseQueryString(q < 0 ? '' : url.slice(q + 1));
  }
  return req.raw_params;
}

/** An account operation's handler: the request's parameters `p` read against its declaration. */
export type Handler = (ctx: AppContext, req: FastifyRequest, reply: FastifyReply, p: Record<string, unknown>) => Promise<unknown>;
