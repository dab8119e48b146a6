/**
 * `AtySUc` answers → hotel records. The answer is accepted as served (`)]}'`, chunk lengths and the
 * `wrb.fr` envelope) or as its decoded payload. Hotel entries are found by shape, wherever they sit
 * (the payload mixes arrays and `{"<extension id>": ...}` objects): a list of 20 or more with
 * `[1]` name, `[2][0]` `[lat, lng]` and an id at `[9]` (map feature id) or `[20]` (entity key).
 * Inside an entry: `[3]` `["N-star hotel", N]`, `[5]`/`[12]` photos, `[6][1]` `[.., .., .., currency,
 * [[y,m,d],[y,m,d],nights]]`, `[6][2][1]` per-night price `[text, text, exact, null, rounded]`, the
 * last one-item text list of `[6][2]` the stay's total, `[6][2][2]` sellers (a hotel's own answer),
 * `[7]` `[[rating, reviews], [[[score, share, count]..]]]`, `[10]` amenity pairs, `[25]` numeric id,
 * `[2][17]` check-in/out times, `[2][29][2]` web site, `[2][1]`/`[2][2]` address/phone, `[11][0]` description.
 * Sponsored hotels (the answer's first block, another layout) are read by `sponsored.ts`.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { isBatchexecute, rpcPayload } from '../_kit/batchexecute.ts';
import { SourceError } from '../_kit/errors.ts';
import { arr, at, int, num, str } from '../_kit/positional.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { amountOf } from '../_kit/money.ts';
import { isAdNode } from '../_kit/values.ts';
import { AMENITY_NAMES } from './amenities.ts';
import { isSponsoredEntry, sponsoredOf } from './sponsored.ts';
import { RPC_ID, VARIANTS, searchStep, type HotelsState } from './plan.ts';
import { readHotelsQuery } from './query.ts';
import type { HotelRecord, HotelsSearchParams } from './record.ts';

/**
 * The decoded payload of a body: the `AtySUc` frame of a served answer, or the body itself when it
 * is already the decoded JSON. Undefined when it is neither.
 */
export function hotelsPayload(body: string): unknown {
  if (isBatchexecute(body)) {
    const p = rpcPayload(body, RPC_ID) ?? rpcPayload(body);
    return p === null ? undefined : p;
  }
  return parseMaybeXssiJson(body);
}

/** An entry's frame: `[2][0]` `[lat, lng]` and an id at `[9]` or `[20]` (with a name at `[1]`, a hotel entry). */
function isHotelFrame(n: unknown): n is unknown[] {
  if (!Array.isArray(n) || n.length < 20) return false;
  const ll = at(n, 2, 0);
  if (!Array.isArray(ll) || ll.length !== 2 || typeof ll[0] !== 'number' || typeof ll[1] !== 'number') return false;
  return (typeof n[9] === 'string' && n[9] !== '') || (typeof n[20] === 'string' && n[20] !== '');
}

function isHotelEntry(n: unknown): n is unknown[] {
  return isHotelFrame(n) && typeof n[1] === 'string' && n[1] !== '';
}

/**
 * A hotel entry by its ids alone (`[9]` a map feature id, `[20]` an entity key), whatever else
 * reads: one whose frame does not (coordinates moved, say) is still a hotel, not a block to search
 * for results (its nearby hotels would be read as the answer's).
 */
function hasHotelIds(n: unknown): boolean {
  if (!Array.isArray(n) || n.length < 20) return false;
  return (typeof n[9] === 'string' && /^0x[0-9a-f]+:0x[0-9a-f]+$/i.test(n[9])) || (typeof n[20] === 'string' && /^C[A-Za-z0-9_-]{20,}={0,2}$/.test(n[20]));
}

/** A hotel entry of an answer: an organic result, or a paid placement of the sponsored block. */
export interface ListedEntry {
  sponsored: boolean;
  entry: unknown[];
}

/**
 * Every hotel entry of a payload, organic and sponsored, in answer order (the sponsored block
 * first), and how many entries have a hotel's frame or ids but no name or coordinates: a hotel that
 * does not read, whose insides (nearby hotels, other offers) are not results either, so the walk
 * does not go into it, nor into a block flagged as an ad.
 */
