/**
 * Monitors as the API shows them (issue 29; docs/monitors.md): a body checked field by field (a
 * monitor that could never run is a 422 naming the field), views in the API's snake_case, and pages of
 * runs and changes.
 *
 * @example await createMonitor(ctx, account, { endpoint: '/maps/search', queries: ['dentists in austin'], schedule: { every_s: 86400 } })
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import type { Account } from '../store/contract.ts';
import type { ChangeKind, ChangeRow, MonitorCompare, MonitorRow, MonitorRunRow } from '../store/monitors/contract.ts';
import { monitorStoreOf } from '../store/monitors/index.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import { readParams, ParamError } from '../contract/params.ts';
import { SUMMARY_ITEMS, SUMMARY_TEXT } from '../store/tasks/summary.ts';
import { AppError } from './errors.ts';
import { assertCanPay, checkRequest, checkWebhook } from './submit.ts';
import { MAX_QUERIES } from '../contract/shared.ts';
import { DEFAULT_COMPARE } from '../monitors/compare.ts';
import { MAX_EVERY_S, nextRunAfter, normaliseSchedule, scheduleProblem } from '../monitors/schedule.ts';
import { resultsLocation } from './results.ts';

type Body = Record<string, unknown>;

/** Most monitors one account may keep (each runs requests on its own). */
export const MAX_MONITORS = 200;
const KINDS: ChangeKind[] = ['new', 'gone', 'changed', 'new_reviews', 'removed'];

const bad = (msg: string): never => { throw new AppError(422, msg); };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that every store keeps as it is: well-formed, no NUL or control characters. */
function cleanText(field: string, v: unknown, max: number): string {
  if (typeof v !== 'string') return bad(`${field} must be a string`);
  if (v.length > max) bad(`${field} is at most ${max} characters, got ${v.length}`);
  // eslint-disable-next-line no-control-regex
  if (LONE_SURROGATE.test(v) || /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(v)) bad(`${field} has a control character or a lone surrogate`);
  return v;
}

function stringList(field: string, v: unknown, maxItems: number, maxLen: number): string[] {
  if (!Array.isArray(v)) return bad(`${field} must be an array of strings`);
  if (v.length > maxItems) bad(`${field} takes at most ${maxItems} items, got ${v.length}`);
  return v.map((x, i) => cleanText(`${field}[${i}]`, x, maxLen));
}

