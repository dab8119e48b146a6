/**
 * `/realestate-search` requests.
 * - Search page (`GET https://www.zillow.com/homes/<place>_rb/` or the link): HTML whose
 *   `__NEXT_DATA__` holds `props.pageProps.searchPageState` {queryState (map bounds, region), cat1}.
 * - Search API (`PUT https://www.zillow.com/async-create-search-page-state`, JSON body
 *   `{searchQueryState: {pagination: {currentPage}, mapBounds, regionSelection, usersSearchTerm,
 *   filterState, isMapVisible, isListVisible}, wants: {cat1: ["listResults", "mapResults"],
 *   cat2: ["total"]}, requestId, isDebugRequest: false}`): JSON with `cat1.searchResults.listResults`
 *   (about 41 a page), `mapResults` (up to 500 pins of the view) and `cat1.searchList` {totalPages
 *   (the site stops at 20), totalResultCount}.
 * - Property page (`GET /homedetails/<slug>/<zpid>_zpid/`): HTML whose `__NEXT_DATA__` holds
 *   `gdpClientCache` (a JSON string) with the property node.
 * Filters use the site's short `filterState` keys: rent `fr`, recently sold `rs`, with the sale
 * kinds (`fsba`, `fsbo`, `nc`, `cmsn`, `auc`, `fore`) switched off.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import type { Box } from '../_kit/area.ts';
import { readEstateQuery } from './query.ts';
import { SITE } from './listing.ts';
import type { EstateParams, MainFilter } from './record.ts';

export const API_URL = `${SITE}/async-create-search-page-state`;

/** State of an API step: the search (without paging and bounds), the view, and its budget. */
export interface ViewState {
  search: Record<string, unknown>;
  filter: MainFilter;
  /** The view asked for (its map bounds). */
  bounds: Box;
  /** The cell whose results this view keeps (null: the query's own view keeps all). */
  cell: Box | null;
  page: number;
  /** Results per page, learnt from the view's first page. */
  pageSize: number;
  depth: number;
  /** Results this view still should find (with the ones it found so far). */
  budget: number;
  got: number;
  [k: string]: unknown;
}

const OFF = { value: false };
const SALE_OFF = { fsba: OFF, fsbo: OFF, nc: OFF, cmsn: OFF, auc: OFF, fore: OFF };

/** The `filterState` of a filter, over the link's own other filters (price, beds...). */
export function filterState(filter: MainFilter, own: unknown): Record<string, unknown> {
  const base = own && typeof own === 'object' && !Array.isArray(own) ? { ...(own as Record<string, unknown>) } : {};
  for (const k of ['fr', 'rs', 'isForRent', 'isRecentlySold', 'isForSaleByAgent', 'isForSaleByOwner', 'isNewConstruction', 'isComingSoon', 'isAuction', 'isForSaleForeclosure', 'fsba', 'fsbo', 'nc', 'cmsn', 'auc', 'fore']) delete base[k];
  if (filter === 'for_rent') return { ...base, fr: { value: true }, ...SALE_OFF };
  if (filter === 'sold') return { ...base, rs: { value: true }, ...SALE_OFF };
  return base;
}

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The API step of one page of one view. */
export function apiStep(v: ViewState): Step {
  const { pagination: _p, mapBounds: _m, ...search } = v.search;
  const body = {
    searchQueryState: {
      ...search,
      pagination: v.page > 1 ? { currentPage: v.page } : {},
      mapBounds: { west: r6(v.bounds.w), east: r6(v.bounds.e), south: r6(v.bounds.s), north: r6(v.bounds.n) },
      filterState: filterState(v.filter, search.filterState),
      isMapVisible: true,
      isListVisible: true,
    },
    wants: { cat1: ['listResults', 'mapResults'], cat2: ['total'] },
    requestId: v.page + v.depth * 100,
    isDebugRequest: false,
  };
  return {
    kind: 'api', url: API_URL, method: 'PUT', headers: { 'content-type': 'application/json', accept: '*/*' },
    body: JSON.stringify(body), expect: 'json', state: v,
  };
}

/** The root view of a query: its budget is `limit + skip` (finish drops the skipped ones). */
export function rootView(search: Record<string, unknown>, bounds: Box, filter: MainFilter, p: EstateParams | undefined): ViewState {
  return { search, filter, bounds, cell: null, page: 1, pageSize: 0, depth: 0, budget: (p?.limit ?? 100) + (p?.skip ?? 0), got: 0 };
}

/** @example plan({ query: 'san francisco, ca', params: { mainFilter: 'for_rent' } })[0].url // '.../homes/for_rent/san-francisco,-ca_rb/' */
export function plan(ctx: QueryContext<EstateParams>): Step[] {
  const q = readEstateQuery(ctx.query, ctx.params?.mainFilter ?? 'for_sale');
  if (q.kind === 'property') return [{ kind: 'property', url: q.url, expect: 'html' }];
  if (q.kind === 'state') return [apiStep(rootView(q.state, q.bounds, q.filter, ctx.params))];
  return [{ kind: 'page', url: q.url, expect: 'html', state: { filter: q.filter } }];
}
