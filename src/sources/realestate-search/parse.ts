/**
 * Real-estate answers → records and the steps that follow. Accepted as served: the search API's
 * JSON (`cat1.searchResults.listResults` / `mapResults`, `cat1.searchList`), a search page with
 * `__NEXT_DATA__` (`props.pageProps.searchPageState`), a property page with `__NEXT_DATA__`
 * (`gdpClientCache`).
 *
 * Going past the site's page cap: a view whose `totalResultCount` is more than its pages can show
 * (`totalPages` x page size; the site stops at 20 pages) is split into four quadrants of its map
 * bounds on its first page (`_kit/area.ts`, as `/maps/search` splits its cells); each quadrant keeps
 * only the properties inside it, and gets a budget in proportion to where the view's map pins lie.
 * A view that fits is paged through; a first page whose map pins already cover the view's total
 * ends it. `finish` dedupes by property id, then applies `skip` and `limit`.
 *
 * Never a silent truncation (issue 34, docs/paging.md): each view is a list the paging check counts
 * (`tallies`), its stated count the view's `totalResultCount`, read its list results page by page
 * (or its pins, when they came at once). A view that was split ends `enough` (its quadrants are lists
 * of their own), as does one stopped by its budget; a view that ends short of its count (too deep or
 * too small to split further while the site still stops at its page cap) ends the query with
 * `incomplete`.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import type { PageTally } from '../_kit/tally.ts';
import { contains, quadrantShares } from '../_kit/area.ts';
import { nextData } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { propertyRecord, resultRecord } from './listing.ts';
import { apiStep, rootView, type ViewState } from './plan.ts';
import { boundsOf } from './query.ts';
import type { EstateParams, EstateRecord, MainFilter } from './record.ts';

export const MAX_DEPTH = 6;
/** Quadrants narrower than this (degrees, about 110 m) are not split further. */
export const MIN_CELL_DEG = 0.001;
/** How much more than the missing remainder the four quadrants may collect together. */
export const SPLIT_SLACK = 1.25;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** One search answer, whichever way it came. */
export interface SearchAnswer {
  list: unknown[];
  map: unknown[];
  total: number | null;
  totalPages: number | null;
  /** The page's query state (a search page has it; the API answer does not echo it). */
  queryState: Record<string, unknown> | null;
}

const isObj = (v: unknown): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v);

