/**
 * `/maps/search` parse: one fetched response → records and further steps.
 * - `search`: a search page → its places (+ next page or sub-cells, see paging.ts)
 * - `place`: a place page (HTML) or place-details body (JSON) → one place
 * - `resolve`: a followed short link → the place on the final page, or the step its final URL names
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { nodeOptionsOf } from '../_maps/node.ts';
import { looksLikeHtml, parsePlaceStep } from '../_maps/place-parse.ts';
import { placeStep } from '../_maps/place-step.ts';
import { classifyQuery } from '../_maps/query.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { afterSearchPage } from './paging.ts';
import { afterAreaPage, readAreaState } from './cover.ts';
import { searchSettings, type MapsSearchParams } from '../_maps/params.ts';
import { firstSearchStep } from '../_maps/search-step.ts';
import { parseSearchBody } from '../_maps/search-body.ts';
import { readState } from '../_maps/state.ts';
import { placeStubs } from '../_maps/stub.ts';

/** A search page's outcome with the listings it keeps that are stubs (short of a listing's shape:
 *  _maps/stub.ts), which the runner asks again once from another identity (issue 34, item 4). */
function withListingStubs(out: ParseResult<PlaceRecord>): ParseResult<PlaceRecord> {
  const stubs = placeStubs(out.records, 'listing');
  return stubs.length ? { ...out, stubs } : out;
}

function parseResolve(step: Step, response: FetchedResponse, ctx: QueryContext<MapsSearchParams>): ParseResult<PlaceRecord> {
  if (looksLikeHtml(response.body)) {
    try {
      return parsePlaceStep(response, nodeOptionsOf(ctx.query, ctx.params));
    } catch {
      // Not a place page (a search page, say): the final URL says what to fetch instead.
    }
  }
  const form = classifyQuery(response.url);
  const s = searchSettings(ctx.params);
  switch (form.form) {
    case 'phrase':
      return { records: [], next: [firstSearchStep(form.q, s, form.camera ?? null)] };
    case 'place_id':
    case 'cid':
    case 'engine_id':
      return { records: [], next: [placeStep(form, { language: s.language, region: s.region })] };
    case 'place_url':
      if (response.url === step.url) break;
      return { records: [], next: [placeStep(form, { language: s.language, region: s.region })] };
    default:
      break;
  }
  throw new SourceError('layout_changed', `short link ${step.url} led to ${response.url}, which names no place or search`);
}

/**
 * @example
 *   const out = parseMapsSearch(step, { status: 200, url: step.url, headers: {}, body }, ctx);
 *   out.records; out.next
 */
export function parseMapsSearch(step: Step, response: FetchedResponse, ctx: QueryContext<MapsSearchParams>): ParseResult<PlaceRecord> {
  switch (step.kind) {
    case 'search': {
      const state = readState(step.state);
      if (!state) throw new SourceError('invalid_query', 'search step without a valid state');
      const page = parseSearchBody(response, nodeOptionsOf(ctx.query, ctx.params));
      return withListingStubs(afterSearchPage(state, page));
    }
    case 'area': {
      const state = readAreaState(step.state);
      if (!state) throw new SourceError('invalid_query', 'area step without a valid state');
      return withListingStubs(afterAreaPage(structuredClone(state), parseSearchBody(response, nodeOptionsOf(ctx.query, ctx.params)), ctx));
    }
    case 'place':
      return parsePlaceStep(response, nodeOptionsOf(ctx.query, ctx.params));
    case 'resolve':
      return parseResolve(step, response, ctx);
    default:
      throw new SourceError('invalid_query', `unknown step kind for /maps/search: ${step.kind}`);
  }
}
