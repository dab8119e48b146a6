/**
 * One review of the product-launch site (`__typename: "Review"`) → a `/launchsite-reviews` record
 * without its cursor. Pure; a missing branch is a null field. Older and newer review shapes are both
 * read: the text is `body` (older: `text`, `overallExperience`, or `comment.body`), the older
 * pros/cons reviews carry `pros`, `cons` and a `sentiment` instead of stars.
 *
 * @example reviewOf(node, { query: 'linear', product: { slug: 'linear', id: '1', name: 'Linear' } }).review_id
 */
import { timeFields } from '../_kit/dates.ts';
import { idOf, int, num, obj, str, type Obj } from '../_kit/values.ts';
import { ORIGIN } from './plan.ts';
import type { LaunchsiteReview } from './record.ts';


export interface ProductContext {
  query: string;
  product: { slug: string | null; id: string | null; name: string | null } | null;
  /** `reviewsRating` / `reviewsCount` of the product, when the answer gives them. */
  rating?: number | null;
  count?: number | null;
}

/** Looks like a review (tells reviews apart from the other objects of an answer or page state). */
export function isReviewNode(v: unknown): v is Obj {
  const o = obj(v);
  if (!o || !('id' in o)) return false;
  if (o.__typename === 'Review') return true;
  return o.__typename === undefined && 'rating' in o && ('body' in o || 'sentiment' in o || 'overallExperience' in o) && ('user' in o || 'createdAt' in o);
}

const lower = (v: unknown) => str(v)?.toLowerCase() ?? null;
const abs = (url: string | null) => (url && url.startsWith('/') ? `${ORIGIN}${url}` : url);

export function reviewOf(node: Obj, ctx: ProductContext): Omit<LaunchsiteReview, 'next_page_cursor'> {
  const user = obj(node.user) ?? obj(node.author);
  const product = ctx.product;
  const id = idOf(node.id);
  const username = str(user?.username);
  const slug = product?.slug ?? null;
  const link = abs(str(node.url) ?? str(node.path)) ?? (slug && id ? `${ORIGIN}/products/${slug}/reviews?review=${id}` : null);
  return {
    query: ctx.query,
    product_id: product?.id ?? null,
    product_name: product?.name ?? null,
    review_id: id,
    review_rating: int(node.rating),
    review_text: str(node.body) ?? str(node.text) ?? str(node.overallExperience) ?? str(obj(node.comment)?.body),
    sentiment: lower(node.sentiment),
    author_name: str(user?.name),
    author_username: username,
    author_id: idOf(user?.id),
    ...timeFields('review', node.createdAt),
    votes_count: int(node.votesCount) ?? int(node.helpfulVotesCount),
    review_link: link,
    product_slug: slug,
    product_rating: ctx.rating ?? null,
    product_reviews_count: ctx.count ?? null,
    review_pros: str(node.pros),
    review_cons: str(node.cons),
    comments_count: int(node.commentsCount),
    author_headline: str(user?.headline),
    author_image: str(user?.avatarUrl) ?? str(user?.profileImage) ?? str(obj(user?.avatar)?.url),
    author_link: username ? `${ORIGIN}/@${username}` : abs(str(user?.url)),
  };
}

/** The product's rating and review count off the product object of an answer. */
export function productStats(p: Obj | null): { rating: number | null; count: number | null } {
  return { rating: num(p?.reviewsRating), count: int(p?.reviewsCount) };
}
