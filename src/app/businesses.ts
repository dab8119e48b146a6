/**
 * `POST /businesses` (interface 4.8, decision 24): a page of the business database the account may
 * see (docs/businesses.md). Keyset pages: a cursor is the store's position of the page's last item, bound to the
 * account and the filters and signed with a per-deployment secret, so a changed or foreign cursor is a
 * 422 rather than a page of some other search.
 *
 * @example await searchBusinesses(ctx, account, { filters: { country_code: 'US' }, limit: 10 })
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Account } from '../store/contract.ts';
import type { AppContext } from './context.ts';
import { AppError, PAYMENT_REQUIRED } from './errors.ts';
import { businessesBody } from '../contract/account.ts';
import { businessRecord } from '../contract/records.ts';
import { checkBody } from './body.ts';
import { priceOf } from './submit.ts';
import { isBlank, queryOf } from './business-query.ts';
import type { ParsedQuery, QueryFilters } from '../businesses/query/parse.ts';
import { callOnLookupThread } from '../lookups/threaded.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { osIdOf } from '../store/businesses/os-id.ts';
import type { BusinessRecord } from '../store/businesses/contract.ts';

const RECORD_FIELDS = new Set([...Object.keys(businessRecord.properties), 'street', 'county', 'domain', 'category', 'working_hours', 'source', 'attributes', 'located_in', 'located_os_id',
  'added_timestamp', 'updated_timestamp']);

export interface BusinessesAnswer {
  items: Partial<BusinessRecord>[];
  next_cursor: string | null;
  has_more: boolean;
  total?: number;
  /** With `query`: the filters it was read into. */
  parsed_query?: QueryFilters;
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');

async function signer(ctx: AppContext): Promise<(payload: string) => string> {
  const secret = await ctx.store.secret('businesses-cursor');
  return (payload) => createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 22);
}

/** The search a cursor belongs to: the account and the filters (limit and fields may change between pages). */
const scopeOf = (accountId: string, body: Record<string, unknown>) => JSON.stringify([accountId, body.filters ?? null, body.query ?? null]);

export async function searchBusinesses(ctx: AppContext, account: Account, body: Record<string, unknown>): Promise<BusinessesAnswer> {
  checkBody(businessesBody, body);
  const fields = Array.isArray(body.fields) && body.fields.length ? (body.fields as string[]) : null;
  checkFields(fields);
  const parsed = typeof body.query === 'string' && body.query.trim() ? await readQuery(body.query) : undefined;
  // Filters given beside the query take precedence over what the query said for the same filter.
  const filters: Record<string, unknown> = { ...parsed, ...(body.filters ?? {}) as Record<string, unknown> };
  const q = queryOf(account.id, filters);
  if (typeof filters.located_os_id === 'string' && !isBlank(filters.located_os_id)) q.locatedIn = await locatedKeys(ctx, account.id, filters.located_os_id);
  const sign = await signer(ctx);
  const scope = createHmac('sha256', 'scope').update(scopeOf(account.id, body)).digest('base64url').slice(0, 16);
  let after: string | undefined;
  if (typeof body.cursor === 'string' && body.cursor !== '') after = openCursor(body.cursor, scope, sign);
  const limit = typeof body.limit === 'number' ? body.limit : 10;
  const page = await businessStoreOf(ctx.store).searchBusinesses({ ...q, after, limit, includeTotal: body.include_total === true });
  await bill(ctx, account, page.items.length);
  const last = page.last;
  const payload = last ? b64(JSON.stringify({ a: last, s: scope })) : '';
  const answer: BusinessesAnswer = {
    items: fields ? page.items.map((r) => pick(r, fields)) : page.items,
    next_cursor: page.hasMore && last ? `${payload}.${sign(payload)}` : null,
    has_more: page.hasMore,
  };
  if (page.total !== undefined) answer.total = page.total;
  if (parsed) answer.parsed_query = parsed;
  return answer;
}

/** An unknown field name is a 422 listing the known ones. */
function checkFields(fields: string[] | null | undefined): void {
  const unknown = fields?.filter((f) => !RECORD_FIELDS.has(f));
  if (unknown?.length) throw new AppError(422, `fields: unknown field ${unknown.map((f) => JSON.stringify(f)).join(', ')}; known: ${[...RECORD_FIELDS].join(', ')}`);
}

const pick = (r: BusinessRecord, fields: string[]): Partial<BusinessRecord> =>
  Object.fromEntries(fields.map((f) => [f, (r as unknown as Record<string, unknown>)[f] ?? null]));

