/**
 * One `PdpReviewForP3` (a review of `StaysPdpReviewsQuery`) → a `/rentals-reviews` record without
 * its cursor. Pure; a missing branch is a null field. Field names follow the real 2026-09 answer
 * (id, comments, language, createdAt, rating, reviewer, reviewee, response, localizedDate,
 * localizedRespondedDate, localizedReview, localizedReviewerLocation, highlightType, reviewPhotoUrls).
 *
 * @example reviewOf(node, { query: '38817969', listingId: '38817969' }).review_id // '1000001'
 */
import { isoUtc, toUnix, timeFields } from '../_kit/dates.ts';
import type { RentalsReview } from './record.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
const idOf = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The site words response dates as "May 2024" (month precision, English as requested with
 * locale=en): the first day of that month, 00:00 UTC. An ISO date is read as such; relative words
 * ("2 weeks ago") give null.
 * @example monthStart('Response from host: May 2024') // 1714521600
 */
export function monthStart(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return toUnix(text.trim());
  const m = /\b([A-Za-z]+)\s+(\d{4})\s*$/.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[1].toLowerCase()) : -1;
  return month >= 0 ? Date.UTC(Number(m![2]), month, 1) / 1000 : null;
}

function photosOf(node: Obj): string[] {
  const out: string[] = [];
  for (const p of [...(Array.isArray(node.reviewPhotoUrls) ? node.reviewPhotoUrls : []), ...(Array.isArray(node.reviewMediaItems) ? node.reviewMediaItems : [])]) {
    const url = str(p) ?? str(obj(p)?.baseUrl) ?? str(obj(p)?.url) ?? str(obj(obj(p)?.image)?.baseUrl);
    if (url && !out.includes(url)) out.push(url);
  }
  return out;
}

export interface ReviewContext {
  query: string;
  listingId: string | null;
}

export function reviewOf(node: Obj, ctx: ReviewContext): Omit<RentalsReview, 'next_page_cursor'> {
  const reviewer = obj(node.reviewer);
  const reviewee = obj(node.reviewee);
  const localized = obj(node.localizedReview);
  const t = timeFields('review', node.createdAt);
  const responded = monthStart(node.localizedRespondedDate);
  const response = str(node.response) ?? str(obj(node.response)?.comments) ?? str(obj(node.response)?.text);
  return {
    query: ctx.query,
    listing_id: ctx.listingId,
    review_id: idOf(node.id),
    review_text: str(node.comments) ?? str(node.commentV2),
    review_rating: int(node.rating),
    author_name: str(reviewer?.firstName) ?? str(reviewer?.hostName),
    author_id: idOf(reviewer?.id),
    ...t,
    language: str(node.language) ?? str(localized?.commentsLanguage),
    host_response: response,
    host_response_timestamp: response ? responded : null,
    host_response_datetime_utc: response ? isoUtc(responded) : null,
    host_response_date_text: response ? str(node.localizedRespondedDate) : null,
    review_date_text: str(node.localizedDate),
    review_text_translated: str(localized?.comments),
    author_image: str(reviewer?.pictureUrl) ?? str(obj(reviewer?.userProfilePicture)?.baseUrl),
    author_location: str(node.localizedReviewerLocation),
    host_name: str(reviewee?.firstName) ?? str(reviewee?.hostName),
    host_id: idOf(reviewee?.id),
    review_highlight: str(node.highlightType),
    review_photos: photosOf(node),
  };
}

/** A review's id: decimal digits (`1539761966650747553`). */
export const REVIEW_ID = /^\d+$/;

/**
 * Looks like a review of the reviews operation (tells review lists apart from other JSON): the
 * review typename or its fields, and the numeric id every review has.
 */
export function isReviewNode(v: unknown): v is Obj {
  const o = obj(v);
  return !!o && (o.__typename === 'PdpReviewForP3' || ('id' in o && 'comments' in o && 'reviewer' in o)) && REVIEW_ID.test(String(idOf(o.id)));
}
