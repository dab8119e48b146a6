/**
 * Steps of `/bizdir-reviews`: the business page (it names the business's encid and, when its
 * scripts carry it, the persisted-query id of the review feed), then the `GetBusinessReviewFeed`
 * operation of the site's `/gql/batch` endpoint, page after page.
 *
 * Request shape (public research notes and open-source clients, see docs/sources-reviews.md): a
 * POST of a JSON batch `[{operationName, variables, extensions: {operationType: 'query',
 * documentId}}]`; `after` is base64 of `{"version":1,"type":"offset","offset":N}`; `sortBy` is the
 * site's order (RELEVANCE_DESC, DATE_DESC, DATE_ASC, RATING_DESC, RATING_ASC, ELITES_DESC).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { readBizQuery } from './query.ts';
import type { BizdirParams, BizdirSort } from './record.ts';

export const ORIGIN = 'https://www.yelp.com';
/** The site's own page size for the review feed (the interface: chunks of "usually 10 records"). */
export const PAGE_SIZE = 10;
export const OPERATION = 'GetBusinessReviewFeed';
/**
 * Last known persisted-query id of the feed (mined from the site's scripts 2026-09, public notes).
 * Used only when the business page does not name one.
 */
export const KNOWN_DOCUMENT_ID = '2b29fe4414313b319cb85e119740e72da582d64ad2962841724748be23d7f692';

/** Every sort of the declaration → the site's `sortBy`. */
export const SORT_BY: Record<BizdirSort, string> = {
  relevance_desc: 'RELEVANCE_DESC',
  date_desc: 'DATE_DESC',
  date_asc: 'DATE_ASC',
  rating_desc: 'RATING_DESC',
  rating_asc: 'RATING_ASC',
  elites_desc: 'ELITES_DESC',
};

/** `cutoff` needs newest first: it overrides the sort. */
export function siteSort(p: BizdirParams): string {
  return p.cutoff ? SORT_BY.date_desc : SORT_BY[p.sort ?? 'relevance_desc'];
}

/** What the business page told us, carried by every feed step. */
export interface BizdirState {
  [k: string]: unknown;
  /** What follows `/biz/` in the page URL (alias or encid from the query). */
  pageId: string;
  encid?: string;
  alias?: string | null;
  name?: string | null;
  documentId?: string;
  /** Offset of the feed page this step asks for. */
  offset: number;
}

export function bizPageUrl(pageId: string): string {
  return `${ORIGIN}/biz/${encodeURIComponent(pageId)}`;
}

/** The feed's `after` argument for an offset (the first page has none). */
export function afterOf(offset: number): string | null {
  return offset > 0 ? Buffer.from(JSON.stringify({ version: 1, type: 'offset', offset })).toString('base64') : null;
}

/**
 * Body of one feed request.
 * @example JSON.parse(feedBody('Lw7NmZ3j-WEye97ywEmkXQ', 10, 'DATE_DESC', 'abc'))[0].variables.sortBy // 'DATE_DESC'
 */
export function feedBody(encid: string, offset: number, sortBy: string, documentId: string): string {
  return JSON.stringify([{
    operationName: OPERATION,
    variables: {
      encBizId: encid, reviewsPerPage: PAGE_SIZE, selectedReviewEncId: '', hasSelectedReview: false, sortBy,
      languageCode: 'en', ratings: [5, 4, 3, 2, 1], queryText: '', isSearching: false, after: afterOf(offset),
      isTranslating: false, translateLanguageCode: 'en', reactionsSourceFlow: 'businessPageReviewSection',
      minConfidenceLevel: 'HIGH_CONFIDENCE', highlightType: '', highlightIdentifier: '', isHighlighting: false,
    },
    extensions: { operationType: 'query', documentId },
  }]);
}

export function bizPageStep(state: BizdirState): Step {
  return { kind: 'biz-page', url: bizPageUrl(state.pageId), expect: 'html', state: { ...state } };
}

/** One feed page; needs the encid and document id the page gave. */
export function feedStep(state: BizdirState & { encid: string; documentId: string }, p: BizdirParams): Step {
  return {
    kind: 'review-feed',
    url: `${ORIGIN}/gql/batch`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: ORIGIN,
      referer: bizPageUrl(state.alias ?? state.pageId),
      'x-apollo-operation-name': OPERATION,
    },
    body: feedBody(state.encid, state.offset, siteSort(p), state.documentId),
    expect: 'json',
    state: { ...state },
  };
}

/**
 * Query → the business page step.
 * @example plan({ query: 'https://www.yelp.com/biz/vons-1000-spirits-seattle-4', params: {} })[0].url
 *   // 'https://www.yelp.com/biz/vons-1000-spirits-seattle-4'
 */
export function plan(ctx: QueryContext<BizdirParams>): Step[] {
  const q = readBizQuery(ctx.query);
  if ('error' in q) throw new SourceError('invalid_query', q.error);
  return [bizPageStep({ pageId: q.id, offset: 0 })];
}
