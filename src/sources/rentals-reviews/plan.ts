/**
 * Steps of `/rentals-reviews`: the listing page (it carries the site's public API key and, in its
 * scripts, the persisted-query hash of the reviews operation), then `StaysPdpReviewsQuery` pages:
 * `GET /api/v3/StaysPdpReviewsQuery/<hash>?operationName&locale&currency&variables&extensions` with
 * the key in `X-Airbnb-API-Key`; `variables.pdpReviewsRequest` pages by `offset`/`limit` and sorts by
 * `sortingPreference` (the site's own values: MOST_RECENT, RATING_DESC, RATING_ASC, BEST_QUALITY).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { graphqlUrl } from '../_kit/graphql.ts';
import { readListingQuery } from './query.ts';
import type { RentalsParams, RentalsSort } from './record.ts';

export const ORIGIN = 'https://www.airbnb.com';
export const OPERATION = 'StaysPdpReviewsQuery';
/** The site's own page size for reviews. */
export const PAGE_SIZE = 24;
/**
 * Last known values (public notes, verified 2026-04), used only when the listing page does not name
 * its own: the page is read first, and a stale hash sends the query back to the page once.
 */
export const KNOWN_HASH = '2ed951bfedf71b87d9d30e24a419e15517af9fbed7ac560a8d1cc7feadfa22e6';
export const KNOWN_API_KEY = 'd306zoyjsyarp7ifhu67rjxn52tv0t20';

/** The declaration's sorts are the site's own; `cutoff` needs newest first. */
export function siteSort(p: RentalsParams): RentalsSort {
  return p.cutoff ? 'MOST_RECENT' : p.sort ?? 'MOST_RECENT';
}

export interface RentalsState {
  [k: string]: unknown;
  listingId: string;
  /** Offset of the reviews page this step asks for. */
  offset: number;
  apiKey?: string;
  hash?: string;
  /** Hashes the site refused as unknown (persisted query not found / validation error). */
  stale: string[];
  /** The listing page was read again after a stale hash (done at most once). */
  reread: boolean;
}

export const listingUrl = (id: string) => `${ORIGIN}/rooms/${id}`;

export function listingStep(state: RentalsState): Step {
  return { kind: 'listing', url: listingUrl(state.listingId), expect: 'html', state: { ...state } };
}

/**
 * URL of one reviews page.
 * @example new URL(reviewsUrl('38817969', 24, 'MOST_RECENT', 'abc')).searchParams.get('operationName') // 'StaysPdpReviewsQuery'
 */
export function reviewsUrl(listingId: string, offset: number, sort: RentalsSort, hash: string): string {
  const variables = {
    id: Buffer.from(`StayListing:${listingId}`).toString('base64'),
    pdpReviewsRequest: {
      fieldSelector: 'for_p3_translation_only', forPreview: false, limit: PAGE_SIZE, offset: String(offset),
      showingTranslationButton: false, first: PAGE_SIZE, sortingPreference: sort,
      numberOfAdults: '1', numberOfChildren: '0', numberOfInfants: '0', numberOfPets: '0', after: null,
    },
  };
  return graphqlUrl(`${ORIGIN}/api/v3/${OPERATION}/${hash}?locale=en&currency=USD`, { operationName: OPERATION, variables, sha256Hash: hash });
}

export function reviewsStep(state: RentalsState & { apiKey: string; hash: string }, p: RentalsParams): Step {
  return {
    kind: 'reviews',
    url: reviewsUrl(state.listingId, state.offset, siteSort(p), state.hash),
    headers: {
      'x-airbnb-api-key': state.apiKey,
      'x-airbnb-graphql-platform': 'web',
      'x-airbnb-graphql-platform-client': 'minimalist-niobe',
      'content-type': 'application/json',
      referer: listingUrl(state.listingId),
    },
    expect: 'json',
    state: { ...state },
  };
}

/**
 * Query → the listing page step.
 * @example plan({ query: 'https://www.airbnb.fr/rooms/38817969?guests=2', params: {} })[0].url // 'https://www.airbnb.com/rooms/38817969'
 */
export function plan(ctx: QueryContext<RentalsParams>): Step[] {
  const q = readListingQuery(ctx.query);
  if ('error' in q) throw new SourceError('invalid_query', q.error);
  return [listingStep({ listingId: q.id, offset: 0, stale: [], reread: false })];
}
