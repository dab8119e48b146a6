/**
 * Suggest answer → suggestion records. No real capture exists; the shape comes from public
 * descriptions of the endpoint (see docs/sources-maps-more.md) and is checked on a constructed
 * sample only. Two wrappings are accepted: `)]}'` + JSON, and the `{"c":0,"d":")]}'\n<json>"}`
 * envelope (optionally followed by a comment tail and a second object). In the JSON,
 * `[0][0]` echoes the query and `[0][1]` lists rows; each row is mostly nulls with one block
 * (searched, not assumed at index 22): `[0][0]` text, `[1][0]` name, `[2][0]` address line,
 * `[11][2..3]` lat/lng, `[13][0]` place: `[0]` feature id, `[3][2..3]` lat/lng.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { arr, at, num, str } from '../_kit/positional.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { literalEnd } from '../_kit/embedded.ts';
import { cidFromEngineId, isEngineId } from '../_maps/ids.ts';
import type { AutocompleteParams, SuggestionRecord } from './record.ts';

/**
 * The suggestion JSON of a body in either wrapping; undefined when it is neither.
 * @example suggestJson(`)]}'\n[["pi",[]]]`) // [['pi', []]]
 */
export function suggestJson(body: string): unknown {
  let text = body.trimStart();
  if (text.startsWith('{')) {
    const end = literalEnd(text, 0);
    if (end < 0) return undefined;
    try {
      const env = JSON.parse(text.slice(0, end)) as { d?: unknown };
      if (typeof env?.d !== 'string') return undefined;
      text = env.d;
    } catch {
      return undefined;
    }
  }
  return parseMaybeXssiJson(text);
}

const PLACE_ID = /^(?:ChIJ|GhIJ|EhI|Ei|Ej)[A-Za-z0-9_-]{14,}$/;

function blockOf(row: unknown): unknown[] | null {
  if (!Array.isArray(row)) return null;
  for (const el of row) if (Array.isArray(el) && typeof at(el, 0, 0) === 'string') return el;
  return null;
}

function findPlaceId(v: unknown, depth = 0): string | null {
  if (typeof v === 'string') return PLACE_ID.test(v) ? v : null;
  if (!Array.isArray(v) || depth > 4) return null;
  for (const x of v) {
    const f = findPlaceId(x, depth + 1);
    if (f) return f;
  }
  return null;
}

/** Both coordinates of a `[_, _, lat, lng]` block, or none: half a pair is a block that does not read. */
function coordsOf(v: unknown): [number, number] | null {
  const lat = num(v, 2);
  const lng = num(v, 3);
  return lat !== null && lng !== null ? [lat, lng] : null;
}

/**
 * One suggestion row → record, or null when the row has no text. A row is a place when it carries
 * a place block (`[13]`) or a coordinates block (`[11]`), even one that does not read. Its name is
 * the start of the suggestion text (the text is the name, then the address); a name that is not is
 * a slot that moved, so name and address are then left null rather than read from the wrong slots;
 * a name slot holding the text (the two swapped) makes the row unread (null), and one that is there
 * but does not read leaves the name null.
 * @example rowToSuggestion(row, 'pizza')?.type // 'place'
 */
export function rowToSuggestion(row: unknown, query: string): SuggestionRecord | null {
  const b = blockOf(row);
  const text = str(b, 0, 0)?.trim();
  if (!b || !text) return null;
  const place = arr(b, 13, 0);
  const fid = str(place, 0);
  const engineId = fid && isEngineId(fid) ? fid.toLowerCase() : null;
  const coords = coordsOf(arr(b, 11)) ?? coordsOf(arr(place, 3));
  // A coordinates pair in another slot is a place row whose slots moved: still a place, its position unread.
  const isPlace = engineId !== null || place !== null || arr(b, 11) !== null || b.slice(3).some((x) => coordsOf(x) !== null);
  const own = str(b, 1, 0);
  // The text inside the name: the name and text slots swapped, the text is not the suggestion's.
  if (own !== null && own.trim() !== text && own.includes(text)) return null;
  // A name slot that is there but does not read is an unknown name, not the whole text.
  const name = own === null ? (b[1] == null ? text : null) : text.startsWith(own.trim()) ? own : null;
  const secondary = name === null ? null : str(b, 2, 0);
  return {
    query,
    suggestion: text,
    type: isPlace ? 'place' : 'query',
    name: isPlace ? name : null,
    // "See locations" and the like are hints on query rows, never addresses.
    address: isPlace && secondary && secondary !== name ? secondary : null,
    engine_id: engineId,
    place_id: findPlaceId(place),
    cid: cidFromEngineId(engineId),
    latitude: isPlace && coords ? coords[0] : null,
    longitude: isPlace && coords ? coords[1] : null,
  };
}

/**
 * The suggestions of one answer; null when the body is not a suggest answer at all.
 * @example suggestionsOf(body, 'pizza')?.length
 */
export function suggestionsOf(body: string, query: string): SuggestionRecord[] | null {
  const json = suggestJson(body);
  const head = arr(json, 0);
  if (!head || typeof head[0] !== 'string') return null;
  const rows = arr(head, 1) ?? [];
  return rows.map((r) => rowToSuggestion(r, query)).filter((r): r is SuggestionRecord => r !== null);
}

/** @example parse(step, res, { query: 'pizza', params: {} }).records */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<AutocompleteParams>): ParseResult<SuggestionRecord> {
  if (step.kind !== 'suggest') throw new SourceError('layout_changed', `maps-autocomplete: unknown step kind ${step.kind}`);
  const out = suggestionsOf(res.body, ctx.query);
  if (out === null) throw new SourceError('layout_changed', 'suggest answer is not [[query echo, rows]] (bare or in the {"d": ...} envelope)');
  return { records: out };
}
