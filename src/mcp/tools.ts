/**
 * The MCP tools (issue 36; docs/integrations.md), generated from src/contract: one per data endpoint
 * the deployment serves, plus requests (list, get, cancel), balance, businesses (search, get) and
 * monitors (create, list, changes, pause, resume, delete). Each calls the API with the caller's key
 * (./api.ts), so it is authenticated, rate limited, metered and billed exactly as that API call.
 *
 * @example for (const t of mcpTools(endpoints)) server.registerTool(t.name, t.config, (args) => t.run(args, api, opts));
 */
import type { DataEndpoint } from '../contract/endpoint.ts';
import { Type, type TSchema } from '../contract/dsl.ts';
import { query as queryParam, shared } from '../contract/shared.ts';
import { accountOperations } from '../contract/account.ts';
import type { AccountOperation } from '../contract/operation.ts';
import { reasonOf, type ApiCall } from './api.ts';
import { fitAnswer } from './budget.ts';
import type { McpOptions } from '../config/mcp-options.ts';
import { runData, resultPage, pendingAnswer, type Execution } from './requests.ts';
import { fail, ok, type ToolResult } from './result.ts';
import { toolInput, type ToolInput } from './schema.ts';

export interface ToolAnnotations { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean }

export interface McpTool {
  name: string;
  config: { title: string; description: string; inputSchema: ToolInput; annotations: ToolAnnotations };
  run(args: Record<string, unknown>, api: ApiCall, o: McpOptions): Promise<ToolResult>;
}

/** Past this many records (queries × limit), `execution: auto` answers the request id at once. */
export const AUTO_ASYNC_RECORDS = 1_000;

const enc = encodeURIComponent;
const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const execution = Type.Unsafe<Execution>({
  type: 'string', enum: ['auto', 'sync', 'async'], default: 'auto',
  description: 'sync: wait for the records (at most this call\'s cap, about 45 s; past it you get the request id); async: answer the request id at once; auto (default): async when the job is big (more than 1000 records asked), else sync.',
});

/** Tool names: the path's words joined by `_` (`/maps/search` → `maps_search`). */
export const toolNameOf = (path: string) => path.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '_');

/** A query string from arguments: arrays as repeated keys, the rest as text. */
function queryString(args: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`${enc(k)}=${enc(typeof x === 'object' ? JSON.stringify(x) : String(x))}`);
  }
  return parts.join('&');
}

function dataTool(e: DataEndpoint): McpTool {
  const params: Record<string, TSchema> = { query: { ...queryParam, description: `${e.queryDoc} One or more; each is one query of the request.` }, ...e.params, fields: shared.fields, execution };
  const limit = e.params.limit as { default?: number } | undefined;
  return {
    name: toolNameOf(e.path),
    config: {
      title: e.summary.replace(/\.$/, ''),
      description: `${e.summary} Query: ${e.queryDoc} Billed per ${e.unit}${e.emptyCostsOne ? ' (a query that finds nothing costs one)' : ''}, like the API call GET ${e.path}. `
        + 'Answers the records (a page at a time under the token budget, with how to get the next page), or, for a long job, the request id to pass to requests_get.',
      inputSchema: toolInput(params, ['query', ...(e.required ?? [])]),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: e.family !== 'lookups' },
    },
    async run(args, api, o) {
      const { execution: ex = 'auto', fields, ...rest } = args as { execution?: Execution; fields?: string } & Record<string, unknown>;
      const queries = Array.isArray(rest.query) ? rest.query.length : 1;
      const perQuery = typeof rest.limit === 'number' ? rest.limit : limit?.default ?? 20;
      const big = queries * perQuery > AUTO_ASYNC_RECORDS;
      return runData(api, e.path, queryString({ ...rest, fields }), ex, big, o, fields);
    },
  };
}

const op = (method: AccountOperation['method'], path: string): AccountOperation => {
  const found = accountOperations.find((x) => x.method === method && x.path === path);
  if (!found) throw new Error(`no declaration for ${method} ${path}`);
  return found;
};

/** The properties of a JSON body declaration (a TypeBox object). */
const bodyProps = (o: AccountOperation): Record<string, TSchema> => ((o.body as { properties?: Record<string, TSchema> } | undefined)?.properties ?? {});

/** A tool calling one account operation: path parameters from their arguments, the declared query
 *  parameters into the query string, the rest (when the operation takes a body) as its JSON body. */