export function listedEntries(payload: unknown): { entries: ListedEntry[]; unread: number } {
  const out: ListedEntry[] = [];
  let unread = 0;
  const walk = (n: unknown, depth: number) => {
    if (depth > 40) return;
    if (isHotelEntry(n)) {
      out.push({ sponsored: false, entry: n });
      return;
    }
    if (isSponsoredEntry(n)) {
      out.push({ sponsored: true, entry: n });
      return;
    }
    if (isHotelFrame(n) || hasHotelIds(n)) {
      unread++;
      return;
    }
    // A block flagged as paid placement holds no result of the answer's.
    if (isAdNode(n)) return;
    if (Array.isArray(n)) for (const c of n) walk(c, depth + 1);
    else if (n && typeof n === 'object') for (const c of Object.values(n)) walk(c, depth + 1);
  };
  walk(payload, 0);
  return { entries: out, unread };
}

/** Every organic hotel entry of a payload, in answer order. */
export function hotelEntries(payload: unknown): unknown[][] {
  return listedEntries(payload).entries.filter((x) => !x.sponsored).map((x) => x.entry);
}

/** The knowledge-graph id inside an entity key (a base64url protobuf holding `/g/...` or `/m/...`). */
export function kgmidOf(entityKey: string | null): string | null {
  if (!entityKey) return null;
  let raw: string;
  try {
    raw = Buffer.from(entityKey, 'base64url').toString('latin1');
  } catch {
    return null;
  }
  const m = /\/[gm]\/[\x21-\x7e]+?(?=[^\x21-\x7e]|$)/.exec(raw);
  return m ? m[0] : null;
}

function day(v: unknown): string | null {
  if (!Array.isArray(v) || v.length < 3 || !v.slice(0, 3).every((x) => Number.isInteger(x))) return null;
  const [y, m, d] = v as number[];
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const t = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== iso ? null : iso;
}

