/**
 * The n8n node's description, generated from src/contract/ (issue 36; docs/integrations.md): the
 * resources and operations of the declarative Trawl node (every data endpoint this build serves,
 * requests list/get/cancel, balance, businesses search/get, monitors) with their fields and routing,
 * and the trigger's events. Rendered as TypeScript into integrations/n8n/nodes/Trawl/Trawl.generated.ts
 * by scripts/generate-n8n.ts; test/n8n-generated.test.ts fails when the committed file is stale.
 *
 * The routing's functions (waiting for a request's records, one item per record paired to its input)
 * are hand-written in integrations/n8n/nodes/Trawl/routing.ts; the generated text names them.
 *
 * @example writeFileSync(out, n8nGeneratedSource())
 */
import type { DataEndpoint } from '../src/contract/endpoint.ts';
import { endpointFor } from '../src/contract/endpoints/index.ts';
import { accountOperations } from '../src/contract/account.ts';
import type { AccountOperation } from '../src/contract/operation.ts';
import { WEBHOOK_EVENTS, webhookSubscriptionBody } from '../src/contract/webhooks.ts';
import { shared } from '../src/contract/shared.ts';
import { SOURCES } from '../src/sources/registry.ts';
import { plainSchema } from '../src/mcp/schema.ts';
import { toolNameOf } from '../src/mcp/tools.ts';
import { fileURLToPath } from 'node:url';

/** Where the generated description is committed. */
export const N8N_GENERATED = fileURLToPath(new URL('../integrations/n8n/nodes/Trawl/Trawl.generated.ts', import.meta.url));

/** A piece of TypeScript written as is (a function the routing names). */
class Code { constructor(readonly text: string) {} }
const code = (text: string) => new Code(text);

type Json = Record<string, unknown>;
type Where = 'qs' | 'body';

/** Seconds the node waits for a request's records by default, and at most. */
export const WAIT_DEFAULT_S = 60;
export const WAIT_MAX_S = 3600;

const FAMILIES: Record<DataEndpoint['family'], string> = { maps: 'Maps', reviews: 'Reviews', listings: 'Listings', lookups: 'Lookups' };

/** `reviewsLimit` / `max_age` → `Reviews Limit` / `Max Age`. */
const human = (name: string) => name.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/\b\w/g, (c) => c.toUpperCase());
const sentence = (s: string | undefined) => (s ?? '').replace(/\s*\(extension\)/, '').replace(/\.$/, '');

/** One line per query (or list entry): what a user types or maps from an input item. */
const LINES = '={{ String($value).split("\\n").map((s) => s.trim()).filter((s) => s !== "") }}';
const JSON_VALUE = '={{ typeof $value === "string" ? JSON.parse($value) : $value }}';

/** The n8n field of one declared parameter or body property. */
function field(name: string, declared: unknown, where: Where, required: boolean): Json {
  const s = plainSchema(declared) as Json;
  const anyOf = (s.anyOf as Json[] | undefined)?.filter((x) => x.type !== 'null');
  const one = anyOf?.length === 1 ? { ...anyOf[0], description: s.description ?? anyOf[0].description } : s;
  const consts = anyOf && anyOf.length > 1 && anyOf.every((x) => 'const' in x) ? anyOf.map((x) => x.const as string) : undefined;
  const items = one.items as Json | undefined;
  const itemConsts = (items?.anyOf as Json[] | undefined)?.every((x) => 'const' in x) ? (items!.anyOf as Json[]).map((x) => x.const as string) : undefined;
  const description = typeof one.description === 'string' ? one.description : undefined;
  const send = (value?: string) => ({ send: { type: where === 'qs' ? 'query' : 'body', property: name, ...(value ? { value } : {}) } });
  const base = { displayName: human(name), name, ...(required ? { required: true } : {}), ...(description ? { description } : {}) };
  const enumValues = (one.enum as string[] | undefined) ?? consts;
  if (enumValues) {
    return { ...base, type: 'options', options: enumValues.map((v) => ({ name: v, value: v })), default: (one.default as string | undefined) ?? enumValues[0], routing: send() };
  }
  if (one.type === 'array' && ((items?.enum as string[] | undefined) ?? itemConsts)) {
    const values = (items!.enum as string[] | undefined) ?? itemConsts!;
    return { ...base, type: 'multiOptions', options: values.map((v) => ({ name: v, value: v })), default: (one.default as string[] | undefined) ?? [], routing: send() };
  }
  if (one.type === 'array' && items?.type === 'string') {
    return { ...base, type: 'string', typeOptions: { rows: 3 }, description: `${description ? `${description} ` : ''}One per line.`, default: '', routing: send(LINES) };
  }
  if (one.type === 'integer' || one.type === 'number') {
    const typeOptions = { ...(one.minimum !== undefined ? { minValue: one.minimum } : {}), ...(one.maximum !== undefined ? { maxValue: one.maximum } : {}), ...(one.type === 'integer' ? { numberPrecision: 0 } : {}) };
    return { ...base, type: 'number', typeOptions, default: (one.default as number | undefined) ?? (one.minimum as number | undefined) ?? 0, routing: send() };
  }
  if (one.type === 'boolean') return { ...base, type: 'boolean', default: (one.default as boolean | undefined) ?? false, routing: send() };
  if (one.type === 'string') return { ...base, type: 'string', default: (one.default as string | undefined) ?? '', routing: send() };
  return { ...base, type: 'json', default: '{}', routing: send(JSON_VALUE) };
}

