/**
 * `trawl parse /rentals-reviews <file>`: records from one saved response, as the site served it:
 * a `StaysPdpReviewsQuery` answer (`{"data": ...}`) or an array of answers, a bare list of
 * `PdpReviewForP3` reviews, or a listing page HTML with the reviews its embedded state carries
 * (`data-deferred-state` scripts). Cursors are null (a lone file does not say where its page sits);
 * `listing_id` is known only from a page (its canonical link).
 *
 * @example parseCapture(readFileSync('StaysPdpReviewsQuery.json', 'utf8'))[0].review_id
 */
import { findValues, jsonScripts } from '../_kit/embedded.ts';
import { isGraphqlAnswer } from '../_kit/graphql.ts';
import { readListingPage } from './page.ts';
import { hasReviewsList, readReviews, reviewsData } from './parse.ts';
import type { RentalsReview } from './record.ts';
import { isReviewNode, reviewOf, type ReviewContext } from './review.ts';

type Obj = Record<string, unknown>;

const records = (nodes: Obj[], ctx: ReviewContext): RentalsReview[] => nodes.map((n) => ({ ...reviewOf(n, ctx), next_page_cursor: null }));

function fromHtml(text: string): RentalsReview[] {
  const id = /<link\b[^>]*rel=["']canonical["'][^>]*href=["'][^"']*\/rooms\/(?:plus\/)?(\d+)/i.exec(text)?.[1]
    ?? /<meta\b[^>]*property=["']og:url["'][^>]*content=["'][^"']*\/rooms\/(?:plus\/)?(\d+)/i.exec(text)?.[1] ?? null;
  const nodes = jsonScripts(text).flatMap((blob) => findValues(blob, isReviewNode));
  const byId = new Map(nodes.map((n) => [String(n.id), n]));
  if (!byId.size && !readListingPage(text).isAppPage) throw new Error('rentals-reviews: the page is not a listing page (no app state, no reviews)');
  return records([...byId.values()], { query: id ?? '', listingId: id });
}

export function parseCapture(text: string): RentalsReview[] {
  if (/^\s*</.test(text)) return fromHtml(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('rentals-reviews: the file is neither JSON nor HTML');
  }
  if (isGraphqlAnswer(json) || (typeof json === 'object' && json !== null && 'error_type' in json)) {
    const answers = Array.isArray(json) ? json : [json];
    return answers.flatMap((a) => {
      const data = reviewsData(a);
      if (data === 'stale') throw new Error('rentals-reviews: the answer is the site refusing a stale persisted-query hash (no reviews in it)');
      try {
        return records(readReviews(data).nodes, { query: '', listingId: null });
      } catch (e) {
        // The reviews list is there but an entry of it is no review: that answer's own error.
        if (hasReviewsList(data)) throw new Error(`rentals-reviews: ${(e as Error).message}`);
        // Another operation's answer (the listing's sections) may still carry reviews in its sections.
        const nodes = findValues(data, isReviewNode);
        if (nodes.length) return records(nodes, { query: '', listingId: null });
        throw new Error(`rentals-reviews: expected a StaysPdpReviewsQuery answer (${(e as Error).message})`);
      }
    });
  }
  if (Array.isArray(json) && json.length && json.every(isReviewNode)) return records(json as Obj[], { query: '', listingId: null });
  throw new Error('rentals-reviews: expected a StaysPdpReviewsQuery answer, a list of reviews, or a listing page');
}
