/**
 * The OpenAPI 3.1 document, derived from the declarations in src/contract: every data endpoint with
 * its exact parameters, defaults, enums, ranges and record schema; every account operation; the
 * error bodies; and the decisions that fill what the interface leaves open.
 *
 * @example const doc = openApiDocument('http://127.0.0.1:8080'); doc.paths['/maps/search'].get.parameters
 */
import type { TSchema } from '@sinclair/typebox';
import { dataEndpoints } from '../contract/endpoints/index.ts';
import { accountOperations } from '../contract/account.ts';
import { query as queryDecl, shared } from '../contract/shared.ts';
import * as R from '../contract/records.ts';
import { PAYMENT_REQUIRED } from '../app/errors.ts';

/** Schemas with an `$id` (records, recursive schemas), met while the document is built: they become
 *  components, and bare `$ref`s to them `#/components/...` refs, the only kind OpenAPI tools resolve. */
const named = new Map<string, unknown>();
function componentRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(componentRefs);
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o.$ref === 'string' && !o.$ref.startsWith('#')) return { $ref: `#/components/schemas/${o.$ref}` };
  const { $id, ...rest } = o;
  const body = Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, componentRefs(x)]));
  if (typeof $id !== 'string') return body;
  named.set($id, body);
  return { $ref: `#/components/schemas/${$id}` };
}

/** JSON Schema without TypeBox's symbol keys and our x- hints, as plain data. */
const plain = (s: TSchema): Record<string, unknown> => componentRefs(JSON.parse(JSON.stringify(s))) as Record<string, unknown>;

const errorRef = { $ref: '#/components/schemas/Error' };
const err = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } });

const COMMON_ERRORS = {
  401: err('Missing or wrong API key: `401 Unauthorized: ...`.'),
  402: err(`\`402 Payment Required: ${PAYMENT_REQUIRED}\` (balance plus credit at or below zero, or a past-due invoice).`),
  422: err('Wrong parameters: `422 Unprocessable Entity: <parameter> must be ..., got "<value>"` (decision 3).'),
  429: err('Over the per-account rate limit (token bucket, 20/s average, burst 40 by default); `Retry-After` says when to retry.'),
  501: err('The endpoint has no source adapter in this deployment: nothing pretends to have data.'),
};

function param(name: string, schema: TSchema, required: boolean, where: 'query' | 'path' = 'query') {
  const s = plain(schema);
  const isArray = s.type === 'array';
  return {
    name, in: where, required, description: (s.description as string | undefined) ?? undefined,
    schema: s, ...(isArray ? { style: 'form', explode: true } : {}),
  };
}

export function openApiDocument(baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of dataEndpoints) {
    const parameters = [
      param('query', queryDecl, true),
      ...Object.entries(shared).map(([n, s]) => ({ ...param(n, s, false), ...(e.shared.includes(n as keyof typeof shared) ? {} : { description: `${(s as any).description} (accepted, not in this endpoint's interface table)` }) })),
      ...Object.entries(e.params).map(([n, s]) => param(n, s, !!e.required?.includes(n))),
    ];
    const op = {
      operationId: e.path.replace(/^\//, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase()),
      summary: e.summary,
      description: `${e.summary}\n\nQuery items: ${e.queryDoc}\n\nBilled per ${e.unit}${e.emptyCostsOne ? '; a query that finds nothing costs one ' + e.unit : ''}. Service id: \`${e.service}\`.`,
      tags: [e.family],
      parameters,
      responses: {
        200: { description: 'Synchronous result (async=false): one array of records per query.', content: { 'application/json': { schema: {
          type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: ['Success', 'Failure'] }, data: { type: 'array', items: { type: 'array', items: plain(e.record) } }, errors: plain(R.queryErrors) },
        } } } },
        202: { description: 'Accepted: fetch `results_location` later.', content: { 'application/json': { schema: plain(R.accepted) } } },
        ...(e.answers204 ? { 204: { description: 'Finished with failure: no body; headers `X-Request-Id`, `X-Request-Status: Failure` (decision 7) and `X-Request-Error` (the first failed query\'s reason).' } } : {}),
        ...COMMON_ERRORS,
      },
    };
    for (const p of [e.path, ...(e.aliases ?? [])]) paths[p] = { get: p === e.path ? op : { ...op, operationId: `${op.operationId}Alias`, description: `Alias of ${e.path} (decision 1).` } };
  }
  for (const o of accountOperations) {
    const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const responses: Record<string, unknown> = {};
    for (const [status, s] of Object.entries(o.answers)) {
      if (s === 'none') responses[status] = { description: 'No body; headers `X-Request-Id`, `X-Request-Status: Failure` and `X-Request-Error` (the first failed query\'s reason).' };
      else if (s === 'text') responses[status] = { description: 'Plain-text confirmation `Request <id> terminated`.', content: { 'text/plain': { schema: { type: 'string' } } } };
      else if (s === 'file') responses[status] = { description: 'The file.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
      else responses[status] = { description: Number(status) >= 400 ? 'Error body.' : 'OK', content: { 'application/json': { schema: plain(s) } } };
    }
    paths[o.path] ??= {};
    paths[o.path][o.method.toLowerCase()] = {
      summary: o.summary, tags: ['account'],
      parameters: Object.entries(o.params ?? {}).map(([n, s]) => param(n, s, pathParams.includes(n) || !!o.required?.includes(n), pathParams.includes(n) ? 'path' : 'query')),
      ...(o.body ? { requestBody: { required: false, content: { 'application/json': { schema: plain(o.body) } } } } : {}),
      responses,
      ...(o.public ? { security: [] } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'trawl data-extraction API', version: '0.4.3',
      description: 'Self-hostable data-extraction API. Paths and names follow the interface 0.4.3 exactly; decisions that fill what it leaves open are stated per operation. '
        + 'Every non-204 answer has a JSON body (decision 6); Unix seconds for every timestamp parameter (decision 4); arrays as repeated keys or key[], enum arrays also comma-joined; booleans true/false/True/False/1/0; empty values are absent (decision 2).',
    },
    servers: [{ url: baseUrl }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'For testing only.' },
      },
      schemas: {
        Error: plain(R.errorBody), Place: plain(R.placeRecord), BizdirReview: plain(R.bizdirReviewRecord), EmailVerification: plain(R.emailRecord),
        ReverseGeocoding: plain(R.reverseGeocodingRecord), MapsReviews: plain(R.mapsReviewsRecord), Business: plain(R.businessRecord),
        Task: plain(R.task), Balance: plain(R.balance), WebhookCall: plain(R.webhookCall),
        WebhookBody: {
          type: 'object', description: 'Body POSTed to a webhook when a request ends (decision 15); header X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body keyed with the account webhook secret>. Retried after about 1 min, 5 min, 30 min, 2 h, 6 h without a 2xx within 10 s.',
          properties: { id: { type: 'string' }, user_id: { type: 'string' }, status: { type: 'string', enum: ['SUCCESS', 'FAILURE'] }, api_task: { type: 'boolean' },
            results_location: { type: 'string' }, quota_usage: { type: 'array', items: { type: 'object', properties: { product_name: { type: 'string' }, quantity: { type: 'integer' } } } } },
        },
        ...Object.fromEntries(named),
      },
    },
  };
}