/** The data request's parameters, read and checked by the endpoint's own declarations. */
function paramsOf(endpoint: string, v: unknown): Body {
  const decl = endpointFor(endpoint)!;
  if (v === undefined) return {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('params must be an object of the endpoint\'s parameters');
  const raw = new Map<string, string[]>();
  for (const [k, x] of Object.entries(v as Body)) {
    if (!(k in decl.params)) bad(`params.${k} is not a parameter of ${endpoint} (it takes ${Object.keys(decl.params).join(', ')})`);
    const list = Array.isArray(x) ? x : [x];
    raw.set(k, list.map((y) => (typeof y === 'string' ? y : JSON.stringify(y))));
  }
  try {
    return readParams(decl.params, raw, decl.required);
  } catch (e) {
    if (e instanceof ParamError) bad(`params: ${e.message}`);
    throw e;
  }
}

function compareOf(endpoint: string, v: unknown): MonitorCompare {
  const def = DEFAULT_COMPARE[endpointFor(endpoint)!.path] ?? DEFAULT_COMPARE[endpoint];
  if (v === undefined) return def ?? bad(`compare is required for ${endpoint}: {"identity": ["id field"], "fields": ["field", ...]} (no default for this endpoint)`);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('compare must be an object: {"identity": [...], "fields": [...]}');
  const o = v as Body;
  const identity = o.identity === undefined ? def?.identity : stringList('compare.identity', o.identity, 5, 100);
  const fields = o.fields === undefined ? def?.fields : stringList('compare.fields', o.fields, 50, 100);
  if (!identity?.length) bad('compare.identity must name at least one field');
  const out: MonitorCompare = { identity: identity!, fields: fields ?? [] };
  const full = o.full_check_every_s === undefined ? def?.full_check_every_s : fullCheckOf(endpoint, o.full_check_every_s);
  if (full !== undefined) out.full_check_every_s = full;
  return out;
}

/** Seconds between a reviews monitor's full checks: 0 (none) or from an hour to a year. */
function fullCheckOf(endpoint: string, v: unknown): number {
  if (endpointFor(endpoint)!.path !== '/maps/reviews') bad(`compare.full_check_every_s is for /maps/reviews monitors (it reads every review of every place), not ${endpoint}`);
  if (typeof v !== 'number' || !Number.isInteger(v) || (v !== 0 && (v < 3600 || v > MAX_EVERY_S))) {
    bad(`compare.full_check_every_s must be 0 (no full check) or a whole number of seconds from 3600 to ${MAX_EVERY_S}, got ${JSON.stringify(v).slice(0, 40)}`);
  }
  return v as number;
}

const monitorId = () => `mon_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;

export async function createMonitor(ctx: AppContext, account: Account, body: Body): Promise<Body> {
  assertCanPay(account);
  const endpoint = cleanText('endpoint', body.endpoint ?? bad('endpoint is required: the data endpoint to run, e.g. "/maps/search"'), 200);
  const decl = endpointFor(endpoint) ?? bad(`endpoint ${JSON.stringify(endpoint)} is not a data endpoint of this service`);
  if (!(await ctx.adapters.load(decl.path))) bad(`${decl.path} has no source adapter in this deployment`);
  const queries = stringList('queries', body.queries ?? bad('queries is required: the queries each run asks'), MAX_QUERIES, 8192);
  if (!queries.length) bad('queries must hold at least one query');
  const why = scheduleProblem(body.schedule);
  if (why) bad(why);
  const webhook = body.webhook == null ? null : cleanText('webhook', body.webhook, 2000);
  if (webhook) await checkWebhook(ctx, webhook);
  const store = monitorStoreOf(ctx.store);
  if ((await store.countMonitors(account.id)) >= MAX_MONITORS) bad(`an account keeps at most ${MAX_MONITORS} monitors; delete one first`);
  const now = ctx.now();
  const schedule = normaliseSchedule(body.schedule as Body);
  const paused = body.status === 'paused';
  // What each run submits passes the endpoint's own checks now (its area included), not at each run.
  const params = paramsOf(decl.path, body.params);
  await checkRequest(ctx, decl, params, queries);
  const m: MonitorRow = {
    id: monitorId(), accountId: account.id, name: body.name == null ? null : cleanText('name', body.name, 200), endpoint: decl.path, queries,
    params, schedule, compare: compareOf(decl.path, body.compare), webhook, status: paused ? 'paused' : 'active', pausedReason: null,
    // The first run comes at once: it records what is there, so the next can say what changed.
    nextRunAt: paused ? null : now, lastRunAt: null, runs: 0, created: now, updated: now,
  };
  // Checked again with the insert, in one transaction: concurrent creates never pass the cap.
  if (!(await store.createMonitor(m, MAX_MONITORS))) bad(`an account keeps at most ${MAX_MONITORS} monitors; delete one first`);
  return monitorView(ctx, m);
}

export function monitorView(ctx: AppContext, m: MonitorRow): Body {
  return {
    id: m.id, name: m.name, endpoint: m.endpoint, queries: m.queries, params: m.params, schedule: m.schedule, compare: m.compare, webhook: m.webhook,
    status: m.status, paused_reason: m.pausedReason, next_run: m.nextRunAt == null ? null : Math.floor(m.nextRunAt / 1000), last_run: m.lastRunAt == null ? null : Math.floor(m.lastRunAt / 1000),
    runs: m.runs, created: Math.floor(m.created / 1000), updated: Math.floor(m.updated / 1000),
    changes_location: `${ctx.settings.baseUrl}/monitors/${m.id}/changes`,
  };
}

async function own(ctx: AppContext, accountId: string, id: string): Promise<MonitorRow> {
  return (await monitorStoreOf(ctx.store).getMonitor(accountId, id)) ?? bad404(id);
}
const bad404 = (id: string): never => { throw new AppError(404, `no monitor ${JSON.stringify(id.slice(0, 100))} in this account`); };

export async function getMonitor(ctx: AppContext, accountId: string, id: string): Promise<Body> {
  return monitorView(ctx, await own(ctx, accountId, id));
}

export async function listMonitors(ctx: AppContext, accountId: string, p: { lastId?: string; pageSize: number }): Promise<Body> {
  const rows = await monitorStoreOf(ctx.store).listMonitors(accountId, { lastId: p.lastId, limit: p.pageSize + 1 });
  return { monitors: rows.slice(0, p.pageSize).map((m) => listedMonitor(monitorView(ctx, m))), has_more: rows.length > p.pageSize };
}

/** A monitor as a listing shows it: its queries bounded like a task's (src/store/tasks/summary.ts). */
function listedMonitor(v: Body): Body {
  const queries = v.queries as string[];
  if (queries.length <= SUMMARY_ITEMS && queries.every((q) => q.length <= SUMMARY_TEXT)) return v;
  return { ...v, queries: queries.slice(0, SUMMARY_ITEMS).map((q) => q.slice(0, SUMMARY_TEXT)), queries_count: queries.length };
}

/** Pause, resume (the next run is then computed from now), or change what a monitor asks. */
export async function patchMonitor(ctx: AppContext, account: Account, id: string, body: Body): Promise<Body> {
  const m = await own(ctx, account.id, id);
  const known = new Set(['name', 'queries', 'params', 'schedule', 'compare', 'webhook', 'status']);
  for (const k of Object.keys(body)) if (!known.has(k)) bad(`${k} cannot be changed (a monitor's ${[...known].join(', ')} can)`);
  const patch: Partial<MonitorRow> = {};
  const now = ctx.now();
  if (body.name !== undefined) patch.name = body.name === null ? null : cleanText('name', body.name, 200);
  if (body.queries !== undefined) { patch.queries = stringList('queries', body.queries, MAX_QUERIES, 8192); if (!patch.queries.length) bad('queries must hold at least one query'); }
  if (body.params !== undefined) patch.params = paramsOf(m.endpoint, body.params);
  if (body.compare !== undefined) patch.compare = compareOf(m.endpoint, body.compare);
  if (body.webhook !== undefined) {
    patch.webhook = body.webhook === null ? null : cleanText('webhook', body.webhook, 2000);
    if (patch.webhook) await checkWebhook(ctx, patch.webhook);
  }
  if (body.schedule !== undefined) {
    const why = scheduleProblem(body.schedule);
    if (why) bad(why);
    patch.schedule = normaliseSchedule(body.schedule as Body);
  }
  if (body.status !== undefined) {
    if (body.status !== 'active' && body.status !== 'paused') bad('status must be "active" or "paused"');
    patch.status = body.status as MonitorRow['status'];
    // The user's own pause or resume: a reason the service gave for pausing it no longer holds.
    patch.pausedReason = null;
  }
  if (patch.queries || patch.params) await checkRequest(ctx, endpointFor(m.endpoint)!, patch.params ?? m.params, patch.queries ?? m.queries);
  const status = patch.status ?? m.status;
  if (status === 'paused') patch.nextRunAt = null;
  else if (m.status === 'paused' || patch.schedule) {
    // Against the stored balance (a top-up a moment ago counts), not the authentication cache: a
    // monitor the service paused because its account could not pay resumes only once it can.
    if (m.status === 'paused') assertCanPay((await ctx.store.getAccount(account.id)) ?? account);
    // Resumed, or a new rhythm: the next run from now (a first run at once if it never ran).
    patch.nextRunAt = m.runs === 0 ? now : nextRunAfter(patch.schedule ?? m.schedule, now);
  }
  return monitorView(ctx, (await monitorStoreOf(ctx.store).updateMonitor(account.id, id, patch, now))!);
}

export async function deleteMonitor(ctx: AppContext, accountId: string, id: string): Promise<string> {
  if (!(await monitorStoreOf(ctx.store).deleteMonitor(accountId, id))) bad404(id);
  return `monitor ${id} deleted with its runs and changes; a run already started finishes as an ordinary request`;
}

function runView(ctx: AppContext, r: MonitorRunRow): Body {
  return {
    id: r.id, due: Math.floor(r.dueAt / 1000), status: r.status, reason: r.reason, baseline: r.baseline, request_id: r.requestId,
    results_location: r.status === 'claimed' ? null : resultsLocation(ctx, r.requestId), counts: { ...r.counts, removed: r.counts.removed ?? 0 },
    finished: r.finishedAt == null ? null : Math.floor(r.finishedAt / 1000),
  };
}

export async function listRuns(ctx: AppContext, accountId: string, id: string, p: { before?: number; pageSize: number }): Promise<Body> {
  await own(ctx, accountId, id);
  const rows = await monitorStoreOf(ctx.store).listRuns(accountId, id, { before: p.before === undefined ? undefined : p.before * 1000, limit: p.pageSize + 1 });
  return { runs: rows.slice(0, p.pageSize).map((r) => runView(ctx, r)), has_more: rows.length > p.pageSize };
}

export function changeView(c: ChangeRow): Body {
  return { kind: c.kind, identity: c.identity, field: c.field, before: c.before, after: c.after, record: c.record, run_id: c.runId, at: Math.floor(c.at / 1000) };
}

export async function listChanges(ctx: AppContext, accountId: string, id: string, p: { cursor?: string; kind?: string; from?: number; to?: number; pageSize: number }): Promise<Body> {
  await own(ctx, accountId, id);
  const kinds = p.kind ? p.kind.split(',').map((k) => k.trim()).filter(Boolean) : undefined;
  for (const k of kinds ?? []) if (!KINDS.includes(k as ChangeKind)) bad(`kind must be among ${KINDS.join(', ')}, got ${JSON.stringify(k).slice(0, 40)}`);
  let afterSeq: number | undefined;
  if (p.cursor) {
    afterSeq = Number(Buffer.from(p.cursor, 'base64url').toString('utf8').replace(/^c:/, ''));
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) bad('cursor is not one this endpoint gave');
  }
  const rows = await monitorStoreOf(ctx.store).listChanges(accountId, id, {
    afterSeq, kinds: kinds as ChangeKind[] | undefined, from: p.from === undefined ? undefined : p.from * 1000, to: p.to === undefined ? undefined : p.to * 1000 + 999, limit: p.pageSize + 1,
  });
  const page = rows.slice(0, p.pageSize);
  const more = rows.length > p.pageSize;
  return { changes: page.map(changeView), has_more: more, next_cursor: more ? Buffer.from(`c:${page[page.length - 1].seq}`).toString('base64url') : null };
}
