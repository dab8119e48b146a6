/**
 * Steps of `/launchsite-reviews`: the product's reviews page (or the launch page of a `/posts/`
 * link), which names the product (slug, id, name) and, when its scripts carry it, the persisted-query
 * hash of the reviews operation; then `ProductReviewsPage` pages of the site's own GraphQL endpoint
 * `/frontend/graphql` (Apollo client, automatic persisted queries):
 * - with a hash: `GET /frontend/graphql?operationName&variables&extensions={persistedQuery}` (what
 *   the site's client sends);
 * - without one, or after the site answered `PersistedQueryNotFound`: `POST` with the query text.
 * Pages follow `pageInfo.endCursor`; `order` is the site's own review order (BEST, LATEST,
 * FAVORABLE, CRITICAL: the declaration's sorts are these values).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { graphqlStep } from '../_kit/graphql.ts';
import { readProductQuery } from './query.ts';
import type { LaunchsiteParams, LaunchsiteSort } from './record.ts';

export const ORIGIN = 'https://www.producthunt.com';
export const ENDPOINT = `${ORIGIN}/frontend/graphql`;
export const OPERATION = 'ProductReviewsPage';
/** Reviews per page (the site's own page loads 20). */
export const PAGE_SIZE = 20;

/**
 * The reviews operation's text, sent when the page names no persisted hash (or the site forgot it).
 * Field names after the site's public schema (Product, Review, User); the answer is read by shape,
 * so extra or renamed wrappers do not break it.
 */
export const QUERY = `query ${OPERATION}($slug: String!, $order: ReviewsOrder, $first: Int, $after: String) {
  product(slug: $slug) {
    id slug name reviewsRating reviewsCount
    reviews(first: $first, after: $after, order: $order) {
      totalCount
      pageInfo { endCursor hasNextPage }
      edges { cursor node { id rating body sentiment pros cons createdAt votesCount commentsCount url
        user { id name username headline avatarUrl } } }
    }
  }
}`;

/** `cutoff` needs newest first: it overrides the sort. */
export function siteOrder(p: LaunchsiteParams): LaunchsiteSort {
  return p.cutoff ? 'LATEST' : p.sort ?? 'BEST';
}

export interface LaunchsiteState {
  [k: string]: unknown;
  /** Slug of the query (a product, or a launch when `post`). */
  slug: string;
  post: boolean;
  /** The product's slug, once known. */
  product?: string;
  productId?: string | null;
  productName?: string | null;
  hash?: string | null;
  /** The site's `endCursor` of the previous page (null: first page). */
  after: string | null;
  /** The persisted hash was refused: send the query text. */
  fullQuery: boolean;
}

/** Accept-Language from the declared `language` and `region` (the site is English; the header is what a browser sends). */
function acceptLanguage(p: LaunchsiteParams): string {
  const lang = p.language ?? 'en';
  return p.region ? `${lang}-${p.region.toUpperCase()},${lang};q=0.9` : `${lang};q=0.9`;
}

export const pageUrl = (s: Pick<LaunchsiteState, 'slug' | 'post'>) => `${ORIGIN}/${s.post ? 'posts' : 'products'}/${encodeURIComponent(s.slug)}${s.post ? '' : '/reviews'}`;

export function pageStep(state: LaunchsiteState, p: LaunchsiteParams): Step {
  return { kind: 'page', url: pageUrl(state), expect: 'html', headers: { 'accept-language': acceptLanguage(p) }, state: { ...state } };
}

/**
 * One reviews page.
 * @example reviewsStep({ slug: 'linear', post: false, product: 'linear', after: null, fullQuery: true }, {}).method // 'POST'
 */
export function reviewsStep(state: LaunchsiteState & { product: string }, p: LaunchsiteParams): Step {
  const variables = { slug: state.product, order: siteOrder(p), first: PAGE_SIZE, after: state.after };
  const persisted = !!state.hash && !state.fullQuery;
  return graphqlStep('reviews', ENDPOINT, persisted ? { operationName: OPERATION, variables, sha256Hash: state.hash! } : { operationName: OPERATION, variables, query: QUERY }, {
    method: persisted ? 'GET' : 'POST',
    headers: { origin: ORIGIN, referer: `${ORIGIN}/products/${state.product}/reviews`, 'accept-language': acceptLanguage(p), 'x-requested-with': 'XMLHttpRequest' },
    state: { ...state },
  });
}

/**
 * Query → the page step.
 * @example plan({ query: 'https://www.producthunt.com/posts/linear-2', params: {} })[0].url // 'https://www.producthunt.com/posts/linear-2'
 */
export function plan(ctx: QueryContext<LaunchsiteParams>): Step[] {
  const q = readProductQuery(ctx.query);
  if ('error' in q) throw new SourceError('invalid_query', q.error);
  return [pageStep({ slug: q.slug, post: q.kind === 'post', after: null, fullQuery: false }, ctx.params ?? {})];
}