/**
 * `GET /businesses/{id}`: one record as the account sees it (its own row before the shared pool's,
 * another account's never), by its os_id or by the identity the os_id was made of: a scraped place's
 * place_id (or engine_id when it had no place_id), an OSM object's `node/<id>` or `way/<id>`. Billed as one business item, like one item of a search page; an
 * unknown id is a 404 and costs nothing.
 *
 * @example await getBusiness(ctx, account, 'bz_5f0c0c1e2d3a4b5c6d7e8f90', ['name', 'phone'])
 */
export async function getBusiness(ctx: AppContext, account: Account, id: string, fields?: string[]): Promise<Partial<BusinessRecord>> {
  checkFields(fields);
  // Any identity an os_id is made of (os-id.ts): one hash each, so every spelling is one index probe.
  const osIds = /^bz_[0-9a-f]{24}$/.test(id) ? [id] : (['place', 'engine', 'osm'] as const).map((kind) => osIdOf(kind, id));
  const [found] = (await businessStoreOf(ctx.store).searchBusinesses({ accountId: account.id, osIds, limit: 1 })).items;
  if (!found) throw new AppError(404, `no business ${JSON.stringify(id.slice(0, 200))} in this account's business database (ids are os_id values of POST /businesses)`);
  await bill(ctx, account, 1);
  return fields ? pick(found, fields) : found;
}

/**
 * The os_ids a business located in `osId` may name it by. A scraped place names its container by the
 * container's engine id (`located_engine_id`), stored as the os_id an engine id gives; the container
 * itself may be stored under its place id. Both spellings are asked for when the container is known.
 */
async function locatedKeys(ctx: AppContext, accountId: string, osId: string): Promise<string[]> {
  const [container] = (await businessStoreOf(ctx.store).searchBusinesses({ accountId, osIds: [osId], limit: 1 })).items;
  const keys = new Set([osId]);
  if (container?.engine_id) keys.add(osIdOf('engine', container.engine_id));
  return [...keys];
}

/** The product a search is billed as: one `business` unit per returned item (decision 20), never the
 *  `total`; a page of nothing costs nothing (decision 20 names the endpoints where an empty search costs one). */
export const BUSINESSES_PRODUCT = 'businesses';

/** Bills the page before it is answered: an account that cannot pay gets a 402 and no page. */
async function bill(ctx: AppContext, account: Account, items: number): Promise<void> {
  if (!items) return;
  const unitPriceMicros = await priceOf(ctx, BUSINESSES_PRODUCT, 'business', account.id);
  const ok = await ctx.store.chargeUsage({ accountId: account.id, key: `businesses:${randomUUID()}`, product: BUSINESSES_PRODUCT, unit: 'business',
    quantity: items, unitPriceMicros, now: ctx.now() });
  if (!ok) throw new AppError(402, PAYMENT_REQUIRED);
}

const PARSE_MODULE = new URL('../businesses/query/parse.ts', import.meta.url);

/** The query's filters, or a 422 naming the words not understood (or saying nothing was). */
async function readQuery(text: string): Promise<QueryFilters> {
  // On the lookup thread: the first query naming a place loads the gazetteer (about a second).
  const { filters, notUnderstood } = await callOnLookupThread<string, ParsedQuery>(PARSE_MODULE, 'parseQuery', text);
  if (notUnderstood.length) {
    throw new AppError(422, `query: not understood: ${notUnderstood.map((w) => JSON.stringify(w)).join(', ')}. ${QUERY_HELP}`);
  }
  if (!Object.keys(filters).length) throw new AppError(422, `query: nothing in it could be read as a filter. ${QUERY_HELP}`);
  return filters;
}

const QUERY_HELP = 'A query is read offline from kinds of business (coffee shops, dentists), places after in/near (in austin tx, '
  + 'near 40.74,-73.98 within 2 km), ratings (rated 4.5+), reviews (100+ reviews), with/without a website or phone, what a place offers '
  + '(with wifi, wheelchair accessible, takeout; not its absence), open/closed, '
  + 'verified, named "..."; see docs/businesses.md';

function openCursor(cursor: string, scope: string, sign: (p: string) => string): string {
  const bad = () => new AppError(422, 'cursor is not a cursor of this search: use next_cursor of the previous page unchanged, with the same filters and query');
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined || mac.length !== 22) throw bad();
  if (!timingSafeEqual(Buffer.from(sign(payload)), Buffer.from(mac))) throw bad();
  let c: { a?: unknown; s?: unknown };
  try { c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')); } catch { throw bad(); }
  // A position is a row id (a cursor of an older deployment held an os_id: it no longer applies).
  if (typeof c.a !== 'string' || !/^\d{1,15}$/.test(c.a) || c.s !== scope) throw bad();
  return c.a;
}
