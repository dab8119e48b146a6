/**
 * UI tasks (interface 4.7, decisions 16-17): a request run on the platform whose results become a
 * file (xlsx by default, csv, json, parquet), downloadable at an unguessable `file_url`.
 *
 * @example
 *   const { id } = await createTask(ctx, account, { service_name: 'engine_maps_service_v2', queries: ['pizza'], tags: ['food'] });
 *   await listTasks(ctx, account.id, { pageSize: 10 }) // { tasks: [...], has_more: false }
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Account, RequestRow, TaskRow } from '../store/contract.ts';
import type { TaskListRow } from '../store/tasks/contract.ts';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { taskTime } from './ids.ts';
import { submit } from './submit.ts';
import { checkBody } from './body.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { taskBody } from '../contract/account.ts';
import { dataEndpoints, endpointByService } from '../contract/endpoints/index.ts';
import { withSelection } from './task-selection.ts';
import { TASK_MAX_QUERIES } from './task-queries.ts';
import { taskQueriesChecked } from './checks.ts';
import { QUERY_AREAS } from '../contract/query-area.ts';
import { selectionOf } from '../engine/selection.ts';
import { ParamError, readParams, withAliases, type RawParams } from '../contract/params.ts';
import { extensionOf, isExportFormat, exportFormats, type ExportFormat } from '../delivery/export/formats.ts';
import { failedQueries } from './results.ts';
import { taskSummary } from '../store/tasks/summary.ts';

/** A listed task (interface 2.7): its metadata is the bounded summary (src/store/tasks/summary.ts). */
export function taskView(t: TaskListRow) {
  return {
    id: t.id, metadata: t.summary, created: taskTime(t.created),
    updated: taskTime(t.updated), user_id: t.accountId, status: t.status, queue_task_id: t.queueTaskId, results: t.results,
  };
}

const asStringArray = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export async function createTask(ctx: AppContext, account: Account, body: Record<string, unknown>) {
  checkBody(taskBody, body);
  const service = typeof body.service_name === 'string' ? body.service_name : 'engine_maps_service_v2';
  const decl = endpointByService(service);
  if (!decl) {
    throw new AppError(422, `service_name must be one of ${dataEndpoints.map((e) => e.service).join(', ')}, got ${JSON.stringify(service.slice(0, 100))}`);
  }
  const { queries, areas, shown } = await taskQueriesChecked(body, 'area' in decl.params, ctx.settings.checkBudgetMs);
  // The body's field names, not the query string's (`query=...`): submit's own checks speak of those.
  if (!queries.length) throw new AppError(422, 'queries is required: give at least one query in the body\'s "queries" array (or "categories", with optional "locations")');
  const settings = (body.settings ?? {}) as { output_extension?: unknown; output_columns?: unknown; escape_formulas?: unknown };
  if (settings.escape_formulas !== undefined && typeof settings.escape_formulas !== 'boolean') {
    throw new AppError(422, `settings.escape_formulas must be true (escape every formula-looking text, numbers and phones too) or false (none), got ${JSON.stringify(settings.escape_formulas)}`);
  }
  const format = settings.output_extension ?? 'xlsx';
  if (!isExportFormat(format)) throw new AppError(422, `settings.output_extension must be one of ${exportFormats.join(', ')}, got ${JSON.stringify(format)}`);
  // Body fields that are parameters of the endpoint go through the same reader as the query string.
  // The endpoint's parameter aliases too (organizationsPerQueryLimit = limit, ...).
  const given: Record<string, unknown> = { ...body };
  const enrich = asStringArray(body.enrichments);
  if (enrich.length && 'enrichment' in decl.params) given.enrichment = enrich;
  const raw: RawParams = new Map();
  for (const name of [...Object.keys(decl.params), ...Object.keys(decl.paramAliases ?? {})]) {
    const v = Object.hasOwn(given, name) ? given[name] : undefined;
    if (v !== undefined && v !== null) raw.set(name, (Array.isArray(v) ? v : [v]).map(String));
  }
  let params: Record<string, unknown>;
  try {
    params = readParams(decl.params, withAliases(raw, decl.paramAliases));
  } catch (e) {
    if (e instanceof ParamError) throw new AppError(422, e.message);
    throw e;
  }
  params = withSelection(decl, body, params);
  if (areas) {
    // Each query covers its own location (src/contract/query-area.ts); a place found in two of them
    // (a city inside a state, two touching counties) is kept once unless the task says otherwise.
    params = { ...params, [QUERY_AREAS]: areas };
    if (body.dropDuplicates === undefined) params.dropDuplicates = true;
  }
  const tags = asStringArray(body.tags);
  const { taskId } = await submit(ctx, account, decl, params, queries, {
    webhook: null, ui: true, format, task: { tags, spec: { ...body, settings }, queries: shown }, maxQueries: TASK_MAX_QUERIES,
  });
  return { id: taskId! };
}

export async function listTasks(ctx: AppContext, accountId: string, o: { query?: string; lastId?: string; pageSize: number }) {
  const rows = await ctx.store.listTasks(accountId, { tag: o.query, lastId: o.lastId, limit: o.pageSize + 1 });
  return { tasks: rows.slice(0, o.pageSize).map(taskView), has_more: rows.length > o.pageSize };
}

/** `GET /tasks/{taskId}`: one task of the account, as listed (a FAILURE says why in `results[0].error`); another's or none is a 404. */
export async function getTaskView(ctx: AppContext, accountId: string, id: string) {
  const t = id.length <= 100 ? await ctx.store.getTask(id) : null;
  if (!t || t.accountId !== accountId) throw new AppError(404, `no task ${id.slice(0, 100)}`);
  const { queries: _q, spec: _s, ...row } = t;
  return taskView({ ...row, summary: taskSummary(t) });
}

