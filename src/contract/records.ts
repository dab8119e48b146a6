/**
 * Every record kind the interface shows (section 2), as schemas. Extra fields are allowed anywhere
 * (decision 10); the named ones never change meaning or type. A value the source lacks is null.
 */
import { Type, nullable, type TSchema } from './dsl.ts';

const S = Type.String();
const NS = nullable(Type.String());
const NN = nullable(Type.Number());
const NI = nullable(Type.Integer());
const NB = nullable(Type.Boolean());
/** An open object; with `$id` it is also a named OpenAPI component (the name clients see). */
const open = <P extends Record<string, TSchema>>(props: P, description: string, $id?: string) => Type.Object(props, { additionalProperties: true, description, ...($id ? { $id } : {}) });

/** 2.3, with the shapes of its structured fields. */
export { placeRecord } from './records/place.ts';

/** 2.4, extended by issue 11: declared beside its source's other records. */
export { bizdirReviewRecord } from './records/bizdir-reviews.ts';

/** 2.5 plus the facts it was judged on. */
export { emailRecord } from './records/email-validator.ts';

/** 2.6 */
export const reverseGeocodingRecord = open({
  query: S, address: NS, city: NS, country_code: NS, county: NS, photo: NS, plus_code: NS, postal_code: NS, state: NS, street: NS, time_zone: NS,
}, 'Reverse geocoding.', 'ReverseGeocoding');

/** Forward geocoding (not shown by the interface; the fields of 2.6 at the point found, plus the point). */
export const geocodingRecord = open({
  query: S, latitude: Type.Number(), longitude: Type.Number(), address: NS, street: NS, city: NS, county: NS, state: NS, postal_code: NS,
  country: NS, country_code: NS, plus_code: NS, time_zone: NS,
  match: Type.Unsafe<'city' | 'geocoder'>({ type: 'string', enum: ['city', 'geocoder'],
    description: '`city`: the point of the city the text names, from the shipped gazetteer (GeoNames cities, offline); `geocoder`: the best hit of the operator\'s geocoder (GEOCODER_URL).' }),
}, 'Forward geocoding: where an address or place is.', 'Geocoding');

/** Map reviews, one element per place. */
export { mapsReviewsRecord } from './records/maps-reviews.ts';

/** The business database record, as stored and answered (snake_case, times in Unix seconds). */
export const businessRecord = open({
  os_id: S, place_id: NS, engine_id: NS, name: NS, phone: NS,
  phone_raw: Type.Optional(nullable(Type.String({ description: 'The phone as the source wrote it, when `phone` is that number normalised to E.164.' }))),
  site: NS, domain: NS, full_address: NS, street: NS, city: NS, county: NS,
  state: NS, postal_code: NS, country_code: NS, latitude: NN, longitude: NN, rating: NN, reviews: NI, types: Type.Array(S), category: NS,
  business_status: nullable(Type.Union([Type.Literal('operational'), Type.Literal('closed_temporarily'), Type.Literal('closed_permanently')])),
  verified: NB, area_service: NB, working_hours: Type.Unknown(),
  attributes: Type.Optional(Type.Array(S, { description: 'What the place offers or is, as the source says it (Wheelchair accessible entrance, Outdoor seating).' })),
  located_in: Type.Optional(NS), located_os_id: Type.Optional(nullable(Type.String({ description: 'The os_id of the place this one is located in (a mall, an airport).' }))),
  source: Type.String({ description: 'Where the record came from: the endpoint that scraped it, or osm.' }),
  added_timestamp: Type.Optional(Type.Integer()), updated_timestamp: Type.Optional(Type.Integer()),
}, 'Business database record.', 'Business');

export { phoneLookupRecord as phoneRecord } from './records/directory-phones.ts';


