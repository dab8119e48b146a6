/**
 * `trawl parse /maps/reviews <file>`: a saved response of this source → records.
 */
import { str } from '../_kit/positional.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { looksLikeHtml, placeNodeOf } from '../_maps/place-parse.ts';
import { placeFromNode } from '../_maps/node.ts';
import { parseSearchData } from '../_maps/search-body.ts';
import { placeOfResponse, summaryOf, type PlaceSummary } from './place.ts';
import type { ReviewRecord, ReviewsElement } from './record.ts';
import { reviewNodeOf, reviewOf } from './review.ts';
import { parseDialogPage } from './dialog.ts';
import { arr } from '../_kit/positional.ts';

function isEntryList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((e) => reviewNodeOf(e) !== null && Array.isArray(e) && Array.isArray(e[0]));
}

/**
 * Parses one saved response of this source (for `trawl parse /maps/reviews <file>`): a reviews
 * page (`)]}'` optional), a bare list of review entries, a review dialog answer, a place page (HTML), a place body, or a
 * map search body. Throws an Error naming what it expected for anything else.
 * @example parseCapture(readFileSync('reviews_page.json', 'utf8'))[0].review_id
 */
export function parseCapture(text: string, query = ''): Array<ReviewRecord | ReviewsElement> {
  const asElement = (p: PlaceSummary): ReviewsElement => ({ query, ...p, reviews_data: [] });
  if (looksLikeHtml(text)) {
    const rec = placeOfResponse({ body: text }, { query });
    if (!rec) throw new Error('maps-reviews: the map page holds no place');
    return [asElement(summaryOf(rec))];
  }
  const json = parseMaybeXssiJson(text);
  if (!Array.isArray(json)) throw new Error('maps-reviews: the file is neither JSON nor a map place page');
  if (isEntryList(json)) return json.map((e) => reviewOf(e, null)!);
  // The search results page's review dialog: its review block at [1][10].
  // The answer names no place: one element with its reviews, the place's fields null.
  if (arr(json, 1, 10)) {
    const none: PlaceSummary = { name: null, full_address: null, engine_id: null, place_id: null, location_link: null, rating: null, reviews: null, reviews_id: null, reviews_link: null, reviews_per_score: null };
    return [{ ...asElement(none), reviews_data: parseDialogPage(text).reviews }];
  }
  const node = placeNodeOf(json);
  if (node) return [asElement(summaryOf(placeFromNode(node)))];
  if (json.length >= 3 && (json[2] === null || isEntryList(json[2])) && (json[1] === null || typeof json[1] === 'string')) {
    const token = str(json, 1);
    return ((json[2] as unknown[] | null) ?? []).map((e) => reviewOf(e, token)!).filter(Boolean);
  }
  try {
    const places = parseSearchData(json);
    if (places.length) return places.map((p) => asElement(summaryOf(p)));
  } catch {
    /* not a search body either */
  }
  throw new Error('maps-reviews: expected a listugcposts reviews page, a review entry list, a review dialog answer, a place page/body or a map search body');
}