function opTool(name: string, o: AccountOperation, description: string, annotations: ToolAnnotations, extra: {
  drop?: string[]; required?: string[]; body?: Record<string, unknown>; budgetHow?: string;
} = {}): McpTool {
  const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const props = Object.fromEntries(Object.entries({ ...(o.params ?? {}), ...(extra.body ? {} : bodyProps(o)) }).filter(([k]) => !extra.drop?.includes(k)));
  const required = [...new Set([...pathParams, ...(o.required ?? []), ...(extra.required ?? []), ...((o.body as { required?: string[] } | undefined)?.required ?? []).filter((k) => k in props)])];
  return {
    name,
    config: { title: o.summary.replace(/ \(extension\)\.?$/, '').replace(/\.$/, ''), description, inputSchema: toolInput(props, required), annotations },
    async run(args, api, opts) {
      const path = o.path.replace(/\{(\w+)\}/g, (_, k: string) => enc(String(args[k] ?? '')));
      const queryKeys = Object.keys(o.params ?? {}).filter((k) => !pathParams.includes(k));
      const qs = queryString(Object.fromEntries(queryKeys.map((k) => [k, args[k]])));
      const body = extra.body ?? (o.body ? Object.fromEntries(Object.entries(args).filter(([k]) => !pathParams.includes(k) && !queryKeys.includes(k))) : undefined);
      const a = await api(o.method, `${path}${qs ? `?${qs}` : ''}`, body);
      if (a.status >= 400) return fail(reasonOf(a));
      let value: unknown = a.text;
      try { value = JSON.parse(a.text); } catch { value = { message: a.text }; }
      return ok(fitAnswer(value, opts.budget, extra.budgetHow ?? 'ask for fewer (a smaller pageSize or limit) or the next page'));
    },
  };
}

const requestId = Type.String({ maxLength: 100, description: 'The request id a data tool answered.' });

/** requests_get: an ended request's records a page at a time (or Pending). */
const requestsGet: McpTool = {
  name: 'requests_get',
  config: {
    title: 'Records of a request',
    description: 'The records of a request a data tool started (by its request id), a page at a time under the token budget: `offset` is the first record to show (the previous page\'s next_offset). Answers Pending while it runs. Reading is free; results are kept 4 hours after the request ends.',
    inputSchema: toolInput({
      requestId, offset: Type.Integer({ minimum: 0, default: 0, description: 'First record to show (next_offset of the previous page).' }),
      fields: shared.fields,
    }, ['requestId']),
    annotations: READ,
  },
  async run(args, api, o) {
    const id = String(args.requestId);
    const page = await resultPage(api, id, Number(args.offset ?? 0), o, args.fields as string | undefined);
    return page === 'pending' ? pendingAnswer(id, 'still running') : page;
  },
};

/** Every tool for `endpoints` (the data endpoints the deployment serves), data tools first. */
export function mcpTools(endpoints: DataEndpoint[]): McpTool[] {
  const monitorId = 'The monitor\'s id (monitors_list, or the id monitors_create answered).';
  return [
    ...endpoints.map(dataTool),
    opTool('requests_list', op('GET', '/requests'), 'The account\'s requests of the last 24 hours, newest first: running (default) or finished. Each has its id for requests_get.', READ),
    requestsGet,
    opTool('requests_cancel', op('DELETE', '/requests/{requestId}'), 'Cancels a running request: its unfinished queries stop and it ends as Failure (what finished stays billed).',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }),
    opTool('balance', op('GET', '/profile/balance'), 'The account\'s balance and upcoming invoice, in its currency: check it before a big job.', READ),
    opTool('businesses_search', op('POST', '/businesses'), 'Searches the business database (places already collected and imported) by filters or a plain-language `query`, a page at a time through `cursor`; billed per business answered.',
      { ...READ, idempotentHint: false }, { budgetHow: 'ask for a smaller limit, or the next page with next_cursor' }),
    opTool('businesses_get', op('GET', '/businesses/{businessId}'), 'One business of the business database by its os_id (or the place id it was made of); billed as one business.',
      { ...READ, idempotentHint: false }, { drop: ['async', 'ui', 'webhook'] }),
    opTool('monitors_create', op('POST', '/monitors'), 'Creates a monitor: a data request (endpoint, queries, params) run on a schedule (every_s or cron) that reports what changed between runs (new, gone, changed, new_reviews, removed). Each run is billed as the request it makes. Read what it found with monitors_changes.',
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }),
    opTool('monitors_list', op('GET', '/monitors'), 'The account\'s monitors, newest first, with their schedule, status and next run.', READ),
    opTool('monitors_changes', op('GET', '/monitors/{monitorId}/changes'), `What a monitor's runs found changed, oldest first, a page at a time through next_cursor; kind filters (new, gone, changed, new_reviews, removed). ${monitorId}`, READ,
      { budgetHow: 'ask for a smaller pageSize, or the next page with next_cursor' }),
    opTool('monitors_pause', op('PATCH', '/monitors/{monitorId}'), `Pauses a monitor: no run until it is resumed. ${monitorId}`,
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }, { drop: Object.keys(bodyProps(op('PATCH', '/monitors/{monitorId}'))), body: { status: 'paused' } }),
    opTool('monitors_resume', op('PATCH', '/monitors/{monitorId}'), `Resumes a paused monitor: its next run is due at once. ${monitorId}`,
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }, { drop: Object.keys(bodyProps(op('PATCH', '/monitors/{monitorId}'))), body: { status: 'active' } }),
    opTool('monitors_delete', op('DELETE', '/monitors/{monitorId}'), `Deletes a monitor with its runs and changes (a run already started finishes). ${monitorId}`,
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }),
  ];
}
