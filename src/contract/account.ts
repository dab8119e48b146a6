/** Request management, tasks, business database and account operations (interface 4.6-4.9). */
import { Type, bool, int, literals, oneOf, str } from './dsl.ts';
import * as R from './records.ts';
import { profileOperations } from './profile.ts';
import { resultFilters } from './result-filters.ts';
import { monitorOperations } from './monitors.ts';
import type { AccountOperation } from './operation.ts';
import { webhookOperations } from './webhooks.ts';


const requestId = str({ doc: 'The id of the submit answer.' });

export const businessesBody = Type.Object({
  filters: Type.Optional(Type.Object({
    os_ids: Type.Optional(Type.Array(Type.String())), country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$' })),
    states: Type.Optional(Type.Array(Type.String())), cities: Type.Optional(Type.Array(Type.String())), counties: Type.Optional(Type.Array(Type.String())),
    postal_codes: Type.Optional(Type.Array(Type.String())), types: Type.Optional(Type.Array(Type.String())), ignore_types: Type.Optional(Type.Array(Type.String())),
    attributes: Type.Optional(Type.Array(Type.String())), name: Type.Optional(Type.String()), name_exclude: Type.Optional(Type.Boolean()),
    // Expressions `4.5+`, `<4`, `<=4`, `>4`, `>=4`, `3-4.5`, `4` (docs/businesses.md); checked by src/app/business-query.ts.
    rating: Type.Optional(Type.String({ maxLength: 40 })), reviews: Type.Optional(Type.String({ maxLength: 40 })),
    has_website: Type.Optional(Type.Boolean()), has_phone: Type.Optional(Type.Boolean()), area_service: Type.Optional(Type.Boolean()),
    verified: Type.Optional(Type.Boolean()), broad_match: Type.Optional(Type.Boolean()), business_only: Type.Optional(Type.Boolean()),
    domain: Type.Optional(Type.String()), phone: Type.Optional(Type.String()),
    business_statuses: Type.Optional(Type.Array(literals(['operational', 'closed_temporarily', 'closed_permanently'] as const))),
    geo_filters: Type.Optional(Type.Array(Type.Union([Type.Object({ type: Type.Literal('circle'), lat: Type.Number({ minimum: -90, maximum: 90 }),
      lng: Type.Number({ minimum: -180, maximum: 180 }), radius_m: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }) }),
    Type.Object({ type: Type.Literal('bbox'), south: Type.Number({ minimum: -90, maximum: 90 }), west: Type.Number({ minimum: -180, maximum: 180 }),
      north: Type.Number({ minimum: -90, maximum: 90 }), east: Type.Number({ minimum: -180, maximum: 180 }) }),
    Type.Object({ type: Type.Literal('polygon'), points: Type.Array(Type.Tuple([Type.Number({ minimum: -90, maximum: 90 }), Type.Number({ minimum: -180, maximum: 180 })]),
      { minItems: 3, maxItems: 500, description: 'Vertices as [lat, lng] in order; planar in degrees, even-odd rule (docs/businesses.md).' }) })]), { maxItems: 10 })),
    located_os_id: Type.Optional(Type.String()),
    added_from: Type.Optional(Type.Integer({ minimum: 0 })), added_to: Type.Optional(Type.Integer({ minimum: 0 })),
    updated_from: Type.Optional(Type.Integer({ minimum: 0 })), updated_to: Type.Optional(Type.Integer({ minimum: 0 })),
  }, { additionalProperties: true })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
  cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  query: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  include_total: Type.Optional(Type.Boolean({ default: false })),
  fields: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: true });

/** POST /tasks takes at most this much JSON (docs/decisions.md "Task limits"): a task's body is kept as long as the task. */
export const TASK_BODY_LIMIT = 256 * 1024;

