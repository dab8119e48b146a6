/**
 * One `GetBusinessReviewFeed` review node → a `/bizdir-reviews` record (without its cursor, which
 * the page it came from decides). Pure; a missing branch is a null field. Field names follow the
 * real 2024-02 capture (`Review` node: encid, text{full, language}, rating, feedback, author,
 * business, createdAt{utcDateTime, localDateTime}, businessPhotos, tags,
 * availableReactionsContainer, bizUserPublicReply).
 *
 * @example reviewOf(edge.node, 'vons-1000-spirits-seattle-4', { query: 'q' }).review_id // 'NhoqrEH2ZzyI_8z-mTya5w'
 */
import { timeFields } from '../_kit/dates.ts';
import { isAdNode, webLink } from '../_kit/values.ts';
import { ORIGIN } from './plan.ts';
import type { BizdirReview } from './record.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** What a review has that its page, not the node, may know. */
export interface ReviewContext {
  query: string;
  encid?: string | null;
  alias?: string | null;
  name?: string | null;
}

/** A date object `{utcDateTime, localDateTime}` or, on reshaped copies, a bare string. */
function createdOf(v: unknown): { utc: unknown; local: string | null } {
  const o = obj(v);
  if (o) return { utc: o.utcDateTime ?? o.localDateTimeForBusiness ?? o.localDateTime, local: str(o.localDateTime) ?? str(o.localDateTimeForBusiness) };
  return { utc: v, local: null };
}

function textOf(v: unknown): string | null {
  const o = obj(v);
  return o ? str(o.full) ?? str(o.partial) : str(v);
}

/** A photo CDN link at its original size: `/bphoto/<id>/348s.jpg` → `/bphoto/<id>/o.jpg` (the lightbox link's form). */
const originalSize = (url: string) => url.replace(/(\/bphoto\/[^/]+\/)[^/.]+\.jpg$/, '$1o.jpg');

/** Review photos at their original size: the lightbox link, else a sized link brought back to it; no ad, no non-link. */
function photosOf(node: Obj): string[] {
  const out: string[] = [];
  for (const p of arr(node.businessPhotos)) {
    if (isAdNode(p)) continue;
    const u = obj(obj(p)?.photoUrl);
    const url = webLink(u?.lightboxMediaItemUrl) ?? webLink(u?.url) ?? webLink(obj(p)?.photoUrl);
    if (url) out.push(originalSize(url));
  }
  return out;
}

function reactionsOf(node: Obj): Record<string, number> | null {
  const list = arr(obj(node.availableReactionsContainer)?.availableReactions ?? node.availableReactions);
  if (!list.length) return null;
  const out: Record<string, number> = {};
  for (const r of list) {
    const type = str(obj(r)?.reactionType);
    const n = int(obj(r)?.count);
    if (type && n !== null) out[type.toLowerCase()] = n;
  }
  return out;
}

/** The badges the site prints on a review card, in its words. */
function tagsOf(node: Obj, author: Obj | null): string[] {
  const tags: string[] = [];
  const elite = str(author?.currentTruncatedEliteYear);
  if (elite) tags.push(`Elite ${elite}`);
  const t = obj(node.tags);
  if (t) {
    const checkIns = int(t.checkInCount);
    if (checkIns) tags.push(`${checkIns} check-in${checkIns === 1 ? '' : 's'}`);
    if (t.isFirstReviewer === true) tags.push('First to Review');
    if (t.reviewOfTheDay) tags.push('Review of the Day');
    if (obj(t.paymentInfo)?.hasPaidThroughYelp === true) tags.push('Paid through Yelp');
    if (obj(t.paymentInfo)?.hasPurchasedDeal === true) tags.push('Purchased a deal');
    if (obj(t.reservationInfo)?.hasPlacedReservation === true) tags.push('Made a reservation');
  }
  if (arr(node.previousReviews).length) tags.push('Updated review');
  return tags;
}

function repliesOf(node: Obj): BizdirReview['owner_replies'] {
  const replies = Array.isArray(node.bizUserPublicReplies) ? node.bizUserPublicReplies : [node.bizUserPublicReply];
  const out: BizdirReview['owner_replies'] = [];
  for (const r of replies) {
    const o = obj(r);
    if (!o) continue;
    const t = timeFields('reply', createdOf(o.createdAt).utc);
    const who = obj(o.businessUser) ?? obj(o.user) ?? obj(o.author);
    out.push({
      reply_text: textOf(o.text) ?? str(o.comment),
      ...t,
      replier_name: str(who?.displayName) ?? str(who?.name) ?? null,
    });
  }
  return out;
}

export function reviewOf(node: Obj, ctx: ReviewContext): Omit<BizdirReview, 'next_page_cursor'> {
  const author = obj(node.author);
  const business = obj(node.business);
  const feedback = obj(node.feedback);
  const created = createdOf(node.createdAt);
  const t = timeFields('review', created.utc);
  const reactions = reactionsOf(node);
  const alias = str(business?.alias) ?? ctx.alias ?? null;
  const id = str(node.encid) ?? str(node.id);
  const authorId = str(author?.encid) ?? str(author?.id);
  const photo = obj(obj(author?.profilePhoto)?.photoUrl);
  return {
    query: ctx.query,
    business_name: str(business?.name) ?? ctx.name ?? null,
    review_rating: int(node.rating),
    review_text: textOf(node.text),
    review_photos: photosOf(node),
    review_tags: tagsOf(node, author),
    owner_replies: repliesOf(node),
    review_id: id,
    business_id: str(business?.encid) ?? ctx.encid ?? null,
    author_id: authorId,
    author_title: str(author?.displayName),
    author_link: authorId ? `${ORIGIN}/user_details?userid=${encodeURIComponent(authorId)}` : null,
    ...t,
    review_likes: reactions && 'helpful' in reactions ? reactions.helpful : int(feedback?.usefulCount),
    language: str(obj(node.text)?.language) ?? str(node.language),
    business_alias: alias,
    review_link: alias && id ? `${ORIGIN}/biz/${encodeURIComponent(alias)}?hrid=${encodeURIComponent(id)}` : null,
    review_local_datetime: created.local,
    review_reactions: reactions,
    review_feedback: feedback ? { useful: int(feedback.usefulCount), funny: int(feedback.funnyCount), cool: int(feedback.coolCount) } : null,
    author_image: str(photo?.userSrc) ?? str(photo?.mediaItemSrcUrl) ?? null,
    author_location: str(author?.displayLocation),
    author_reviews_count: int(author?.reviewCount),
    author_friends_count: int(author?.friendCount),
    author_photos_count: int(author?.businessPhotoCount),
    author_elite_year: str(author?.currentTruncatedEliteYear),
  };
}

/** Looks like a review node of the feed (tells edges lists apart from other JSON). */
export function isReviewNode(v: unknown): v is Obj {
  const o = obj(v);
  return !!o && (typeof o.encid === 'string' || typeof o.id === 'string') && 'rating' in o && ('text' in o || 'createdAt' in o);
}
