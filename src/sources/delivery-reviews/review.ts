/**
 * One review card of the food-delivery site → a `/delivery-reviews` record without its cursor.
 * Pure; a missing branch is a null field. Names vary between the site's releases and surfaces
 * (store page preview, "all reviews" list): each field is read from the names seen for it.
 *
 * @example reviewOf(node, { query: '24687', storeId: '24687', storeName: "Joe's Pizza" }).author_name
 */
import { isoUtc, toUnix } from '../_kit/dates.ts';
import { idOf, int, isAdNode, obj, str, type Obj } from '../_kit/values.ts';
import type { DeliveryReview } from './record.ts';

export interface StoreContext {
  query: string;
  storeId: string | null;
  storeName: string | null;
  storeRating?: number | null;
  storeRatingsCount?: number | null;
  /** Reference time for relative dates ("2 days ago"), Unix seconds. */
  now?: number | null;
}

/** Looks like a review card (tells reviews apart from the other objects of an answer or page). */
export function isReviewNode(v: unknown): v is Obj {
  const o = obj(v);
  if (!o) return false;
  const typed = typeof o.__typename === 'string' && /Review$/i.test(o.__typename) && !/Reviews|Summary|Header|Connection|Page/i.test(o.__typename);
  const stars = 'starRating' in o || 'rating' in o;
  const card = 'reviewText' in o || 'reviewerDisplayName' in o || 'reviewUuid' in o || 'consumerReviewUuid' in o;
  return stars && (typed || card);
}

/**
 * Unix seconds of the dates the site shows: ISO, `10/24/26` or `10/24/2026` (US month/day, 00:00
 * UTC), `Oct 24, 2026`, relative words given `now`.
 * @example dateOf('10/24/26') // 1792800000
 */
export function dateOf(v: unknown, now?: number | null): number | null {
  const us = typeof v === 'string' ? /^\s*(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\s*$/.exec(v) : null;
  if (us) {
    const y = us[3].length === 2 ? 2000 + Number(us[3]) : Number(us[3]);
    const t = Date.UTC(y, Number(us[1]) - 1, Number(us[2]));
    return Number.isNaN(t) ? null : t / 1000;
  }
  return toUnix(v, now);
}

/** The items the reviewer ordered; an entry flagged as a paid placement is none of them. */
function itemsOf(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/\s*[•,]\s*/).filter(Boolean);
  if (!Array.isArray(v)) return [];
  return v.filter((x) => !isAdNode(x)).map((x) => str(x) ?? str(obj(x)?.name) ?? str(obj(x)?.itemName)).filter((x): x is string => x !== null);
}

export function reviewOf(node: Obj, ctx: StoreContext): Omit<DeliveryReview, 'next_page_cursor'> {
  const consumer = obj(node.consumer) ?? obj(node.reviewer);
  const dateText = str(node.reviewDate) ?? str(node.displayDate) ?? str(node.reviewedAtDisplayString);
  // The shown date (often relative, "2 weeks ago") only without a timestamp: one there that does not read is unknown.
  const stamp = node.reviewedAt ?? node.createdAt;
  const ts = stamp != null ? dateOf(stamp, ctx.now) : dateOf(dateText, ctx.now);
  const response = obj(node.merchantResponse);
  return {
    query: ctx.query,
    store_id: ctx.storeId,
    store_name: ctx.storeName,
    review_id: idOf(node.reviewUuid) ?? idOf(node.consumerReviewUuid) ?? idOf(node.id),
    author_name: str(node.reviewerDisplayName) ?? str(consumer?.displayName) ?? str(consumer?.firstName),
    review_rating: int(node.starRating) ?? int(node.rating),
    review_text: str(node.reviewText) ?? str(node.text) ?? str(node.comment),
    review_timestamp: ts,
    review_datetime_utc: isoUtc(ts),
    ordered_items: itemsOf(node.orderedItems ?? node.items ?? node.itemNames),
    author_id: idOf(node.consumerId) ?? idOf(consumer?.id),
    author_reviews_count: int(node.numRatingsByConsumer) ?? int(consumer?.numRatings),
    review_date_text: dateText,
    review_experience: str(node.experience) ?? str(node.orderSource),
    review_verified: typeof node.isVerified === 'boolean' ? node.isVerified : null,
    merchant_response: str(response?.responseText) ?? str(response?.text) ?? str(node.merchantResponse),
    store_rating: ctx.storeRating ?? null,
    store_ratings_count: ctx.storeRatingsCount ?? null,
  };
}