const show = (resource: string, operation: string) => ({ show: { resource: [resource], operation: [operation] } });

/** Top-level fields for the required ones, an "Options" collection for the rest. */
function fields(resource: string, operation: string, entries: [string, unknown, Where, boolean][], lead: Json[] = []): Json[] {
  const out: Json[] = [...lead];
  const optional: Json[] = [];
  for (const [name, s, where, required] of entries) {
    const f = field(name, s, where, required);
    if (required) out.push({ ...f, displayOptions: show(resource, operation) });
    else { delete f.required; optional.push(f); }
  }
  optional.sort((a, b) => String(a.displayName).localeCompare(String(b.displayName)));
  if (optional.length) {
    out.push({ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add option', default: {}, displayOptions: show(resource, operation), options: optional });
  }
  return out;
}

const waitField = (resource: string, operation: string): Json => ({
  displayName: 'Wait Up To (Seconds)', name: 'waitSeconds', type: 'number', typeOptions: { minValue: 0, maxValue: WAIT_MAX_S, numberPrecision: 0 }, default: WAIT_DEFAULT_S,
  description: 'How long to wait for the records. Past it the item is the request id (status Pending): fetch the records later with Request → Get Records. 0: the request id at once.',
  displayOptions: show(resource, operation),
});

interface Operation { resource: string; option: Json; fields: Json[] }

function dataOperation(e: DataEndpoint): Operation {
  const resource = e.family;
  const value = toolNameOf(e.path);
  const required = new Set(e.required ?? []);
  const queries = {
    displayName: 'Queries', name: 'queries', type: 'string', required: true, typeOptions: { rows: 3 }, default: '',
    description: `${e.queryDoc} One per line; each line is one query of the request (at most 1000).`,
    displayOptions: show(resource, value), routing: { send: { type: 'query', property: 'query', value: LINES } },
  };
  const entries: [string, unknown, Where, boolean][] = [
    ...Object.entries(e.params).map(([k, s]): [string, unknown, Where, boolean] => [k, s, 'qs', required.has(k)]),
    ['fields', shared.fields, 'qs', false],
  ];
  return {
    resource,
    option: {
      name: human(e.path.replace(/^\//, '').replace(/[/-]+/g, ' ')), value, action: sentence(e.summary),
      description: `${sentence(e.summary)}. Billed per ${e.unit}${e.emptyCostsOne ? ' (a query that finds nothing costs one)' : ''}. One output item per record.`,
      routing: { request: { method: 'GET', url: e.path, qs: { async: true } }, output: { postReceive: [code('waitForRecords')] } },
    },
    fields: fields(resource, value, entries, [queries, waitField(resource, value)]),
  };
}

const declared = (method: AccountOperation['method'], path: string): AccountOperation => {
  const found = accountOperations.find((x) => x.method === method && x.path === path);
  if (!found) throw new Error(`no declaration for ${method} ${path}`);
  return found;
};

/** The entries of a paged 200 answer (split one item each); an array answer is split without it. */
function listOf(o: AccountOperation): string | undefined {
  const ok = plainSchema(o.answers[200]) as Json | undefined;
  if (!ok || ok.type !== 'object') return undefined;
  const props = (ok.properties as Record<string, Json>) ?? {};
  // A page: an array of entries beside has_more or next_cursor (a record's own lists are not pages).
  if (!('has_more' in props) && !('next_cursor' in props)) return undefined;
  const arrays = Object.entries(props).filter(([, s]) => s.type === 'array' && (s.items as Json | undefined)?.type === 'object').map(([k]) => k);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** An account operation: path parameters and required ones on top, the rest as options. */
function accountOperation(resource: string, value: string, name: string, o: AccountOperation, extra: { drop?: string[]; body?: Json; records?: boolean } = {}): Operation {
  const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const url = pathParams.length ? `=${o.path.replace(/\{(\w+)\}/g, (_, k: string) => `{{ encodeURIComponent($parameter["${k}"]) }}`)}` : o.path;
  const body = extra.body ? {} : ((o.body as { properties?: Json } | undefined)?.properties ?? {});
  const bodyRequired = new Set(((o.body as { required?: string[] } | undefined)?.required) ?? []);
  const drop = new Set([...(extra.drop ?? []), ...(extra.records ? ['flat'] : [])]);
  const entries: [string, unknown, Where, boolean][] = [
    ...Object.entries(o.params ?? {}).filter(([k]) => !drop.has(k)).map(([k, s]): [string, unknown, Where, boolean] => [k, s, 'qs', pathParams.includes(k) || !!o.required?.includes(k)]),
    ...Object.entries(body).filter(([k]) => !drop.has(k)).map(([k, s]): [string, unknown, Where, boolean] => [k, s, 'body', bodyRequired.has(k)]),
  ];
  const list = listOf(o);
  const request: Json = { method: o.method, url, ...(extra.body ? { body: extra.body } : {}), ...(extra.records ? { qs: { flat: true } } : {}) };
  const postReceive = extra.records ? [code('waitForRecords')] : [code(`answerItems(${list ? JSON.stringify(list) : ''})`)];
  const made = fields(resource, value, entries);
  // Path parameters are sent in the URL, not again as query parameters.
  for (const f of made) if (pathParams.includes(String(f.name))) delete f.routing;
  if (extra.records) made.splice(pathParams.length, 0, waitField(resource, value));
  return {
    resource,
    option: {
      name, value, action: sentence(o.summary),
      description: `${sentence(o.summary)}.${list ? ' One output item per entry.' : ''}${extra.records ? ' One output item per record.' : ''}`,
      routing: { request, output: { postReceive } },
    },
    fields: made,
  };
}

/** The operations besides the data endpoints: the same set the MCP server's tools cover. */
function accountOperationsOfNode(): Operation[] {
  const patch = declared('PATCH', '/monitors/{monitorId}');
  return [
    accountOperation('request', 'list', 'Get Many', declared('GET', '/requests')),
    accountOperation('request', 'get', 'Get Records', declared('GET', '/requests/{requestId}'), { records: true, drop: ['convertFileResult'] }),
    accountOperation('request', 'cancel', 'Cancel', declared('DELETE', '/requests/{requestId}')),
    accountOperation('account', 'balance', 'Get Balance', declared('GET', '/profile/balance')),
    accountOperation('business', 'search', 'Search', declared('POST', '/businesses')),
    accountOperation('business', 'get', 'Get', declared('GET', '/businesses/{businessId}'), { drop: ['async', 'ui', 'webhook'] }),
    accountOperation('monitor', 'create', 'Create', declared('POST', '/monitors')),
    accountOperation('monitor', 'list', 'Get Many', declared('GET', '/monitors')),
    accountOperation('monitor', 'get', 'Get', declared('GET', '/monitors/{monitorId}')),
    accountOperation('monitor', 'changes', 'Get Changes', declared('GET', '/monitors/{monitorId}/changes')),
    accountOperation('monitor', 'pause', 'Pause', patch, { body: { status: 'paused' } }),
    accountOperation('monitor', 'resume', 'Resume', patch, { body: { status: 'active' } }),
    accountOperation('monitor', 'delete', 'Delete', declared('DELETE', '/monitors/{monitorId}')),
  ];
}

const RESOURCES: [string, string][] = [['request', 'Request'], ['account', 'Account'], ['business', 'Business'], ['monitor', 'Monitor']];

/** The node's properties: resource, then per resource its operations, then every operation's fields. */
export function n8nProperties(endpoints: DataEndpoint[]): Json[] {
  const ops = [...endpoints.map(dataOperation), ...accountOperationsOfNode()];
  const families = (Object.keys(FAMILIES) as DataEndpoint['family'][]).filter((f) => endpoints.some((e) => e.family === f));
  const resources: [string, string][] = [...families.map((f): [string, string] => [f, FAMILIES[f]]), ...RESOURCES];
  const out: Json[] = [{
    displayName: 'Resource', name: 'resource', type: 'options', noDataExpression: true,
    options: resources.map(([value, name]) => ({ name, value })), default: resources[0][0],
  }];
  for (const [value] of resources) {
    const mine = ops.filter((o) => o.resource === value);
    out.push({
      displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, displayOptions: { show: { resource: [value] } },
      options: mine.map((o) => o.option), default: mine[0].option.value,
    });
  }
  for (const o of ops) out.push(...o.fields);
  return out;
}

/** The trigger's events, from the contract's list and its description of each. */
export function n8nWebhookEvents(): Json[] {
  const doc = webhookSubscriptionBody.properties.events.items.description ?? '';
  return WEBHOOK_EVENTS.map((e) => {
    const said = doc.split(/;\s*/).find((part) => part.startsWith(`${e}:`))?.slice(e.length + 1).trim();
    return { name: human(e.replace('.', ' ')), value: e, ...(said ? { description: said.replace(/\.$/, '') } : {}) };
  });
}

/** TypeScript text of a value: JSON, with Code written as is, tabs as n8n's sources use, and short
 *  objects and lists on one line. */
function render(v: unknown, depth = 0): string {
  const flat = inline(v);
  if (depth > 0 && flat.length <= 110) return flat;
  const pad = '\t'.repeat(depth + 1);
  const end = '\t'.repeat(depth);
  if (Array.isArray(v)) return `[\n${v.map((x) => `${pad}${render(x, depth + 1)},`).join('\n')}\n${end}]`;
  if (v && typeof v === 'object' && !(v instanceof Code)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{\n${entries.map(([k, x]) => `${pad}${key(k)}: ${render(x, depth + 1)},`).join('\n')}\n${end}}`;
  }
  return flat;
}
const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
function inline(v: unknown): string {
  if (v instanceof Code) return v.text;
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length ? `{ ${entries.map(([k, x]) => `${key(k)}: ${inline(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

/** Long choice lists (languages, regions) written once as constants and named where used. */
function hoistChoices(properties: Json[]): { properties: Json[]; consts: string[] } {
  const named = new Map<string, string>();
  const consts: string[] = [];
  const walk = (v: unknown, owner?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, owner));
    if (!v || typeof v !== 'object' || v instanceof Code) return v;
    const o = v as Json;
    const out: Json = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === 'options' && Array.isArray(x) && x.length > 12 && x.every((c) => c && typeof c === 'object' && 'value' in c && !('routing' in c) && !('type' in c))) {
        const text = render(x);
        let name = named.get(text);
        if (!name) {
          const base = `${String(o.name ?? owner ?? 'choice').replace(/\W/g, '_')}Choices`;
          name = consts.some((c) => c.startsWith(`const ${base} `)) ? `${base}${consts.length}` : base;
          named.set(text, name);
          consts.push(`const ${name}: INodePropertyOptions[] = ${text};`);
        }
        out[k] = code(name);
      } else out[k] = walk(x, String(o.name ?? owner ?? ''));
    }
    return out;
  };
  return { properties: walk(properties) as Json[], consts };
}

/** The endpoints this build serves (as `trawl mcp` lists them). */
export function servedEndpoints(): DataEndpoint[] {
  return SOURCES.map((s) => endpointFor(s.endpoint)).filter((e): e is DataEndpoint => !!e);
}

/** The generated file's text. */
export function n8nGeneratedSource(endpoints: DataEndpoint[] = servedEndpoints()): string {
  const { properties, consts } = hoistChoices(n8nProperties(endpoints));
  return [
    '// Generated from src/contract/ by scripts/generate-n8n.ts (npm run n8n:generate): do not edit.',
    '// test/n8n-generated.test.ts fails when this file is stale relative to the contract.',
    "import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';",
    "import { answerItems, waitForRecords } from './routing';",
    '',
    ...consts.flatMap((c) => [c, '']),
    `export const properties: INodeProperties[] = ${render(properties)};`,
    '',
    `export const webhookEvents: INodePropertyOptions[] = ${render(n8nWebhookEvents())};`,
    '',
  ].join('\n');
}
