/**
 * Table rows to contract objects, shared by both stores: the schemas use the same column names, and
 * only JSON columns differ (SQLite hands back their text, PostgreSQL the parsed value), hence `json`.
 *
 * @example const { toRequest } = rowMappers(JSON.parse); toRequest(db.prepare('SELECT * FROM requests').get())
 */
import type { Account, ApiKeyRow, RequestRow, TaskRow, UsageLine, WebhookCall, WebhookSubscription } from './contract.ts';
import type { WebhookEvent } from '../contract/webhooks.ts';
import type { TaskListRow } from './tasks/contract.ts';
import { taskSummary } from './tasks/summary.ts';

export type Row = Record<string, any>;

export const toAccount = (r: Row): Account => ({
  id: r.id, name: r.name, balanceMicros: r.balance_micros, creditLimitMicros: r.credit_limit_micros, currency: r.currency,
  pastDue: !!r.past_due, webhookSecret: r.webhook_secret, webhookUrl: r.webhook_url ?? null,
  ratePerSec: r.rate_per_sec, burst: r.burst, createdAt: r.created_at,
});

export const toApiKey = (r: Row): ApiKeyRow => ({
  id: r.id, accountId: r.account_id, prefix: r.prefix, createdAt: r.created_at, revokedAt: r.revoked_at ?? null,
});

/** A usage sum row (product, unit, unit_price_micros, quantity, amount_micros). */
export const toUsageLine = (r: Row): UsageLine => ({
  product: r.product, unit: r.unit, quantity: r.quantity, amountMicros: r.amount_micros, unitPriceMicros: r.unit_price_micros,
});

/** A failed webhook call as GET /webhook-calls lists it (seconds, like the rest of that answer). */
export const toWebhookCall = (r: Row): WebhookCall => ({ status: `Status code: ${r.status_code}`, date: Math.floor(r.created_at / 1000) });

/** `events` is stored ',a,b,' (one strpos/instr finds an event in SQL). */
export const toWebhookSubscription = (r: Row): WebhookSubscription => ({
  id: r.id, accountId: r.account_id, url: r.url, events: String(r.events).split(',').filter(Boolean) as WebhookEvent[],
  description: r.description ?? null, created: Number(r.created_at),
});

/** Request and task rows, with `json` reading a JSON column's value. */
export function rowMappers(json: (v: any) => any) {
  const toTask = (r: Row): TaskRow => ({
    id: r.id, accountId: r.account_id, requestId: r.request_id ?? null, serviceName: r.service_name,
    queries: json(r.queries), tags: json(r.tags), spec: json(r.spec), status: r.status, format: r.format,
    fileToken: r.file_token ?? null, filePath: r.file_path ?? null, results: json(r.results),
    created: r.created, updated: r.updated, queueTaskId: r.queue_task_id,
  });
  return {
    toRequest: (r: Row): RequestRow => ({
      id: r.id, accountId: r.account_id, endpoint: r.endpoint, params: json(r.params), status: r.status,
      queriesTotal: r.queries_total, queriesDone: r.queries_done, records: r.records, usage: r.usage,
      webhook: r.webhook ?? null, product: r.product, unit: r.unit, unitPriceMicros: r.unit_price_micros,
      emptyCostsOne: !!r.empty_costs_one, dropDuplicates: !!r.drop_duplicates, cancelled: !!r.cancelled,
      taskId: r.task_id ?? null, createdAt: r.created_at, finishedAt: r.finished_at ?? null,
    }),
    toTask,
    /** A TASK_LISTED row: the stored summary, or one made from the body of a row written before summaries. */
    toTaskListed: (r: Row): TaskListRow => {
      const { queries: _q, spec: _s, ...rest } = toTask(r);
      return { ...rest, summary: r.summary != null ? json(r.summary) : taskSummary({ serviceName: r.service_name, queries: json(r.queries), tags: json(r.tags), spec: json(r.spec) }) };
    },
  };
}

/** Account fields an update may set, and their columns. */
export const ACCOUNT_COLUMNS: Record<string, string> = {
  name: 'name', creditLimitMicros: 'credit_limit_micros', currency: 'currency', pastDue: 'past_due', webhookSecret: 'webhook_secret',
  webhookUrl: 'webhook_url', ratePerSec: 'rate_per_sec', burst: 'burst',
};

/** Task fields an update may set, and their columns. */
export const TASK_COLUMNS: Record<string, string> = {
  status: 'status', fileToken: 'file_token', filePath: 'file_path', results: 'results', updated: 'updated', requestId: 'request_id',
};

/** A new task row's columns, in the order of taskValues. */
export const TASK_INSERT = 'id, account_id, request_id, service_name, queries, tags, spec, status, format, file_token, file_path, results, created, updated, queue_task_id, summary';

/** The columns a listing reads: the body and queries only of a row written before summaries. */
export const TASK_LISTED = `id, account_id, request_id, service_name, tags, status, format, file_token, file_path, results, created, updated, queue_task_id, summary,
  CASE WHEN summary IS NULL THEN queries END AS queries, CASE WHEN summary IS NULL THEN spec END AS spec`;

/** A task's values for TASK_INSERT, JSON columns as text (both stores take that). */
export const taskValues = (t: TaskRow): unknown[] => [t.id, t.accountId, t.requestId, t.serviceName, JSON.stringify(t.queries), JSON.stringify(t.tags),
  JSON.stringify(t.spec), t.status, t.format, t.fileToken, t.filePath, JSON.stringify(t.results), t.created, t.updated, t.queueTaskId, JSON.stringify(taskSummary(t))];

/**
 * A work item id is `<request id>:<query index>`: its two parts.
 *
 * @example splitItemId('r1:7') // ['r1', 7]
 */
export function splitItemId(itemId: string): [string, number] {
  const i = itemId.lastIndexOf(':');
  return [itemId.slice(0, i), Number(itemId.slice(i + 1))];
}

/** How many chunk rows a read takes at a time: a few hundred records, never a whole long query. */
export const CHUNK_PAGE = 16;

/**
 * The saved chunks of one query in order, CHUNK_PAGE rows (`chunk`, `records`) at a time from
 * `page(after)`, the rows whose chunk number is above `after`.
 *
 * @example for await (const text of chunkTexts((after) => rowsAfter(after))) ...
 */
export async function* chunkTexts(page: (after: number) => Row[] | Promise<Row[]>): AsyncIterable<string> {
  let after = -1;
  for (;;) {
    const rows = await page(after);
    for (const r of rows) yield r.records as string;
    if (rows.length < CHUNK_PAGE) return;
    after = rows[rows.length - 1].chunk;
  }
}