export function fileUrl(ctx: AppContext, token: string, t: TaskRow): string {
  return `${ctx.settings.baseUrl}/tasks/files/${token}/${t.id}.${extensionOf(t.format as ExportFormat)}`;
}

/** The request's stored records texts, in query order. */
async function* textsOf(ctx: AppContext, r: RequestRow): AsyncGenerator<string> {
  for await (const q of ctx.store.readResults(r.id)) yield q.recordsJson;
}

/**
 * Turns a finished request into its task's final state and file. Safe to call again (recovery).
 * Throws, leaving the task PENDING, when the file failed for a cause that passes (a full disk).
 */
export function finishTask(ctx: AppContext, r: RequestRow): Promise<void> {
  if (!r.taskId || r.finishedAt === null) return Promise.resolve();
  // One writer per task in this process: the request's end and the recovery sweep can meet, and two
  // files renamed over each other changed a download under way.
  const id = r.taskId;
  const running = finishing.get(id);
  if (running) return running;
  const p = finishOnce(ctx, r, id, r.finishedAt).finally(() => finishing.delete(id));
  finishing.set(id, p);
  return p;
}
const finishing = new Map<string, Promise<void>>();

async function finishOnce(ctx: AppContext, r: RequestRow, taskId: string, finishedAt: number): Promise<void> {
  const t = await ctx.store.getTask(taskId);
  if (!t || t.status === 'SUCCESS' || t.status === 'FAILURE' || t.status === 'CANCELED') return;
  if (r.status !== 'Success') {
    // The request's reason (its first failed query's, as GET /requests/{id} gives it) travels with the task.
    const [why] = r.cancelled ? [] : await failedQueries(ctx, r, 1);
    const error = why ? { error: `${why.error.type}: ${why.error.message}` } : {};
    await ctx.store.updateTask(t.id, { status: r.cancelled ? 'CANCELED' : 'FAILURE', updated: ctx.now(), results: [{ product_name: t.serviceName, quantity: r.usage, ...error }] });
    return;
  }
  // The request's results are gone (RETENTION_MS): no file can be written from them any more.
  if (finishedAt + ctx.settings.retentionMs <= ctx.now()) return failTask(ctx, t, r, 'its results expired before the file could be written');
  try {
    await writeTaskFile(ctx, t, r);
    failedWrites.delete(t.id);
  } catch (e) {
    // A full disk (or the store away) passes: the task stays PENDING and the recovery sweep
    // (./task-recovery.ts) writes it again, as long as its results are kept. Another error is tried
    // WRITE_ATTEMPTS times in all (a file system can fail once), then the task ends FAILURE with it.
    const tries = (failedWrites.get(t.id) ?? 0) + 1;
    if (!isPassing(e) && tries >= WRITE_ATTEMPTS) {
      failedWrites.delete(t.id);
      return failTask(ctx, t, r, `the file could not be written: ${(e as Error).message}`);
    }
    failedWrites.set(t.id, tries);
    ctx.log.warn({ taskId: t.id, requestId: r.id, err: (e as Error).message, attempt: tries }, 'task file failed; written again');
    throw e;
  }
}

/** Attempts at a task's file that met an error which does not pass, before the task ends FAILURE. */
const WRITE_ATTEMPTS = 3;
/** Failed attempts per task in this process (a task another process finishes is dropped from it at start over). */
const failedWrites = new Map<string, number>();

/** Errors that pass on their own: the file system out of space or descriptors, the store unreachable. */
const PASSING = new Set(['ENOSPC', 'EDQUOT', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY']);
function isPassing(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return (typeof code === 'string' && PASSING.has(code)) || /\bENOSPC\b|no space left on device/i.test(String((e as Error)?.message)) || isStoreUnavailable(e);
}

/** The task ends FAILURE saying why; its request (and the results it still has) is untouched. */
async function failTask(ctx: AppContext, t: TaskRow, r: RequestRow, why: string): Promise<void> {
  ctx.log.error({ taskId: t.id, requestId: r.id, reason: why }, 'task failed');
  await ctx.store.updateTask(t.id, { status: 'FAILURE', updated: ctx.now(), results: [{ product_name: t.serviceName, quantity: r.usage, error: why }] });
}

async function writeTaskFile(ctx: AppContext, t: TaskRow, r: RequestRow): Promise<void> {
  const token = randomBytes(24).toString('base64url');
  const path = join(ctx.settings.dataDir, 'files', `${t.id}.${extensionOf(t.format as ExportFormat)}`);
  const taskSettings = t.spec.settings as { output_columns?: unknown; escape_formulas?: unknown } | undefined;
  const columns = asStringArray(taskSettings?.output_columns);
  const escapeFormulas = typeof taskSettings?.escape_formulas === 'boolean' ? taskSettings.escape_formulas : undefined;
  // On a worker thread (EXPORT_THREADS): encoding 10k rows stalled the API for up to 0.8 s (issue 15).
  const { writeExportOffThread } = await import('../delivery/export/off-thread.ts');
  const job = { format: t.format as ExportFormat, path, columns: columns.length ? columns : undefined, dropDuplicates: r.dropDuplicates,
    dropEmailDuplicates: selectionOf(r.params)?.dropEmailDuplicates, escapeFormulas };
  await writeExportOffThread(job, () => textsOf(ctx, r), ctx.settings.exportThreads);
  await ctx.store.updateTask(t.id, {
    status: 'SUCCESS', fileToken: token, filePath: path, updated: ctx.now(),
    results: [{ product_name: t.serviceName, quantity: r.usage, file_url: fileUrl(ctx, token, t) }],
  });
}
