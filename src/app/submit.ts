/**
 * Accepting a request: every check that can refuse it happens before anything is stored, then the
 * request, its work items (and its task, for `ui`) are written in one go and announced to the queue;
 * past ITEMS_AT_ONCE queries (a task's expansion), the items after the answer (./item-writer.ts).
 *
 * @example
 *   const r = await submit(ctx, account, endpointFor('/maps/search')!, { limit: 20 }, ['pizza nyc'], { webhook: null, ui: false });
 *   r.id
 */
import type { Account, NewRequest } from '../store/contract.ts';
import type { DataEndpoint } from '../contract/endpoint.ts';
import type { AppContext } from './context.ts';
import { AppError, PAYMENT_REQUIRED } from './errors.ts';
import { assertRoomForWork } from './data-cap.ts';
import { newRequestId, newTaskId } from './ids.ts';
import { DEFAULT_ENRICHMENT_PRICES, defaultUnitPriceMicros } from '../billing/prices.ts';
import { ENRICHMENT_PRICES } from '../enrich/supported.ts';
import type { Micros } from '../billing/money.ts';
import { canCharge } from '../billing/credit.ts';
import { MAX_QUERIES } from '../contract/shared.ts';
import { randomUUID } from 'node:crypto';
import { cursorProblem } from '../engine/cursor.ts';
import { endpointRule } from './checks.ts';
import { writeWaitingItems } from './item-writer.ts';
import { ITEMS_AT_ONCE } from '../store/requests/contract.ts';

export interface SubmitOptions {
  webhook: string | null;
  ui: boolean;
  format?: string;
  /** Task fields from POST /tasks: its tags, its spec, and what `metadata.queries` lists (default: the queries). */
  task?: { tags: string[]; spec: Record<string, unknown>; queries?: string[] };
  /** Queries the request may have (default MAX_QUERIES): a task's own expansion of categories × locations may have more. */
  maxQueries?: number;
  /** The request's id when the caller chose it beforehand (a monitor run: a second submit of the
   *  same id fails in the store instead of starting the run twice). */
  id?: string;
}

/** Prices change rarely (an operator command): each process re-reads them every 10 s at most. */
const prices = new Map<string, { price: number; at: number }>();

/** The account's price of a product (cached 10 s), else the default of its unit. */
export async function priceOf(ctx: AppContext, product: string, unit: string, accountId: string, fallback = defaultUnitPriceMicros(unit)): Promise<Micros> {
  const k = `${accountId}|${product}`;
  const now = ctx.now();
  const c = prices.get(k);
  if (c && now - c.at < 10_000 && now >= c.at) return c.price;
  const price = (await ctx.store.getPrice(product, accountId)) ?? fallback;
  if (prices.size > 10_000) prices.clear();
  prices.set(k, { price, at: now });
  return price;
}

/** Past due: flagged by an operator, or balance plus credit at or below zero (also `account_status`):
 *  the account may not be charged (src/billing/credit.ts). */
export function isPastDue(account: Account): boolean {
  return !canCharge(account);
}

export function assertCanPay(account: Account): void {
  if (isPastDue(account)) throw new AppError(402, PAYMENT_REQUIRED);
}

