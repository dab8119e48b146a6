/**
 * `trawl parse /delivery-reviews <file>`: records from one saved response, as the site served it:
 * a `/graphql/<operation>` answer (`{"data": ...}`) or a batch array of answers, a bare list of
 * review cards, or a store page HTML with the reviews its embedded state carries (`__NEXT_DATA__`,
 * Apollo cache or transport). Cursors are null (a lone file does not say where its page sits); the
 * store id comes from the answer, else from the page's canonical link.
 *
 * @example parseCapture(readFileSync('reviews.json', 'utf8'))[0].store_name
 */
import { findValues } from '../_kit/embedded.ts';
import { isGraphqlAnswer, readGraphqlBatch } from '../_kit/graphql.ts';
import { stateBlobs } from '../_kit/page-state.ts';
import type { Obj } from '../_kit/values.ts';
import { readReviews, type ReviewsPage } from './parse.ts';
import { canonicalStoreId } from '../_doordash/links.ts';
import type { DeliveryReview } from './record.ts';
import { isReviewNode, reviewOf } from './review.ts';

function records(page: ReviewsPage, storeId: string | null): DeliveryReview[] {
  const id = page.store?.id ?? storeId;
  return page.nodes.map((n) => ({
    ...reviewOf(n, { query: id ?? '', storeId: id, storeName: page.store?.name ?? null, storeRating: page.store?.rating, storeRatingsCount: page.store?.count }),
    next_page_cursor: null,
  }));
}

function fromHtml(text: string): DeliveryReview[] {
  const storeId = canonicalStoreId(text);
  const blobs = stateBlobs(text);
  const pages = blobs.flatMap((b) => {
    try {
      return [readReviews(b as Obj, storeId)];
    } catch {
      return [];
    }
  });
  const store = pages.find((p) => p.store?.name)?.store ?? null;
  const byId = new Map<string, Obj>();
  for (const n of blobs.flatMap((b) => findValues(b, isReviewNode))) byId.set(String(n.reviewUuid ?? n.consumerReviewUuid ?? n.id ?? byId.size), n);
  if (!byId.size && !store) throw new Error('delivery-reviews: the page is not a store page with its state (no store, no reviews): a Cloudflare challenge page, or another page');
  return records({ store, nodes: [...byId.values()], nextCursor: null, hasMore: null }, storeId);
}

export function parseCapture(text: string): DeliveryReview[] {
  if (/^\s*</.test(text)) return fromHtml(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('delivery-reviews: the file is neither JSON nor HTML');
  }
  if (isGraphqlAnswer(json)) return readGraphqlBatch<Obj>(json).flatMap((data) => records(readReviews(data, null), null));
  if (Array.isArray(json) && json.length && json.every(isReviewNode)) return records({ store: null, nodes: json as Obj[], nextCursor: null, hasMore: null }, null);
  throw new Error('delivery-reviews: expected a reviews answer ({"data": ...}) or a batch of them, a list of review cards, or a store page');
}
