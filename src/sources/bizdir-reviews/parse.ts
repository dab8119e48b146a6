/**
 * `parse` of `/bizdir-reviews`: the business page → the first feed step; a feed answer → its
 * reviews (limit, cutoff and decision 23 cursor applied) and the next feed step. Pure.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { readGraphqlBatch } from '../_kit/graphql.ts';
import { chunkTally, reviewChunk } from '../_kit/review-chunk.ts';
import { readBizPage } from './page.ts';
import { KNOWN_DOCUMENT_ID, OPERATION, PAGE_SIZE, feedStep, type BizdirState } from './plan.ts';
import type { BizdirParams, BizdirReview } from './record.ts';
import { reviewOf, type ReviewContext } from './review.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);

/** What one feed answer holds. */
export interface FeedPage {
  /** The review nodes, in the site's order. */
  nodes: Obj[];
  /** From `pageInfo.hasNextPage`; null when the answer does not say. */
  hasNextPage: boolean | null;
  /** The business's review count, when the answer gives it. */
  total: number | null;
  /** The count of the list read (`reviews.totalCount`: the feed's language), for the paging check. */
  listTotal: number | null;
  business: { encid: string | null; alias: string | null; name: string | null };
}

/**
 * A feed response body (text or parsed; one answer or a batch) → its page. Errors → typed
 * `SourceError` (kit `GraphqlError`); an answer whose business is null → `not_found`; no review list
 * at all → `layout_changed`.
 */
export function readFeed(body: unknown): FeedPage {
  const datas = readGraphqlBatch<Obj>(body);
  // A batch answers every operation sent; the feed's is the one with a business.
  const data = datas.find((d) => obj(d?.business)) ?? datas[0];
  if (!('business' in data)) throw new SourceError('layout_changed', `${OPERATION}: the answer has no business`);
  const business = obj(data.business);
  if (!business) throw new SourceError('not_found', `${OPERATION}: the site knows no such business`);
  const reviews = obj(business.reviews);
  if (!reviews || !Array.isArray(reviews.edges)) throw new SourceError('layout_changed', `${OPERATION}: the answer has no reviews.edges`);
  const nodes = reviews.edges.map((e) => obj(obj(e)?.node)).filter((n): n is Obj => n !== null);
  const pageInfo = obj(reviews.pageInfo);
  const total = typeof business.reviewCount === 'number' ? business.reviewCount : typeof reviews.totalCount === 'number' ? reviews.totalCount : null;
  return {
    nodes,
    hasNextPage: typeof pageInfo?.hasNextPage === 'boolean' ? pageInfo.hasNextPage : null,
    total,
    listTotal: typeof reviews.totalCount === 'number' ? reviews.totalCount : null,
    business: {
      encid: typeof business.encid === 'string' ? business.encid : null,
      alias: typeof business.alias === 'string' ? business.alias : null,
      name: typeof business.name === 'string' ? business.name : null,
    },
  };
}

function pageStep(step: Step, res: FetchedResponse, p: BizdirParams): ParseResult<BizdirReview> {
  const state = step.state as BizdirState;
  const page = readBizPage(res.body);
  if (!page.encid) throw new SourceError('layout_changed', `business page ${res.url} names no business id (no yelp-biz-id meta, no bizId in its state)`);
  const next = feedStep({ ...state, encid: page.encid, alias: page.alias, name: page.name, documentId: page.documentId ?? KNOWN_DOCUMENT_ID }, p);
  return { records: [], next: [next] };
}

function feedPageStep(step: Step, res: FetchedResponse, ctx: QueryContext<BizdirParams>): ParseResult<BizdirReview> {
  const p = ctx.params ?? {};
  const state = step.state as BizdirState & { encid: string; documentId: string };
  const feed = readFeed(res.body);
  const rc: ReviewContext = { query: ctx.query, encid: feed.business.encid ?? state.encid, alias: feed.business.alias ?? state.alias, name: feed.business.name ?? state.name };
  const records = feed.nodes.map((n) => reviewOf(n, rc));
  const hasMore = feed.hasNextPage ?? (feed.total !== null ? state.offset + feed.nodes.length < feed.total : feed.nodes.length >= PAGE_SIZE);
  const c = reviewChunk({ records, cutoff: p.cutoff, hasMore });
  const next = c.follow ? [feedStep({ ...state, alias: rc.alias, name: rc.name, offset: state.offset + feed.nodes.length }, p)] : [];
  return { records: c.kept, next, tallies: [chunkTally(state.encid, feed.listTotal, feed.nodes.length, c)] };
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<BizdirParams>): ParseResult<BizdirReview> {
  if (step.kind === 'biz-page') return pageStep(step, res, ctx.params ?? {});
  if (step.kind === 'review-feed') return feedPageStep(step, res, ctx);
  throw new SourceError('layout_changed', `bizdir-reviews: unknown step kind ${step.kind}`);
}