function jsonOf(body: string): Json {
  const t = body.trimStart();
  if (t.startsWith('<')) return nextData(body);
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** The search answer in a body (API JSON, search page, or the page's `searchPageState`). */
export function searchAnswerOf(body: string): SearchAnswer | null {
  const j = jsonOf(body);
  const sps = j?.props?.pageProps?.searchPageState ?? j?.searchPageState ?? j;
  const cat1 = isObj(sps) ? sps.cat1 : undefined;
  const results = isObj(cat1) ? cat1.searchResults : undefined;
  if (!isObj(results)) return null;
  const list = Array.isArray(results.listResults) ? results.listResults : [];
  const map = Array.isArray(results.mapResults) ? results.mapResults : [];
  const sl = isObj(cat1.searchList) ? cat1.searchList : {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
  return {
    list, map,
    total: num(sl.totalResultCount) ?? num(sps.categoryTotals?.cat1?.totalResultCount),
    totalPages: num(sl.totalPages),
    queryState: isObj(sps.queryState) ? sps.queryState : null,
  };
}

/** The property node of a property page (`gdpClientCache`, a JSON string or object), or of a bare node. */
export function propertyNodeOf(body: string): Json {
  const j = jsonOf(body);
  if (isObj(j) && j.zpid !== undefined && isObj(j.address)) return j;
  const pp = j?.props?.pageProps;
  let cache = pp?.componentProps?.gdpClientCache ?? pp?.gdpClientCache;
  if (typeof cache === 'string') {
    try {
      cache = JSON.parse(cache);
    } catch {
      return undefined;
    }
  }
  if (!isObj(cache)) return pp?.property ?? undefined;
  for (const v of Object.values(cache)) if (isObj(v) && isObj(v.property)) return v.property;
  return undefined;
}

/** Records of an answer: list results, then the map pins not in the list (first page only). */
export function answerRecords(a: SearchAnswer, query: string, withMap: boolean): EstateRecord[] {
  const out: EstateRecord[] = [];
  const seen = new Set<string>();
  for (const x of withMap ? [...a.list, ...a.map] : a.list) {
    const r = resultRecord(x, query);
    if (!r || seen.has(r.property_id!)) continue;
    seen.add(r.property_id!);
    out.push(r);
  }
  return out;
}

/** A view's name as a list of the paging check: its cell, or the query's own view. */
const viewKey = (v: ViewState) => (v.cell ? `view ${[v.cell.s, v.cell.w, v.cell.n, v.cell.e].map((x) => Math.round(x * 1e5) / 1e5).join(',')}` : 'the search\'s view');

/** What follows one page of one view (its next page, its four quadrants, or nothing) and what the
 *  page says to the paging check. */
export function afterView(v: ViewState, a: SearchAnswer, recs: EstateRecord[]): { next: Step[]; tally: PageTally } {
  const got = v.got + recs.length;
  const key = viewKey(v);
  const stated = a.total ?? undefined;
  const tally = (read: number, end?: PageTally['end']): PageTally => ({ key, read, ...(stated === undefined ? {} : { stated }), ...(end ? { end } : {}) });
  if (got >= v.budget) return { next: [], tally: tally(a.list.length, 'enough') };
  if (a.list.length === 0) return { next: [], tally: tally(0, 'end') };
  const pageSize = v.pageSize || a.list.length;
  const total = a.total ?? 0;
  // Every pin of the view came at once.
  if (v.page === 1 && a.map.length >= total && total > 0) return { next: [], tally: tally(a.map.length, 'end') };
  const pages = Math.max(1, a.totalPages ?? 1);
  const saturated = total > pageSize * pages;
  const area = v.cell ?? v.bounds;
  if (v.page === 1 && saturated && v.depth < MAX_DEPTH && area.n - area.s >= 2 * MIN_CELL_DEG && area.e - area.w >= 2 * MIN_CELL_DEG) {
    const pts = recs.filter((r) => r.latitude !== null && r.longitude !== null).map((r) => [r.latitude!, r.longitude!] as const);
    const next = quadrantShares(area, pts, v.budget - got, SPLIT_SLACK).map(({ box, budget }) =>
      apiStep({ ...v, bounds: box, cell: box, page: 1, pageSize: 0, depth: v.depth + 1, budget, got: 0 }));
    return { next, tally: tally(a.list.length, 'enough') };
  }
  if (v.page < pages) return { next: [apiStep({ ...v, page: v.page + 1, pageSize, got })], tally: tally(a.list.length) };
  return { next: [], tally: tally(a.list.length, 'end') };
}

const withView = (records: EstateRecord[], after: { next: Step[]; tally: PageTally }): ParseResult<EstateRecord> => ({ records, next: after.next, tallies: [after.tally] });

/** @example parse(step, res, { query: '94109', params: { limit: 100 } }).records */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<EstateParams>): ParseResult<EstateRecord> {
  if (step.kind === 'property') {
    const r = propertyRecord(propertyNodeOf(res.body), ctx.query);
    if (!r) throw new SourceError('layout_changed', 'property page has no property node (__NEXT_DATA__ gdpClientCache)');
    return { records: [r] };
  }
  if (step.kind !== 'page' && step.kind !== 'api') throw new SourceError('layout_changed', `realestate-search: unknown step kind ${step.kind}`);
  const a = searchAnswerOf(res.body);
  if (!a) throw new SourceError('layout_changed', 'no search results in the answer (cat1.searchResults, or __NEXT_DATA__ searchPageState)');
  if (step.kind === 'page') {
    const filter = ((step.state?.filter as MainFilter | undefined) ?? ctx.params?.mainFilter ?? 'for_sale');
    const records = answerRecords(a, ctx.query, true);
    const bounds = boundsOf(a.queryState);
    if (!bounds || !a.queryState) return { records };
    return withView(records, afterView(rootView(a.queryState, bounds, filter, ctx.params), a, records));
  }
  const v = step.state as ViewState;
  const all = answerRecords(a, ctx.query, v.page === 1);
  const cell = v.cell;
  const records = cell ? all.filter((r) => r.latitude !== null && r.longitude !== null && contains(cell, r.latitude, r.longitude)) : all;
  return withView(records, afterView(v, a, records));
}

/** Dedupes by property id (first seen wins), then skips `skip` and keeps `limit`. */
export function finish(records: EstateRecord[], ctx: QueryContext<EstateParams>): EstateRecord[] {
  const seen = new Set<string>();
  const out: EstateRecord[] = [];
  for (const r of records) {
    const k = r.property_id ?? `${r.address}|${r.latitude}|${r.longitude}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(r);
  }
  const skip = ctx.params?.skip ?? 0;
  return out.slice(skip, skip + (ctx.params?.limit ?? 100));
}