// ------------------------------------------------------------------ account-level shapes
export const errorBody = Type.Object({ error: Type.Literal(true), errorMessage: S }, { $id: 'Error', description: 'Error body.' });
export const accepted = Type.Object({ id: S, status: Type.Literal('Pending'), results_location: S }, { description: '202: request accepted.' });
const I = Type.Integer();
/** An area query's covering as it runs (extension, /maps/search with `area`). */
export const areaProgress = Type.Object({
  views_planned: I, views_done: I, views_saturated: I, places_found: I,
  coverage: Type.Number({ description: 'Estimated share of the counted cells\' places found so far (0-1).' }),
  planned: Type.Array(Type.Array(Type.Number()), { description: 'Views still to search, each [south, west, north, east], the next one first (at most 200).' }),
}, { description: 'Extension: the covering of the area queries still running (views are map views; a saturated view showed as many places as the site shows a view, ~120, and was split into quadrants). Counts add up over the running area queries.' });
/** How complete each ended area query believes it is (extension, docs/areas.md). */
export const queryAreas = Type.Array(Type.Object({
  query: S, views_searched: I, views_split_unsearched: I, views_saturated: I, views_saturated_deepest: I, requests: I,
  places_found: I, places_estimated: I, coverage: Type.Number({ description: 'Estimated share of the area\'s places found (0-1), from the places each view found again of its parent\'s.' }),
  view_cap: Type.Optional(Type.Union([I, Type.Null()], { description: 'Places a view showed at most, as the run proved it (the lowest recent one while it varied); null when no view proved one.' })),
  views_probed: Type.Optional(Type.Integer({ description: 'Views checked by one page of a sub-cell (is the count all of the view\'s places, or the cap?).' })),
  coverage_reason: Type.Optional(Type.String({ description: 'Why the figure is lower than the views alone say: views accepted unchecked where checks found others capped, a cap that varied, places a noisy ranking kept off every page and not asked for again, views saturated at the smallest cell.' })),
}), { description: 'Extension: one entry per area query (/maps/search with `area`): views searched, saturated, saturated at the smallest cell, and the estimated share of the area\'s places found. Absent without area queries.' });
/** Stub answers of a request (extension, docs/sources-maps-2026.md). */
export const requestMetadata = Type.Object({
  stubs_retried: Type.Integer({ description: 'Answers that held a stub (a record short of what its page shows) and were asked again from another identity.' }),
  stubs_served: Type.Integer({ description: 'Records served as stubs (still one when asked again); their queries name them in `errors` with type stub.' }),
}, { description: 'Extension: stub answers the request met. Absent when it met none.' });
export const pending = Type.Object({
  id: S, status: Type.Literal('Pending'), expired: Type.Optional(Type.Boolean()),
  progress: Type.Optional(Type.Object({ queries_total: Type.Integer(), queries_done: Type.Integer(), records: Type.Integer(), area: Type.Optional(areaProgress) })),
}, { description: 'Still running (progress counts queries and records so far), or expired: results are kept 4 hours after completion, then status reads Pending with expired: true.' });
export const historyItem = Type.Object({
  id: S, usage: S,
  endpoint: Type.Optional(S), status: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['Pending', 'Success', 'Failure'] })),
  created: Type.Optional(Type.Integer({ description: 'Unix seconds.' })),
  progress: Type.Optional(Type.Object({ queries_total: Type.Integer(), queries_done: Type.Integer(), records: Type.Integer() })),
  reason: Type.Optional(Type.String({ description: 'Why a request that ended in Failure failed: its first failed query\'s reason ("type: message"), or that it was cancelled.' })),
}, { description: 'Request history item; endpoint, status, created, progress and reason are additions (extra fields may appear in any answer; the named ones never change meaning or type).' });
export const task = Type.Object({
  id: S, metadata: Type.Object({ service_name: S, queries: Type.Array(S, { description: 'The first 10 queries searched (categories x locations expanded), each cut to 200 characters.' }),
    queries_count: Type.Optional(Type.Integer({ description: 'How many queries the task searches, when more than 10.' })) }, {
    additionalProperties: true,
    description: 'A bounded summary of the POST /tasks body: its declared fields, texts cut to 200 characters, lists to their first 10 values with `<name>_count` beside them when longer (a list of objects, `filters`, by its count alone).',
  }), created: S, updated: S,
  user_id: S, status: Type.Unsafe<string>({ type: 'string', enum: ['PENDING', 'RUNNING', 'SUCCESS', 'FAILURE', 'CANCELED'] }), queue_task_id: S,
  results: Type.Array(Type.Object({ product_name: S, quantity: Type.Integer(), file_url: Type.Optional(S),
    error: Type.Optional(Type.String({ description: 'Why the task ended FAILURE: its request\'s reason ("type: message" of its first failed query, as GET /requests/{id} gives it), or why its file could not be written after its request succeeded (its request\'s results stay readable).' })) })),
}, { $id: 'Task', additionalProperties: true, description: 'Task; status is PENDING, RUNNING, SUCCESS, FAILURE or CANCELED.' });
const micros = (of: string) => Type.Integer({ description: `${of} in millionths of the currency: exact, and these add up exactly.` });
export const balance = Type.Object({
  balance: Type.Number(), balance_micros: micros('The balance'), account_status: S,
  upcoming_invoice: Type.Object({
    amount_due: Type.Number(), applied_balance: Type.Number(), total: Type.Number(), subtotal: Type.Number(), total_discount: Type.Number(),
    amount_due_micros: micros('amount_due'), applied_balance_micros: micros('applied_balance'), total_micros: micros('The total'),
    currency: S, period_start: Type.Integer(), period_end: Type.Integer(), collection_method: S, subscription_id: S,
    products_lines: Type.Array(Type.Object({
      product_name: S, unit: S, quantity: Type.Integer(), amount: Type.Number(), amount_micros: micros('The line\'s amount'),
      lines: Type.Array(Type.Object({ quantity: Type.Integer(), amount: Type.Number(), amount_micros: micros('The line\'s amount'), currency: S, unit_price: S })),
    })),
  }),
  coupon: Type.Object({}, { additionalProperties: true }), id: S,
}, { $id: 'Balance', description: 'Balance. Amounts are rounded to the currency\'s precision so that lines add up to their total (and amount_due + applied_balance to total); each `*_micros` beside an amount is the exact value (additions to the interface).' });
export const locationItem: TSchema = Type.Recursive((Self) => Type.Object({ title: S, value: S, children: Type.Array(Self) }), { $id: 'LocationItem' });
export const locations = Type.Object({ items: Type.Array(locationItem), supports_zip_codes: Type.Boolean() }, { description: 'Locations.' });
export const webhookCall = Type.Object({ status: S, date: Type.Integer() }, { $id: 'WebhookCall', description: 'Failed webhook call.' });
export const webhookBody = Type.Object({
  id: S, user_id: S, status: Type.Unsafe<string>({ type: 'string', enum: ['SUCCESS', 'FAILURE'] }), api_task: Type.Boolean(),
  results_location: S, quota_usage: Type.Array(Type.Object({ product_name: S, quantity: Type.Integer() })),
}, {
  $id: 'WebhookBody',
  description: 'Body POSTed to a webhook when a request ends; header X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body keyed with the account webhook secret>. Retried after about 1 min, 5 min, 30 min, 2 h, 6 h without a 2xx within 10 s.',
});
export const businessesAnswer = Type.Object({
  items: Type.Array(businessRecord), next_cursor: NS, has_more: Type.Boolean(), total: Type.Optional(Type.Integer()),
  parsed_query: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'With `query`: the filters (as in `filters`) the natural-language query was read into.' })),
}, { description: 'Business database page.' });
/** Why queries failed (issue 9): beside the interface's fields of a request's answer. */
export const queryErrors = Type.Array(Type.Object({
  query: S,
  error: Type.Object({ type: Type.String({ description: 'Source error type: network, blocked, captcha, consent, rate_limited, not_found, layout_changed, invalid_query, forbidden_target, stale_request (the site no longer accepts the request form, e.g. a persisted-query hash), login_required (the site shows it only to a signed-in or age-verified visitor), misconfigured (the server setup keeps the source from being asked, e.g. no browser for a browser step), internal; step_budget for a query that ended early with its records; limited_view (the site showed a signed-out visitor a part only: a 403, a sign-in prompt, a first page cut short) and incomplete (a paged list ended with fewer than the answer says exist) for a query whose records read are kept and billed but are not the whole; stub (a record short of what its page shows, e.g. a place with one day of hours or no place_id, still so when asked again from another identity) for a query that served it, kept and billed.' }), message: S }),
}), { description: 'One entry per failed query (its data entry is empty), or per query that ended early (its records kept). Absent when every query succeeded. On a 204 answer the first reason is the header X-Request-Error.' });
