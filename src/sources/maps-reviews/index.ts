/**
 * `/maps/reviews` adapter (unit `review`): place → reviews pages → one element per place.
 *
 * @example
 *   const steps = mapsReviews.plan({ query: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', params: { reviewsLimit: 50 } });
 *   // executor fetches; for each response: mapsReviews.parse(step, res, ctx) → items + next steps
 *   const elements = mapsReviews.finish!(allItems, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { parsePlaceRef } from './ids.ts';
import { finish, parse, type ReviewsParseItem } from './parse.ts';
import { placeBodyFromHtml, placeNodeOf, placeSummaryOf, searchNodesOf, type PlaceSummary } from './place.ts';
import { plan } from './plan.ts';
import { isNoResult, type ReviewRecord, type ReviewsOutput, type ReviewsParams } from './record.ts';
import { reviewNodeOf, reviewOf } from './review.ts';
import { str } from '../_kit/positional.ts';

export const mapsReviews: WebAdapter<ReviewsParams, any> = {
  kind: 'web',
  endpoint: '/maps/reviews',
  unit: 'review',
  checkQuery(query: string): string | undefined {
    const ref = parsePlaceRef(query);
    if (ref.kind === 'phrase' && !ref.text) return `query "${query}" is empty: give a place id, CID, map URL or search phrase`;
    return undefined;
  },
  plan,
  parse: parse as WebAdapter<ReviewsParams, any>['parse'],
  finish: finish as WebAdapter<ReviewsParams, any>['finish'],
};

/**
 * Billable reviews of one query's finished elements: the reviews returned, and one when the query
 * found no place or no review (decision 20).
 * @example billableUnits([{ query: 'x', no_result: true }]) // 1
 */
export function billableUnits(records: ReviewsOutput[]): number {
  let n = 0;
  for (const r of records) if (!isNoResult(r)) n += r.reviews_data.length;
  return Math.max(1, n);
}

function isEntryList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((e) => reviewNodeOf(e) !== null && Array.isArray(e) && Array.isArray(e[0]));
}

/**
 * Parses one saved response of this source (for `trawl parse /maps/reviews <file>`): a reviews
 * page (`)]}'` optional), a bare list of review entries, a place page (HTML), a place body, or a
 * map search body. Throws an Error naming what it expected for anything else.
 * @example parseCapture(readFileSync('reviews_page.json', 'utf8'))[0].review_id
 */
export function parseCapture(text: string): Array<ReviewRecord | (PlaceSummary & { reviews_data: [] })> {
  const fromHtml = placeBodyFromHtml(text);
  if (fromHtml) return [{ ...placeSummaryOf(placeNodeOf(fromHtml)!), reviews_data: [] }];
  const json = parseMaybeXssiJson(text);
  if (!Array.isArray(json)) throw new Error('maps-reviews: the file is neither JSON nor a map place page');
  if (isEntryList(json)) return json.map((e) => reviewOf(e, null)!);
  if (json.length >= 3 && (json[2] === null || isEntryList(json[2])) && (json[1] === null || typeof json[1] === 'string') && !placeNodeOf(json)) {
    const token = str(json, 1);
    return ((json[2] as unknown[] | null) ?? []).map((e) => reviewOf(e, token)!).filter(Boolean);
  }
  const node = placeNodeOf(json);
  if (node) return [{ ...placeSummaryOf(node), reviews_data: [] }];
  const nodes = searchNodesOf(json);
  if (nodes.length) return nodes.map((n) => ({ ...placeSummaryOf(n), reviews_data: [] as [] }));
  throw new Error('maps-reviews: expected a listugcposts reviews page, a review entry list, a place page/body or a map search body');
}

export { plan, parse, finish, isNoResult };
export type { ReviewsParams, ReviewRecord, ReviewsOutput, ReviewsParseItem };
export { reviewOf } from './review.ts';
export { reviewsPageUrl, mapSearchUrl, placeStep, SORT_CODE } from './plan.ts';
export { parsePlaceRef, cidOfEngineId } from './ids.ts';
export { placeSummaryOf, searchNodesOf, placeBodyFromHtml, siteOf } from './place.ts';
