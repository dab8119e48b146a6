/**
 * Table rows to contract objects, shared by both stores: the schemas use the same column names, and
 * only JSON columns differ (SQLite hands back their text, PostgreSQL the parsed value), hence `json`.
 *
 * @example const { toRequest } = rowMappers(JSON.parse); toRequest(db.prepare('SELECT * FROM requests').get())
 */
import type { Account, RequestRow, TaskRow } from './contract.ts';

type Row = Record<string, any>;

export const toAccount = (r: Row): Account => ({
  id: r.id, name: r.name, balance: r.balance, creditLimit: r.credit_limit, currency: r.currency,
  pastDue: !!r.past_due, webhookSecret: r.webhook_secret, webhookUrl: r.webhook_url ?? null,
  ratePerSec: r.rate_per_sec, burst: r.burst, createdAt: r.created_at,
});

/** Request and task rows, with `json` reading a JSON column's value. */
export function rowMappers(json: (v: any) => any) {
  return {
    toRequest: (r: Row): RequestRow => ({
      id: r.id, accountId: r.account_id, endpoint: r.endpoint, params: json(r.params), status: r.status,
      queriesTotal: r.queries_total, queriesDone: r.queries_done, records: r.records, usage: r.usage,
      webhook: r.webhook ?? null, product: r.product, unit: r.unit, unitPrice: r.unit_price,
      emptyCostsOne: !!r.empty_costs_one, dropDuplicates: !!r.drop_duplicates, cancelled: !!r.cancelled,
      taskId: r.task_id ?? null, createdAt: r.created_at, finishedAt: r.finished_at ?? null,
    }),
    toTask: (r: Row): TaskRow => ({
      id: r.id, accountId: r.account_id, requestId: r.request_id ?? null, serviceName: r.service_name,
      queries: json(r.queries), tags: json(r.tags), spec: json(r.spec), status: r.status, format: r.format,
      fileToken: r.file_token ?? null, filePath: r.file_path ?? null, results: json(r.results),
      created: r.created, updated: r.updated, queueTaskId: r.queue_task_id,
    }),
  };
}

/** Account fields an update may set, and their columns. */
export const ACCOUNT_COLUMNS: Record<string, string> = {
  name: 'name', creditLimit: 'credit_limit', currency: 'currency', pastDue: 'past_due', webhookSecret: 'webhook_secret',
  webhookUrl: 'webhook_url', ratePerSec: 'rate_per_sec', burst: 'burst',
};

/** Task fields an update may set, and their columns. */
export const TASK_COLUMNS: Record<string, string> = {
  status: 'status', fileToken: 'file_token', filePath: 'file_path', results: 'results', updated: 'updated', requestId: 'request_id',
};