export const taskBody = Type.Object({
  service_name: Type.Optional(Type.String({ maxLength: 200 })), queries: Type.Optional(Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 1000 })),
  enrichments: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })), tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
  enrich: Type.Optional(Type.Boolean({ description: 'Accepted and kept in the task\'s metadata; it changes nothing: the hosted dashboard sets it for tasks that enrich an uploaded file, which trawl tasks do not take (`enrichments` enrich the places found).' })),
  settings: Type.Optional(Type.Object({ output_extension: Type.Optional(Type.String({ maxLength: 20 })),
    output_columns: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 })) }, { additionalProperties: true })),
  categories: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 })),
  locations: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 10_000, description: 'GET /locations values. On engine_maps_service_v2 each is an area: each category is searched over it view by view as /maps/search `area` does (docs/areas.md), and a place found by two queries comes once (dropDuplicates defaults to true); `metadata.queries` lists `<category> in <location>`. Other services read a location as words of the phrase.' })),
  language: Type.Optional(Type.String()), region: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500_000 })),
  organizationsPerQueryLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Places per query (500 at most, default 500); a query over a location\'s area (`locations` on engine_maps_service_v2) takes up to 1,000,000.' })), filters: Type.Optional(resultFilters),
  exactMatch: Type.Optional(Type.Boolean({ description: 'Keeps only places one of whose categories (type, subtypes) is the category asked, compared as the business database compares types (case-insensitive). The category of a query built from `categories` is that category; of a custom query, its first words. Places left out are neither stored nor billed.' })),
  useZipCodes: Type.Optional(Type.Boolean({ description: 'Searches each location ZIP by ZIP: one query `<category> <ZIP>, <country code>` per ZIP code that lies in it, where GET /locations says `supports_zip_codes` (US, MY); other locations are searched as without it. `metadata.queries_count` in GET /tasks counts the queries searched (`metadata.queries` shows the first 10).' })),
  dropDuplicates: Type.Optional(Type.Boolean()),
  dropEmailDuplicates: Type.Optional(Type.Boolean({ description: 'Leaves out, in the task\'s result and file, a place whose e-mail address (email_N, contacts) a place before it had; places without one stay. Needs the contacts enrichment (`contacts_n_leads`). The places left out were found and enriched: they are billed.' })),
  ignoreWithoutEmails: Type.Optional(Type.Boolean({ description: 'Keeps only places with at least one e-mail address after the contacts enrichment (needs `contacts_n_leads`). Places left out are neither stored nor billed.' })),
  enrichLocations: Type.Optional(Type.Boolean({ description: 'Default true: `locations` are GET /locations values (an area on engine_maps_service_v2; elsewhere `US>Vermont>Burlington` reads `Burlington, Vermont, US`). false: each location is your own text, searched as written in the phrase, never an area nor split into ZIP codes.' })),
  UISettings: Type.Optional(Type.Object({ isCustomQueries: Type.Optional(Type.Boolean()), isCustomCategories: Type.Optional(Type.Boolean()),
    isCustomLocations: Type.Optional(Type.Boolean()) }, { additionalProperties: true })),
}, { additionalProperties: true });

