/**
 * `/lodging-prices` answers → one record per offered room or rate. Accepted as served: the hotel
 * page (room table, see page.ts), the search results page (Apollo store) and the `FullSearch`
 * GraphQL answer `{"data": ...}` (see results.ts).
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { jsonScripts } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { isGraphqlAnswer, readGraphql } from '../_kit/graphql.ts';
import { isHotelPage, pageRecords } from './page.ts';
import type { PriceRecord, Stay } from './record.ts';
import { resultNodes, resultRecords } from './results.ts';

/** The JSON a search answer holds: a GraphQL answer's data, or the page's Apollo store. */
export function searchJson(body: string): unknown {
  const t = body.trimStart();
  if (t.startsWith('<')) return jsonScripts(body, (s) => s.attrs['data-capla-store-data'] === 'apollo')[0];
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return undefined;
  }
  return isGraphqlAnswer(v) ? readGraphql(v) : v;
}

/** Rate records of every result node of a search answer; null when the body is no search answer. */
export function searchRecords(body: string, query: string, stay: Stay | null, hotelId: string | null): PriceRecord[] | null {
  const json = searchJson(body);
  if (json === undefined || json === null || typeof json !== 'object') return null;
  const nodes = resultNodes(json);
  if (nodes.length === 0 && !JSON.stringify(json).includes('searchQueries')) return null;
  const mine = hotelId ? nodes.filter((n) => String(n.basicPropertyData?.id) === hotelId) : nodes;
  if (hotelId && nodes.length && !mine.length) throw new SourceError('not_found', `hotel ${hotelId} is not among the results for its own id`);
  return mine.flatMap((n) => resultRecords(n, query, stay));
}

/** A hotel page that shows the hotel but no rates (sold out for the stay). */
function isRatelessHotelPage(html: string): boolean {
  return /\bb_hotel_id\b|id=["']hp_hotel_name["']/.test(html);
}

/** @example parse(step, res, { query, params: {} }).records */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext): ParseResult<PriceRecord> {
  const stay = (step.state?.stay as Stay | undefined) ?? null;
  if (step.kind === 'hotel') {
    if (isHotelPage(res.body)) return { records: pageRecords(res.body, ctx.query, stay, step.url) };
    const fromStore = searchRecords(res.body, ctx.query, stay, null);
    if (fromStore) return { records: fromStore };
    if (isRatelessHotelPage(res.body)) return { records: [] };
    throw new SourceError('layout_changed', 'hotel page has no room table (#hprt-table rows with data-block-id) and no hotel name');
  }
  if (step.kind === 'search') {
    const out = searchRecords(res.body, ctx.query, stay, (step.state?.hotelId as string | null) ?? null);
    if (!out) throw new SourceError('layout_changed', 'search answer has no results (Apollo store or GraphQL searchQueries)');
    return { records: out };
  }
  throw new SourceError('layout_changed', `lodging-prices: unknown step kind ${step.kind}`);
}
