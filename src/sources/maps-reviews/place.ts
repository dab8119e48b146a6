/**
 * The place side of `/maps/reviews`: the place record comes from the maps-place / maps-search
 * parsers (one mapper for every map endpoint); a reviews element keeps the decision-24 subset.
 */
import { SourceError, isSourceError } from '../_kit/errors.ts';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { appInitState } from '../_maps/html.ts';
import type { NodeOptions } from '../_maps/node.ts';
import { extractPlaceFromHtml, looksLikeHtml, parsePlaceBody } from '../_maps/place-parse.ts';
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
 * A place page (HTML) or place-details body (JSON) → its record; null when the page is a
 * well-formed map page that holds no place (the id names nothing); `layout_changed` otherwise.
 * @example placeOfResponse(res, { query: 'x' })?.name
 */
export function placeOfResponse(res: Pick<FetchedResponse, 'body'>, opts: NodeOptions): PlaceRecord | null {
  const html = looksLikeHtml(res.body);
  try {
    return html ? extractPlaceFromHtml(res.body, opts) : parsePlaceBody(res.body, opts);
  } catch (e) {
    if (html && isSourceError(e) && e.type === 'layout_changed' && appInitState(res.body)) return null;
    throw e instanceof Error ? e : new SourceError('layout_changed', String(e));
  }
}