const E = R.errorBody;
export const accountOperations: AccountOperation[] = [
  { method: 'GET', path: '/requests', summary: 'Up to 100 latest requests of the last 24 hours.',
    params: { type: oneOf(['running', 'finished'] as const, { def: 'running' }), skip: int({ min: 0, max: 100, def: 0 }), pageSize: int({ min: 1, max: 100, def: 20 }) },
    answers: { 200: Type.Array(R.historyItem), 401: E, 422: E } },
  { method: 'GET', path: '/requests/{requestId}', summary: 'Result of a request (kept 4 hours after it ends).',
    params: { requestId, flat: bool({ def: false, doc: 'Combines all query results into one array.' }),
      fields: str({ doc: 'Comma-separated field names to keep.' }),
      convertFileResult: bool({ def: true, doc: 'false: only the link to the file result of a UI task.' }) },
    answers: { 200: Type.Object({ id: Type.String(), status: Type.Literal('Success'), data: Type.Array(Type.Unknown()), errors: Type.Optional(R.queryErrors), areas: Type.Optional(R.queryAreas), metadata: Type.Optional(R.requestMetadata) }, { additionalProperties: true }),
      202: R.pending, 204: 'none', 401: E, 404: E } },
  { method: 'DELETE', path: '/requests/{requestId}', summary: 'Terminates a request: unfinished queries are cancelled, it ends as Failure.',
    params: { requestId }, answers: { 200: 'text', 401: E, 404: E } },
  { method: 'GET', path: '/tasks', summary: 'UI tasks, newest first.',
    params: { query: str({ doc: 'Tag (or text of the service name or queries) to search.' }), lastId: str({ doc: 'Last task id of the previous page.' }),
      pageSize: int({ min: 1, max: 100, def: 10 }) },
    answers: { 200: Type.Object({ tasks: Type.Array(R.task), has_more: Type.Boolean() }), 401: E, 422: E } },
  { method: 'POST', path: '/tasks', summary: 'Creates a UI task.', body: taskBody, bodyLimit: TASK_BODY_LIMIT,
    answers: { 200: Type.Object({ id: Type.String() }), 401: E, 402: E, 413: E, 422: E } },
  { method: 'GET', path: '/tasks/{taskId}', summary: 'One UI task of the account, as listed; a FAILURE says why in results[0].error.',
    params: { taskId: str({ maxLength: 100 }) }, answers: { 200: R.task, 401: E, 404: E } },
  { method: 'GET', path: '/tasks/files/{token}/{name}', summary: 'Downloads a task result file (the unguessable URL is the credential).',
    params: { token: str(), name: str() }, answers: { 200: 'file', 404: E }, public: true },
  { method: 'POST', path: '/businesses', summary: 'Business database search with cursor pagination.', body: businessesBody,
    answers: { 200: R.businessesAnswer, 401: E, 402: E, 422: E } },
  { method: 'GET', path: '/businesses/{businessId}', summary: 'One business database record by its os_id (or the identity it was made of), as the account sees it; billed as one business.',
    params: { businessId: str({ maxLength: 200, doc: 'The record\'s `os_id` (`bz_` + 24 hex digits); or the identity it was made of: a scraped place\'s `place_id` (its `engine_id` when it had none), an OSM object\'s `node/<id>` or `way/<id>`.' }),
      fields: str({ doc: 'Comma-separated field names to keep (an unknown name is a 422 listing the known ones).' }),
      // The hosted clients send these with every read; one record is answered at once, so they change nothing.
      async: bool({ doc: 'Accepted as the hosted clients send it; the record is always answered at once.' }),
      ui: bool({ doc: 'Accepted and ignored, as `async`.' }), webhook: str({ doc: 'Accepted and ignored, as `async`.' }) },
    answers: { 200: R.businessRecord, 401: E, 402: E, 404: E, 422: E } },
  { method: 'GET', path: '/profile/balance', summary: 'Balance and the upcoming invoice.', answers: { 200: R.balance, 401: E } },
  { method: 'GET', path: '/profile/webhook-secret', summary: 'The webhook signing secret: the key of the HMAC-SHA256 in the X-Hub-Signature-256 header of webhook calls.',
    answers: { 200: Type.Object({ webhook_secret: Type.String() }), 401: E } },
  { method: 'POST', path: '/profile/webhook-secret', summary: 'Rotates the webhook signing secret.',
    answers: { 200: Type.Object({ webhook_secret: Type.String() }), 401: E } },
  { method: 'GET', path: '/locations', summary: 'Country locations (states and cities) usable in map searches.',
    params: { country: str({ pattern: '^[A-Za-z]{2}$', doc: 'Two-letter country code (ISO 3166-1 alpha-2), any case.' }) }, required: ['country'],
    answers: { 200: R.locations, 401: E, 422: E } },
  { method: 'GET', path: '/webhook-calls', summary: 'Latest 100 failed webhook calls of the last 24 hours.',
    answers: { 200: Type.Array(R.webhookCall), 401: E } },
  ...profileOperations,
  ...monitorOperations,
  ...webhookOperations,
];

