/**
 * `/lodging-prices` answers → one record per offered room or rate. Accepted as served: the hotel
 * page (room table, see page.ts), the search results page (Apollo store) and the `FullSearch`
 * GraphQL answer `{"data": ...}` (see results.ts).
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { jsonScripts } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { isGraphqlAnswer, readGraphql } from '../_kit/graphql.ts';
import { isHotelPage, isRatelessHotelPage, pageRecords, ratelessRecord } from './page.ts';
import type { PriceRecord, Stay } from './record.ts';
import { blocksOf, resultNodes, resultRecords } from './results.ts';

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

/**
 * Whether a search answer was for a stay: an answer for no stay prices no hotel, so one rate says
 * it was. Else a search page's Apollo store says it in the arguments of its search
 * (`search({"input":{"dates":{"checkin":...`); a GraphQL answer does not, and there the stay asked
 * decides (none for a saved answer).
 */
function answerDated(json: unknown, stay: Stay | null, nodes: ReturnType<typeof resultNodes>): boolean {
  if (nodes.some((n) => blocksOf(n).length > 0)) return true;
  const queries = (json as { ROOT_QUERY?: { searchQueries?: Record<string, unknown> } }).ROOT_QUERY?.searchQueries;
  const key = queries ? Object.keys(queries).find((k) => k.startsWith('search(')) : undefined;
  if (key !== undefined) return /"checkin"\s*:\s*"\d{4}-\d{2}-\d{2}"/.test(key);
  return stay !== null;
}

/**
 * Rate records of every result node of a search answer (a hotel shown with no rate: one record
 * saying why); null when the body is no search answer.
 */
export function searchRecords(body: string, query: string, stay: Stay | null, hotelId: string | null): PriceRecord[] | null {
  const json = searchJson(body);
  if (json === undefined || json === null || typeof json !== 'object') return null;
  const nodes = resultNodes(json);
  if (nodes.length === 0 && !JSON.stringify(json).includes('searchQueries')) return null;
  const mine = hotelId ? nodes.filter((n) => String(n.basicPropertyData?.id) === hotelId) : nodes;
  if (hotelId && nodes.length && !mine.length) throw new SourceError('not_found', `hotel ${hotelId} is not among the results for its own id`);
  const dated = answerDated(json, stay, nodes);
  return mine.flatMap((n) => resultRecords(n, query, stay, dated));
}

/** @example parse(step, res, { query, params: {} }).records */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext): ParseResult<PriceRecord> {
  const stay = (step.state?.stay as Stay | undefined) ?? null;
  if (step.kind === 'hotel') {
    if (isHotelPage(res.body)) return { records: pageRecords(res.body, ctx.query, stay, step.url) };
    const fromStore = searchRecords(res.body, ctx.query, stay, null);
    if (fromStore) return { records: fromStore };
    if (isRatelessHotelPage(res.body)) return { records: [ratelessRecord(res.body, ctx.query, stay, step.url)] };
    throw new SourceError('layout_changed', 'hotel page has no room table (#hprt-table rows with data-block-id) and no hotel name');
  }
  if (step.kind === 'search') {
    const out = searchRecords(res.body, ctx.query, stay, (step.state?.hotelId as string | null) ?? null);
    if (!out) throw new SourceError('layout_changed', 'search answer has no results (Apollo store or GraphQL searchQueries)');
    return { records: out };
  }
  throw new SourceError('layout_changed', `lodging-prices: unknown step kind ${step.kind}`);
}