export async function checkWebhook(ctx: AppContext, url: string): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError(422, `webhook must be an absolute http(s) URL, got ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError(422, `webhook must be an http(s) URL, got scheme "${u.protocol.slice(0, -1)}"`);
  try {
    await ctx.checkTargetUrl(url);
  } catch (e) {
    const detail = (e as { detail?: string }).detail;
    if (detail) ctx.log.warn({ detail }, 'webhook target refused');
    throw new AppError(422, `webhook ${JSON.stringify(url.slice(0, 200))} is refused: ${(e as Error).message}`);
  }
}

/**
 * The checks a request's own parameters and queries pass before anything is stored: an adapter
 * serves the endpoint (501), each query is one the adapter takes, a cursor is this deployment's, the
 * endpoint's rule and its `area` (off the API thread, ./checks.ts) hold (422). A monitor's queries and
 * params pass the same at create and update, so none is stored that every run would refuse.
 */
export async function checkRequest(ctx: AppContext, decl: DataEndpoint, params: Record<string, unknown>, queries: string[]): Promise<void> {
  const adapter = await ctx.adapters.load(decl.path);
  if (!adapter) throw new AppError(501, `${decl.path} has no source adapter in this deployment yet; it serves ${ctx.adapters.endpoints().join(', ') || 'no data endpoint'}`);
  if (adapter.checkQuery) {
    for (const q of queries) {
      const why = adapter.checkQuery(q);
      if (why) {
        const shown = JSON.stringify(q.length > 200 ? `${q.slice(0, 197)}...` : q);
        throw new AppError(422, why.includes(shown) ? why : `query ${shown} is not valid: ${why}`);
      }
    }
  }
  if (typeof params.cursor === 'string' && params.cursor) {
    // A cursor is signed by this deployment: an altered one never reaches a worker (decision 23).
    const why = await cursorProblem(ctx.store, decl.path, params.cursor, queries);
    if (why) throw new AppError(422, why);
  }
  // A declared `area` (maps search) must resolve against the geo data, which the contract does not
  // load: checked on a check thread (./checks.ts).
  const rule = await endpointRule(decl, params, ctx.settings.checkBudgetMs);
  if (rule) throw new AppError(422, rule);
}

export async function submit(ctx: AppContext, account: Account, decl: DataEndpoint, params: Record<string, unknown>, queries: string[], o: SubmitOptions) {
  if (queries.length === 0) throw new AppError(422, 'query is required: give at least one query (query=...)');
  const max = o.maxQueries ?? MAX_QUERIES;
  if (queries.length > max) throw new AppError(422, `query takes at most ${max} queries per request, got ${queries.length}`);
  await checkRequest(ctx, decl, params, queries);
  if (o.webhook) await checkWebhook(ctx, o.webhook);
  // Against the stored balance, not the authentication cache (up to 1 s old): once work has drawn
  // the balance to the credit limit, the next submit is refused at once. Checked by the request's
  // insert itself (no read of its own, issue 37), unless a task is written before it.
  if (o.ui) assertCanPay((await ctx.store.getAccount(account.id)) ?? account);
  await assertRoomForWork(ctx);

  const now = ctx.now();
  const id = o.id ?? newRequestId();
  const unitPriceMicros = await priceOf(ctx, decl.service, decl.unit, account.id);
  // Each enrichment asked is its own product, priced now like the request's (the runner bills it per
  // place with the query's completion; the price travels in the stored parameters, not user-settable).
  if (Array.isArray(params.enrichment) && params.enrichment.length) {
    const prices: Record<string, Micros> = {};
    for (const e of params.enrichment as string[]) prices[e] = await priceOf(ctx, e, 'place', account.id, DEFAULT_ENRICHMENT_PRICES[e]);
    params = { ...params, [ENRICHMENT_PRICES]: prices };
  }
  let taskId: string | null = null;
  if (o.ui) {
    taskId = newTaskId(now);
    await ctx.store.createTask({
      id: taskId, accountId: account.id, requestId: id, serviceName: decl.service, queries: o.task?.queries ?? queries, tags: o.task?.tags ?? [],
      spec: o.task?.spec ?? { ...params }, status: 'PENDING', format: o.format ?? 'xlsx', fileToken: null, filePath: null,
      results: [], created: now, updated: now, queueTaskId: randomUUID(),
    });
  }
  const r: NewRequest = {
    id, accountId: account.id, endpoint: decl.path, params, queries, webhook: o.webhook, product: decl.service, unit: decl.unit,
    unitPriceMicros, emptyCostsOne: !!decl.emptyCostsOne, dropDuplicates: params.dropDuplicates === true, taskId,
    maxAttempts: ctx.settings.maxAttempts, createdAt: now,
  };
  if (!(await ctx.store.createRequest(r, { whilePayable: !o.ui }))) throw new AppError(402, PAYMENT_REQUIRED);
  // Past ITEMS_AT_ONCE the queries wait in the store for the item writer (issue 39: the answer to
  // a 10,000-query task no longer waits for 10,000 items to be indexed).
  if (queries.length <= ITEMS_AT_ONCE) await ctx.queue.enqueue(queries.map((_, i) => ({ id: `${id}:${i}` })));
  else if (ctx.itemWriter) ctx.itemWriter.kick();
  else await writeWaitingItems(ctx);
  return { id, taskId };
}
