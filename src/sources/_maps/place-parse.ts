/**
 * Place-details parsers: the `/maps/preview/place` JSON body (= `APP_INITIALIZATION_STATE[3][6]` of a
 * place page) and the place page HTML. Pure; they never throw on an odd shape (null fields), only
 * `SourceError('layout_changed')` when there is no place at all or the body is not JSON.
 */
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, ParseResult } from '../_kit/adapter.ts';
import { parseMaybeXssiJson, stripXssi } from '../_kit/xssi.ts';
import { jsonOfBody } from '../../fetch/lazy-body.ts';
import { appInitState, placeBodyCandidates } from './html.ts';
import { isPlaceNode, placeFromNode, type NodeOptions } from './node.ts';
import type { PlaceRecord } from './record.ts';
import { placeStubs } from './stub.ts';

/**
 * JSON of a body that may carry the `)]}'` line; throws `layout_changed` when it is not JSON. Given the
 * response rather than its text, a body still undecoded is parsed from its bytes (../../fetch/lazy-body.ts
 * jsonOfBody, issue 37 session 21): the same value, without decoding the page whole.
 *
 * @example
 *   parseJsonBody(")]}'\n[1]") // [1]
 */
export function parseJsonBody(text: string | { body: string }, what = 'response'): unknown {
  if (typeof text === 'object' && text !== null) {
    // A response: from its bytes while undecoded (no large string a page); a body that is not JSON
    // is read again as text for the error below.
    try {
      return jsonOfBody(text);
    } catch {
      return parseJsonBody(text.body, what);
    }
  }
  if (typeof text !== 'string' || text.trim() === '') throw new SourceError('layout_changed', `empty ${what} body`);
  try {
    return JSON.parse(stripXssi(text));
  } catch {
    throw new SourceError('layout_changed', `${what} body is not JSON (starts ${JSON.stringify(text.slice(0, 40))})`);
  }
}

/**
 * The place node of a place-details array (`[6]`), or null.
 *
 * @example
 *   placeNodeOf(JSON.parse(body)) // data[6]
 */
export function placeNodeOf(data: unknown): unknown[] | null {
  if (!Array.isArray(data)) return null;
  return isPlaceNode(data[6]) ? (data[6] as unknown[]) : null;
}

/**
 * A parsed place-details array → its record; `layout_changed` when it holds no place.
 *
 * @example
 *   placeFromData(JSON.parse(body), { query: 'x' }).place_id
 */
export function placeFromData(data: unknown, opts: NodeOptions = {}): PlaceRecord {
  return placeFromNode(requirePlaceNode(data), opts);
}

function requirePlaceNode(data: unknown): unknown[] {
  const node = placeNodeOf(data);
  if (!node) throw new SourceError('layout_changed', 'place details body holds no place at [6] (no name at [6][11])');
  return node;
}

/**
 * The place-details body (with or without the `)]}'` line) → one complete place record.
 *
 * @example
 *   parsePlaceBody(fs.readFileSync('place.json', 'utf8')).name // 'Kipriakon'
 */
export function parsePlaceBody(text: string, opts: NodeOptions = {}): PlaceRecord {
  return placeFromData(parseJsonBody(text, 'place details'), opts);
}

/**
 * A place page's HTML → its place node (the inline `APP_INITIALIZATION_STATE`'s place body's `[6]`).
 *
 * @example
 *   placeFromNode(placeNodeOfHtml(html))
 */
export function placeNodeOfHtml(html: string): unknown[] {
  if (typeof html !== 'string' || html.trim() === '') throw new SourceError('layout_changed', 'empty place page');
  const state = appInitState(html);
  if (!state) throw new SourceError('layout_changed', 'place page has no APP_INITIALIZATION_STATE literal');
  for (const body of placeBodyCandidates(state)) {
    const node = placeNodeOf(parseMaybeXssiJson(body));
    if (node) return node;
  }
  throw new SourceError('layout_changed', 'APP_INITIALIZATION_STATE holds no place body (looked at [3][6], [3][5] and the rest of [3])');
}

/**
 * A place page's HTML → its place record, from the inline `APP_INITIALIZATION_STATE`.
 *
 * @example
 *   extractPlaceFromHtml(html).name // 'Tipsy Sticks'
 */
export function extractPlaceFromHtml(html: string, opts: NodeOptions = {}): PlaceRecord {
  return placeFromNode(placeNodeOfHtml(html), opts);
}

/** True when a body is HTML rather than JSON (first non-blank character is `<`). */
export function looksLikeHtml(text: string): boolean {
  for (let i = 0; i < text.length && i < 4096; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) continue;
    return c === 60;
  }
  return false;
}

/** A place page (HTML) or place-details body (JSON) → its place node; `layout_changed` when none. */
export function placeNodeOfPage(body: string): unknown[] {
  return looksLikeHtml(body) ? placeNodeOfHtml(body) : requirePlaceNode(parseJsonBody(body, 'place details'));
}

/**
 * The `parse` of a place-details step: the body may be the page HTML or the JSON body. A record
 * short of what a place page shows is reported as a stub (./stub.ts).
 */
export function parsePlaceStep(response: FetchedResponse, opts: NodeOptions): ParseResult<PlaceRecord> {
  const node = placeNodeOfPage(response.body);
  const rec = placeFromNode(node, opts);
  const stubs = placeStubs([rec], 'page', [node]);
  return stubs.length ? { records: [rec], stubs } : { records: [rec] };
}
