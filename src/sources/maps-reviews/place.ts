/**
 * The place side of `/maps/reviews`: the place record comes from the maps-place / maps-search
 * parsers (one mapper for every map endpoint); a reviews element keeps the decision-24 subset.
 */
import { SourceError, isSourceError } from '../_kit/errors.ts';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { appInitState } from '../_maps/html.ts';
import { placeFromNode, type NodeOptions } from '../_maps/node.ts';
import { looksLikeHtml, placeNodeOfPage } from '../_maps/place-parse.ts';
import { placeStubs } from '../_maps/stub.ts';
import type { StubNote } from '../_kit/stub.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import type { PlaceSummary } from './record.ts';

export type { PlaceSummary };

/**
 * @example summaryOf(parsePlaceBody(body)).engine_id // '0x14e732fd76f0d90d:0xe5415928d6702b47'
 */
export function summaryOf(r: PlaceRecord): PlaceSummary {
  return {
    name: r.name,
    full_address: r.full_address,
    engine_id: r.engine_id,
    place_id: r.place_id,
    location_link: r.location_link,
    rating: r.rating,
    reviews: r.reviews,
    reviews_id: r.reviews_id,
    reviews_link: r.reviews_link,
    reviews_per_score: r.reviews_per_score,
  };
}

/**
 * A place page (HTML) or place-details body (JSON) → its record and whether it is a stub (short of
 * what a place page shows: _maps/stub.ts); null when the page is a well-formed map page that holds
 * no place (the id names nothing); `layout_changed` otherwise.
 * @example placeOfPage(res, { query: 'x' })?.rec.name
 */
export function placeOfPage(res: Pick<FetchedResponse, 'body'>, opts: NodeOptions): { rec: PlaceRecord; stubs: StubNote[] } | null {
  let node: unknown[];
  try {
    node = placeNodeOfPage(res.body);
  } catch (e) {
    if (looksLikeHtml(res.body) && isSourceError(e) && e.type === 'layout_changed' && appInitState(res.body)) return null;
    throw e instanceof Error ? e : new SourceError('layout_changed', String(e));
  }
  const rec = placeFromNode(node, opts);
  return { rec, stubs: placeStubs([rec], 'page', [node]) };
}

/** @example placeOfResponse(res, { query: 'x' })?.name */
export function placeOfResponse(res: Pick<FetchedResponse, 'body'>, opts: NodeOptions): PlaceRecord | null {
  return placeOfPage(res, opts)?.rec ?? null;
}
