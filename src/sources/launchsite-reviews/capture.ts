/**
 * `trawl parse /launchsite-reviews <file>`: records from one saved response, as the site served it:
 * a `/frontend/graphql` answer (`{"data": ...}`) or a batch array of answers, a bare list of reviews
 * or review edges, or a product / launch page HTML with the reviews its embedded state carries.
 * Cursors are null (a lone file does not say where its page sits).
 *
 * @example parseCapture(readFileSync('reviews.json', 'utf8'))[0].review_id
 */
import { isGraphqlAnswer, readGraphqlBatch } from '../_kit/graphql.ts';
import { connectionNodes, type Obj } from '../_kit/values.ts';
import { readProductPage } from './page.ts';
import { readReviews } from './parse.ts';
import type { LaunchsiteReview } from './record.ts';
import { isReviewNode, reviewOf, type ProductContext } from './review.ts';

const records = (nodes: Obj[], ctx: ProductContext): LaunchsiteReview[] => nodes.map((n) => ({ ...reviewOf(n, ctx), next_page_cursor: null }));

function fromHtml(text: string): LaunchsiteReview[] {
  const page = readProductPage(text, /<link\b[^>]*rel=["']canonical["'][^>]*\/posts\//i.test(text));
  const byId = new Map(page.reviews.map((n) => [String(n.id), n]));
  if (!byId.size && !page.isAppPage) throw new Error('launchsite-reviews: the page is not a product page (no app state, no reviews)');
  return records([...byId.values()], { query: page.product?.slug ?? '', product: page.product });
}

export function parseCapture(text: string): LaunchsiteReview[] {
  if (/^\s*</.test(text)) return fromHtml(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('launchsite-reviews: the file is neither JSON nor HTML');
  }
  if (isGraphqlAnswer(json)) {
    return readGraphqlBatch<Obj>(json).flatMap((data) => {
      const page = readReviews(data);
      return records(page.nodes, { query: page.product?.slug ?? '', product: page.product, rating: page.rating, count: page.count });
    });
  }
  const nodes = connectionNodes(json).map((e) => (isReviewNode(e.node) ? e.node : e));
  if (nodes.length && nodes.every(isReviewNode)) return records(nodes, { query: '', product: null });
  throw new Error('launchsite-reviews: expected a ProductReviewsPage answer ({"data": ...}) or a batch of them, a list of reviews, or a product page');
}