function photosOf(e: unknown[]): string[] {
  const out: string[] = [];
  const walk = (n: unknown, depth: number) => {
    if (typeof n === 'string') {
      if (/^https?:\/\//.test(n) && !out.includes(n)) out.push(n);
    } else if (Array.isArray(n) && depth < 12) for (const c of n) walk(c, depth + 1);
  };
  walk(e[12], 0);
  walk(e[5], 0);
  return out;
}

function amenitiesOf(e: unknown[]): string[] {
  const ids: number[] = [];
  const walk = (n: unknown, depth: number) => {
    if (!Array.isArray(n) || depth > 10) return;
    if (n.length >= 2 && typeof n[0] === 'boolean' && Number.isInteger(n[1])) {
      if (n[0] && !ids.includes(n[1] as number)) ids.push(n[1] as number);
      return;
    }
    for (const c of n) walk(c, depth + 1);
  };
  walk(e[10], 0);
  return ids.map((id) => AMENITY_NAMES[id]).filter((s): s is string => s !== undefined);
}

/** The histogram, all rows or none: a row out of shape means the block moved, and half of it would mislead. */
function perScore(e: unknown[]): Record<string, number> | null {
  const rows = arr(e, 7, 1, 0);
  if (!rows || !rows.length) return null;
  const out: Record<string, number> = {};
  for (const r of rows) {
    const s = at(r, 0);
    const c = at(r, 2);
    if (!Number.isInteger(s) || (s as number) < 1 || (s as number) > 5 || !Number.isInteger(c) || (c as number) < 0 || String(s) in out) return null;
    out[String(s)] = c as number;
  }
  return out;
}

/** The stay's total as shown: the last one-item text list of the price block. */
function totalText(block: unknown[] | null): string | null {
  if (!block) return null;
  for (let i = block.length - 1; i >= 0; i--) {
    const v = block[i];
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
  }
  return null;
}

/**
 * One hotel entry → record.
 * `next_page_cursor` is null here; the runner sets it on served records (decision 23).
 * @example hotelOf(entry, 'hotels in nyc').name // '31 Street Broadway Hotel'
 */
export function hotelOf(e: unknown[], query: string): HotelRecord {
  const priceBlock = arr(e, 6, 2);
  const priceText = str(e, 6, 2, 1, 0);
  const exact = num(e, 6, 2, 1, 2);
  const rounded = num(e, 6, 2, 1, 4);
  const dates = arr(e, 6, 1, 4) ?? arr(e, 6, 2, 8);
  const currency = str(e, 6, 1, 3) ?? str(e, 6, 2, 15);
  const entityKey = str(e, 20);
  const fid = str(e, 9);
  const ci = str(e, 2, 17, 0);
  const co = str(e, 2, 17, 1);
  const tt = totalText(priceBlock);
  const stars = int(e, 3, 1);
  return {
    query,
    name: str(e, 1),
    hotel_id: entityKey,
    latitude: num(e, 2, 0, 0),
    longitude: num(e, 2, 0, 1),
    price: exact ?? rounded ?? amountOf(priceText),
    total_price: amountOf(tt),
    currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null,
    price_text: priceText,
    rating: num(e, 7, 0, 0),
    reviews: int(e, 7, 0, 1),
    stars: stars !== null && stars >= 1 && stars <= 5 ? stars : null,
    provider: str(e, 6, 2, 2, 0, 0, 0),
    check_in_date: day(at(dates, 0)),
    check_out_date: day(at(dates, 1)),
    photos: photosOf(e),
    amenities: amenitiesOf(e),
    link: entityKey ? `https://www.google.com/travel/hotels/entity/${entityKey}` : null,
    next_page_cursor: null,
    engine_id: fid && /^0x[0-9a-f]+:0x[0-9a-f]+$/i.test(fid) ? fid.toLowerCase() : null,
    kgmid: kgmidOf(entityKey),
    site_hotel_id: str(e, 25),
    stars_text: str(e, 3, 0),
    reviews_per_score: perScore(e),
    check_in_time: ci !== null && co !== null ? ci : null,
    check_out_time: ci !== null && co !== null ? co : null,
    site: str(e, 2, 29, 2),
    address: str(e, 2, 1, 0, 0, 0),
    phone: str(e, 2, 2, 0),
    description: str(e, 11, 0),
    sponsored: false,
  };
}

/**
 * The hotels of one body; throws `layout_changed` when the body is no hotel answer at all.
 * An answer with no hotel entry but the RPC's frame is an empty result (no records).
 * `kind` says what was asked: a search keeps its sponsored hotels; a hotel's own answer also carries
 * other hotels' ads, which are not the hotel asked for. Unknown (a saved file): a hotel's own answer
 * is one organic entry naming a seller or an address, which a result list never does.
 */
export function hotelsOfBody(body: string, query: string, kind?: 'search' | 'hotel'): HotelRecord[] {
  const payload = hotelsPayload(body);
  if (payload === undefined || payload === null || typeof payload !== 'object') {
    throw new SourceError('layout_changed', 'hotel answer is neither an AtySUc batchexecute answer nor its decoded JSON payload');
  }
  const { entries: listed, unread } = listedEntries(payload);
  const organic = listed.filter((x) => !x.sponsored).map((x) => hotelOf(x.entry, query));
  // Ads alone beside hotels that do not read are no answer: the hotels asked for are the unread ones.
  if (organic.length === 0 && unread > 0) throw new SourceError('layout_changed', `the hotel answer's ${unread} hotel entries do not read (no name or coordinates)`);
  const own = kind === 'hotel' || (kind === undefined && organic.length === 1 && (organic[0]!.provider !== null || organic[0]!.address !== null));
  if (own) return organic;
  // An ad states its price as text only; the organic entries of the same answer say in which currency.
  const answerCurrency = organic.find((r) => r.currency)?.currency ?? null;
  const organicNames = new Set(organic.map((r) => r.name?.toLowerCase()));
  let i = 0;
  const out: HotelRecord[] = [];
  for (const x of listed) {
    if (!x.sponsored) {
      out.push(organic[i++]!);
      continue;
    }
    const r = sponsoredOf(x.entry, query, answerCurrency, kgmidOf);
    // A paid hotel that is also an organic result is one hotel: its organic record has every field.
    if (!organicNames.has(r.name?.toLowerCase()) && !out.some((o) => o.sponsored && o.name === r.name)) out.push(r);
  }
  return out;
}

/** @example parse(step, res, { query: 'hotels in rome', params: { limit: 50 } }).records */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<HotelsSearchParams>): ParseResult<HotelRecord> {
  if (step.kind !== 'search' && step.kind !== 'hotel') throw new SourceError('layout_changed', `hotels-search: unknown step kind ${step.kind}`);
  const state = (step.state ?? { variant: 0, seen: [] }) as HotelsState;
  const more = step.kind === 'search' && state.variant + 1 < VARIANTS.length;
  const all = hotelsOfBody(res.body, ctx.query, step.kind);
  // The first answer must hold hotels; a later variant (say, 1-star hotels) may hold none.
  if (all.length === 0 && state.variant === 0) throw new SourceError('layout_changed', 'the hotel answer holds no hotel entry (name, [lat, lng] and an id)');
  const seen = new Set(state.seen);
  const records = all.filter((r) => {
    const key = r.hotel_id ?? r.engine_id ?? r.name ?? '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const limit = ctx.params?.limit ?? 100;
  if (!more || seen.size >= limit) return { records, next: [] };
  return { records, next: [searchStep(readHotelsQuery(ctx.query), { variant: state.variant + 1, seen: [...seen] })] };
}
