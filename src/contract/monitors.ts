/**
 * Monitors (issue 29; docs/monitors.md): an extension of the interface, account operations with
 * neutral names. A monitor runs one data request on a schedule and reports what changed between runs.
 */
import { Type, int, str } from './dsl.ts';
import * as R from './records.ts';
import type { AccountOperation } from './operation.ts';

const S = Type.String();
const E = R.errorBody;
const N = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);

const schedule = Type.Object({
  every_s: Type.Optional(Type.Integer({ minimum: 60, description: 'Seconds between runs (at least 60).' })),
  cron: Type.Optional(Type.String({ description: 'Five-field cron expression (minute hour day month weekday), read in time_zone.' })),
  time_zone: Type.Optional(Type.String({ description: 'IANA time zone of cron (default UTC).' })),
}, { description: 'Exactly one of every_s and cron.' });

/** POST and PATCH /monitors take at most this much JSON (docs/monitors.md): a monitor's body is kept as long as the monitor. */
export const MONITOR_BODY_LIMIT = 256 * 1024;

const compare = Type.Object({
  identity: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50, description: 'Record fields that together name one record across runs (default per endpoint: place_id for places).' })),
  fields: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200, description: 'Fields whose change is reported (default per endpoint: name, address, phone, site, category, rating, reviews, hours, status, price range for places).' })),
  full_check_every_s: Type.Optional(Type.Integer({ minimum: 0, description: '/maps/reviews only: seconds between full checks, runs that read every review of every place, which is what shows a review removed on a day another was added (the count unchanged). Default 2592000 (30 days); 0 turns them off (then removals are not reported).' })),
});

export const monitorBody = Type.Object({
  endpoint: Type.String({ description: 'The data endpoint each run asks, e.g. /maps/search.' }),
  queries: Type.Array(Type.String({ maxLength: 8192 }), { maxItems: 1000, description: 'The queries each run asks.' }),
  params: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The endpoint\'s parameters (limit, language, ...), checked as that endpoint checks them.' })),
  schedule, compare: Type.Optional(compare),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  webhook: Type.Optional(Type.String({ maxLength: 2000, description: 'Called after each run (signed like every webhook) with the run and its changes.' })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
}, { additionalProperties: true });

export const monitorView = Type.Object({
  id: S, name: N(S), endpoint: S, queries: Type.Array(S, { description: 'Its queries; in GET /monitors the first 10, each cut to 200 characters.' }),
  queries_count: Type.Optional(Type.Integer({ description: 'In GET /monitors, how many queries the monitor has, when the listing cut them (more than 10, or one past 200 characters); GET /monitors/{monitorId} shows them all.' })), params: Type.Object({}, { additionalProperties: true }), schedule, compare, webhook: N(S),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  paused_reason: N(Type.String({ description: 'Why the service paused the monitor: its account could not pay a run (balance plus credit limit used up). Null while active or paused by the user; cleared when the user sets status. Top up, then resume with {"status": "active"} (a 402 while the account still cannot pay).' })),
  next_run: N(Type.Integer({ description: 'Unix seconds of the next due run; null while paused.' })), last_run: N(Type.Integer()), runs: Type.Integer(),
  created: Type.Integer(), updated: Type.Integer(), changes_location: S,
}, { $id: 'Monitor', description: 'A monitor (an extension: not in the interface).' });

const counts = Type.Object({ new: Type.Integer(), gone: Type.Integer(), changed: Type.Integer(), new_reviews: Type.Integer(), removed: Type.Integer(), records: Type.Integer() });
export const monitorRun = Type.Object({
  id: S, due: Type.Integer({ description: 'Unix seconds of the due time this run answers.' }),
  status: Type.Union(['claimed', 'running', 'done', 'failed'].map((x) => Type.Literal(x))), reason: N(S),
  baseline: Type.Boolean({ description: 'The first run: it records what is there and reports no change.' }),
  request_id: S, results_location: N(S), counts, finished: N(Type.Integer()),
}, { $id: 'MonitorRun', description: 'One run of a monitor: an ordinary request, metered and billed as such.' });

export const monitorChange = Type.Object({
  kind: Type.Union(['new', 'gone', 'changed', 'new_reviews', 'removed'].map((x) => Type.Literal(x)), { description: 'new: found for the first time; gone: no more found by the same query; changed: one field changed; new_reviews: reviews newer than any seen; removed: one review seen before no longer listed (field: the list, before: its id).' }),
  identity: Type.String({ description: 'The record\'s identity values joined by |.' }), field: N(S), before: Type.Unknown(), after: Type.Unknown(),
  record: Type.Unknown({ description: 'The record (new) or the new reviews (new_reviews); else null.' }), run_id: S, at: Type.Integer(),
}, { $id: 'MonitorChange', description: 'One change a monitor run found.' });

const monitorId = str({ doc: 'The monitor\'s id.' });

export const monitorOperations: AccountOperation[] = [
  { method: 'POST', path: '/monitors', summary: 'Creates a monitor: a data request run on a schedule that reports what changed (extension).', body: monitorBody,
    bodyLimit: MONITOR_BODY_LIMIT, answers: { 200: monitorView, 401: E, 402: E, 413: E, 422: E } },
  { method: 'GET', path: '/monitors', summary: 'The account\'s monitors, newest first (extension).',
    params: { lastId: str({ doc: 'Last monitor id of the previous page.' }), pageSize: int({ min: 1, max: 100, def: 20 }) },
    answers: { 200: Type.Object({ monitors: Type.Array(monitorView), has_more: Type.Boolean() }), 401: E, 422: E } },
  { method: 'GET', path: '/monitors/{monitorId}', summary: 'One monitor (extension).', params: { monitorId }, answers: { 200: monitorView, 401: E, 404: E } },
  { method: 'PATCH', path: '/monitors/{monitorId}', summary: 'Pauses, resumes or changes a monitor (extension).', params: { monitorId },
    body: Type.Partial(monitorBody), bodyLimit: MONITOR_BODY_LIMIT, answers: { 200: monitorView, 401: E, 402: E, 404: E, 413: E, 422: E } },
  { method: 'DELETE', path: '/monitors/{monitorId}', summary: 'Deletes a monitor with its runs and changes (extension).', params: { monitorId },
    answers: { 200: 'text', 401: E, 404: E } },
  { method: 'GET', path: '/monitors/{monitorId}/runs', summary: 'A monitor\'s runs, newest first (extension).',
    params: { monitorId, before: int({ min: 0, doc: 'Only runs due before this Unix second (the previous page\'s last due).' }), pageSize: int({ min: 1, max: 100, def: 20 }) },
    answers: { 200: Type.Object({ runs: Type.Array(monitorRun), has_more: Type.Boolean() }), 401: E, 404: E, 422: E } },
  { method: 'GET', path: '/monitors/{monitorId}/changes', summary: 'What a monitor\'s runs found changed, oldest first, through a cursor (extension).',
    params: { monitorId, cursor: str({ doc: 'next_cursor of the previous page.' }), kind: str({ doc: 'Comma-separated kinds: new, gone, changed, new_reviews, removed.' }),
      from: int({ min: 0, doc: 'Unix seconds, inclusive.' }), to: int({ min: 0, doc: 'Unix seconds, inclusive.' }), pageSize: int({ min: 1, max: 1000, def: 100 }) },
    answers: { 200: Type.Object({ changes: Type.Array(monitorChange), has_more: Type.Boolean(), next_cursor: N(S) }), 401: E, 404: E, 422: E } },
];
