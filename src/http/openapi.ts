/**
 * The OpenAPI 3.1 document, derived from the declarations in src/contract: every data endpoint with
 * its exact parameters, defaults, enums, ranges and record schema; every account operation; the
 * error bodies; and the rules that fill what the interface leaves open. Component names are the
 * schemas' own `$id`s; descriptions cite no internal document (see reader-text.ts). Given the
 * served endpoints, each data operation says whether this deployment serves it (`x-served`).
 *
 * @example const doc = openApiDocument('http://127.0.0.1:8080', ['/maps/search']); doc.paths['/maps/search'].get['x-served'] // true
 */
import { QUERY_EXAMPLES } from '../contract/examples.ts';
import type { TSchema } from '@sinclair/typebox';
import { dataEndpoints } from '../contract/endpoints/index.ts';
import { accountOperations } from '../contract/account.ts';
import { query as queryDecl, shared } from '../contract/shared.ts';
import * as R from '../contract/records.ts';
import { PAYMENT_REQUIRED } from '../app/errors.ts';
import { documentWithoutCitations } from './reader-text.ts';

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

const commonErrors = (served: readonly string[] | undefined) => ({
  401: err('Missing or wrong API key: `401 Unauthorized: ...`.'),
  402: err(`\`402 Payment Required: ${PAYMENT_REQUIRED}\` (balance plus credit at or below zero, or a past-due invoice).`),
  422: err('Wrong parameters: `422 Unprocessable Entity: <parameter> must be ..., got "<value>"`.'),
  429: err('Over the per-account rate limit (token bucket, 20/s average, burst 40 by default); `Retry-After` says when to retry.'),
  501: err(`The endpoint has no source adapter in this deployment: nothing pretends to have data.${served ? ` This deployment serves: ${served.map((p) => `\`${p}\``).join(', ')}.` : ''}`),
});

function param(name: string, schema: TSchema, required: boolean, where: 'query' | 'path' = 'query') {
  const s = plain(schema);
  const isArray = s.type === 'array';
  return {
    name, in: where, required, description: (s.description as string | undefined) ?? undefined,
    schema: s, ...(isArray ? { style: 'form', explode: true } : {}),
  };
}

/** @param served the data endpoints this deployment has adapters for; omitted, nothing is said about serving. */
export function openApiDocument(baseUrl: string, served?: readonly string[]) {
  // The declarations state their rules without citing internal documents (openapi.test.ts);
  // stripping any citation left is the safety net.
  return documentWithoutCitations(declaredDocument(baseUrl, served));
}

/** The document exactly as the declarations word it (no citation stripped). */
export function declaredDocument(baseUrl: string, served?: readonly string[]) {
  const errors = commonErrors(served);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of dataEndpoints) {
    const parameters = [
      { ...param('query', queryDecl, true), ...(QUERY_EXAMPLES[e.path] ? { example: QUERY_EXAMPLES[e.path] } : {}) },
      ...Object.entries(shared).map(([n, s]) => ({ ...param(n, s, false), ...(e.shared.includes(n as keyof typeof shared) ? {} : { description: `${(s as any).description} (accepted, not in this endpoint's interface table)` }) })),
      ...Object.entries(e.params).map(([n, s]) => param(n, s, !!e.required?.includes(n))),
    ];
    const serves = served ? served.includes(e.path) : undefined;
    const op = {
      ...(serves === undefined ? {} : { 'x-served': serves }),
      operationId: e.path.replace(/^\//, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase()),
      summary: e.summary,
      description: `${e.summary}\n\nQuery items: ${e.queryDoc}\n\nBilled per ${e.unit}${e.emptyCostsOne ? '; a query that finds nothing costs one ' + e.unit : ''}. Service id: \`${e.service}\`.${serves === false ? '\n\nNot served by this deployment: answers 501.' : ''}`,
      tags: [e.family],
      parameters,
      responses: {
        200: { description: 'Synchronous result (async=false): one array of records per query.', content: { 'application/json': { schema: {
          type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: ['Success', 'Failure'] }, data: { type: 'array', items: { type: 'array', items: plain(e.record) } }, errors: plain(R.queryErrors), areas: plain(R.queryAreas), metadata: plain(R.requestMetadata) },
        } } } },
        202: { description: 'Accepted: fetch `results_location` later.', content: { 'application/json': { schema: plain(R.accepted) } } },
        ...(e.answers204 ? { 204: { description: 'Finished with failure: no body; headers `X-Request-Id`, `X-Request-Status: Failure` and `X-Request-Error` (the first failed query\'s reason).' } } : {}),
        ...errors,
      },
    };
    // operationIds are unique: the first alias keeps the `Alias` suffix it always had, later ones are numbered.
    paths[e.path] = { get: op };
    (e.aliases ?? []).forEach((p, i) => { paths[p] = { get: { ...op, operationId: `${op.operationId}Alias${i ? i + 1 : ''}`, description: `Alias of ${e.path}.` } }; });
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
  // Referenced by no operation, so registered here; every other component comes from an $id met above.
  plain(R.errorBody);
  plain(R.webhookBody);
  return {
    openapi: '3.1.0',
    info: {
      title: 'trawl data-extraction API', version: '0.4.3',
      description: 'Self-hostable data-extraction API. Every data endpoint takes one or more `query` items and answers one array of records per query; what each endpoint adds to that is stated per operation. '
        + 'Every non-204 answer has a JSON body; every timestamp parameter is in Unix seconds; arrays as repeated keys or `key[]`, enum arrays also comma-joined; booleans `true`/`false`/`True`/`False`/`1`/`0`; an empty value counts as absent.',
    },
    servers: [{ url: baseUrl }],
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'For testing only.' },
      },
      schemas: Object.fromEntries(named),
    },
  };
}
