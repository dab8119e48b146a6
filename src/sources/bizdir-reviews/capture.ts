/**
 * `trawl parse /bizdir-reviews <file>`: records from one saved response, as the site served it:
 * a `GetBusinessReviewFeed` answer (`{"data": ...}`) or a `/gql/batch` array of answers, a bare
 * list of review edges (`[{node}]`) or nodes, or a business page HTML with the reviews its embedded
 * state carries (Apollo cache references resolved). Cursors are null: a lone file does not say
 * where its page sits in the feed.
 *
 * @example parseCapture(readFileSync('reviews.json', 'utf8'))[0].review_id
 */
import { findValues, jsonScripts, resolveRefs } from '../_kit/embedded.ts';
import { cacheOf } from '../_kit/page-state.ts';
import { isGraphqlAnswer } from '../_kit/graphql.ts';
import { readBizPage } from './page.ts';
import { readFeed } from './parse.ts';
import type { BizdirReview } from './record.ts';
import { isReviewNode, reviewOf, type ReviewContext } from './review.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);

const withCursor = (r: Omit<BizdirReview, 'next_page_cursor'>): BizdirReview => ({ ...r, next_page_cursor: null });

function fromHtml(text: string): BizdirReview[] {
  const page = readBizPage(text);
  const ctx: ReviewContext = { query: page.alias ?? page.encid ?? '', encid: page.encid, alias: page.alias, name: page.name };
  const nodes = jsonScripts(text).flatMap((blob) => findValues(blob, isReviewNode).map((n) => resolveRefs(cacheOf(blob), n) as Obj));
  const byId = new Map<string, Obj>();
  for (const n of nodes) byId.set(String(n.encid ?? n.id), n);
  if (!byId.size && !page.encid) throw new Error('bizdir-reviews: the page is not a business page (no business id, no reviews in its state)');
  // Reviews the state types as such, none of which reads (no id, rating, text or date): not "no reviews".
  const typed = byId.size ? 0 : jsonScripts(text).reduce((k, blob) => k + findValues(blob, (v): v is Obj => typeof v === 'object' && v !== null && (v as Obj).__typename === 'Review').length, 0);
  if (typed > 0) throw new Error(`bizdir-reviews: the page state holds ${typed} Review objects and none reads as a review (id, rating, text or date)`);
  return [...byId.values()].map((n) => withCursor(reviewOf(n, ctx)));
}

export function parseCapture(text: string): BizdirReview[] {
  if (/^\s*</.test(text)) return fromHtml(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('bizdir-reviews: the file is neither JSON nor HTML');
  }
  if (isGraphqlAnswer(json)) {
    const feed = readFeed(json);
    const ctx: ReviewContext = { query: feed.business.alias ?? feed.business.encid ?? '', ...feed.business };
    return feed.nodes.map((n) => withCursor(reviewOf(n, ctx)));
  }
  if (Array.isArray(json)) {
    const nodes = json.map((e) => (isReviewNode(obj(e)?.node) ? obj(e)!.node : e));
    if (nodes.length && nodes.every(isReviewNode)) {
      return (nodes as Obj[]).map((n) => {
        const b = obj(n.business);
        const ctx: ReviewContext = { query: (b?.alias as string) ?? '' };
        return withCursor(reviewOf(n, ctx));
      });
    }
  }
  throw new Error('bizdir-reviews: expected a GetBusinessReviewFeed answer or batch, a list of review edges or nodes, or a business page');
}
