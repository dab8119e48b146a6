/**
 * Search results (`SearchResultProperty` nodes of the `FullSearch` GraphQL answer, served as
 * `{"data": {"searchQueries": {"search": {"results": [...]}}}}` or inside the search page's Apollo
 * store `<script data-capla-store-data="apollo">`) → one record per offered rate (`blocks[]`).
 *
 * In a node: `basicPropertyData` {id, pageName, location {address, city, countryCode},
 * reviewScore {score, reviewCount}, starRating {value}}, `displayName.text`, `blocks[]`
 * {blockId {roomId, occupancy, mealPlanId}, finalPrice {amount, currency}, originalPrice (in the
 * hotel's own currency, not a strike-through), freeCancellationUntil}, `matchingUnitConfigurations`
 * (unit names by `unitId` = room id), `priceDisplayInfoIrene` (the shown price: `displayPrice` and
 * the struck-through `priceBeforeDiscount`, texts and numbers), `mealPlanIncluded`, `policies`.
 */
import { findValues, resolveRefs, type ApolloCache } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { toMinorUnit } from '../_kit/money.ts';
import { hotelUrl } from './plan.ts';
import { priceRecord, ratelessOf, type HotelFields, type PriceRecord, type Stay } from './record.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

/**
 * A result node: hotel data and its rates (`blocks`). An answer for no stay lists its hotels with no
 * `blocks` (null or absent), so a node typed `SearchResultProperty` is one whatever its blocks.
 */
function isResultProperty(v: unknown): v is Json {
  const o = obj(v);
  if (!o || obj(o.basicPropertyData) === null) return false;
  return Array.isArray(o.blocks) || (o.__typename === 'SearchResultProperty' && o.blocks == null);
}

/** The rates of a result node (none for a hotel shown without any). */
export const blocksOf = (p: Json): Json[] => (Array.isArray(p.blocks) ? p.blocks.filter((x: unknown) => obj(x)) : []);

/** The result nodes of a GraphQL answer, an Apollo store (refs resolved) or any JSON holding them. */
export function resultNodes(json: unknown): Json[] {
  const root = obj(json)?.ROOT_QUERY ? resolveRefs(json as ApolloCache, (json as ApolloCache).ROOT_QUERY) : json;
  return findValues(root, isResultProperty);
}

function roomName(p: Json, roomId: string | null): string | null {
  const muc = obj(p.matchingUnitConfigurations);
  const units: Json[] = Array.isArray(muc?.unitConfigurations) ? muc.unitConfigurations : [];
  const u = units.find((x) => obj(x) && roomId !== null && String(x.unitId) === roomId);
  const common = obj(muc?.commonConfiguration);
  return text(u?.name) ?? text(common?.name) ?? text(u?.unitTypeNames?.[0]?.translation) ?? text(common?.unitTypeNames?.[0]?.translation);
}

/**
 * One result node → its rate records, or, for a hotel the answer shows with no rate, one record of
 * the hotel with null price fields and `no_price_reason`. `stay` is the stay the page was asked for
 * (null when unknown, as for a saved answer read by `trawl parse`); `dated` whether the answer was
 * for a stay at all (an answer for no stay prices nothing: its hotels are `no_dates`).
 */
export function resultRecords(p: Json, query: string, stay: Stay | null, dated = true): PriceRecord[] {
  const b = obj(p.basicPropertyData) ?? {};
  const loc = obj(b.location) ?? {};
  const shown = obj(p.priceDisplayInfoIrene);
  const display = obj(shown?.displayPrice?.amountPerStay);
  const before = obj(shown?.priceBeforeDiscount?.amountPerStay);
  const cc = text(loc.countryCode)?.toLowerCase() ?? null;
  const slug = text(b.pageName);
  const breakfast = /breakfast/i.test(text(obj(p.mealPlanIncluded)?.text) ?? '');
  const nights = stay ? Math.round((Date.parse(stay.checkOut) - Date.parse(stay.checkIn)) / 86_400_000) : null;
  const hotel: HotelFields = {
    query,
    hotel_id: text(b.id),
    hotel_name: text(obj(p.displayName)?.text),
    check_in_date: stay?.checkIn ?? null,
    check_out_date: stay?.checkOut ?? null,
    nights,
    review_score: num(b.reviewScore?.score),
    reviews: num(b.reviewScore?.reviewCount),
    latitude: num(loc.latitude),
    longitude: num(loc.longitude),
    url: cc && slug ? (stay ? hotelUrl(cc, slug, stay, null) : `https://www.booking.com/hotel/${cc}/${slug}.html`) : null,
    default_stay: stay?.isDefault ?? false,
    stars: num(b.starRating?.value),
    city: text(loc.city),
    address: text(loc.address),
  };
  const blocks = blocksOf(p);
  // A hotel showing a price has rates: without them the rates moved, which is no hotel without a rate.
  if (!blocks.length && obj(shown?.displayPrice)) throw new SourceError('layout_changed', `hotel ${hotel.hotel_id ?? '?'} shows a price but no rates (blocks)`);
  if (!blocks.length) return [ratelessOf(hotel, stay?.adults ?? null, !dated ? 'no_dates' : obj(p.soldOutInfo)?.isSoldOut === true ? 'sold_out' : 'no_rate')];
  return blocks.map((blk) => {
    const fin = obj(blk.finalPrice);
    const price = num(fin?.amount);
    const currency = text(fin?.currency);
    // The shown texts belong to the block whose price they show.
    const isShown = price !== null && num(display?.amountUnformatted) !== null && Math.abs(num(display.amountUnformatted)! - price) < 0.01 && text(display.currency) === currency;
    const beforeAmount = isShown && text(before?.currency) === currency ? num(before?.amountUnformatted) : null;
    const roomId = text(blk.blockId?.roomId);
    const id = obj(blk.blockId);
    return priceRecord(hotel, {
      room_name: roomName(p, roomId),
      price: toMinorUnit(price, currency),
      original_price: beforeAmount !== null && price !== null && beforeAmount > price ? toMinorUnit(beforeAmount, currency) : null,
      currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null,
      price_text: isShown ? text(display.amount) : null,
      guests: stay?.adults ?? num(id?.occupancy),
      max_guests: null,
      free_cancellation: blk.freeCancellationUntil != null || p.policies?.showFreeCancellation === true,
      breakfast_included: breakfast,
      url: cc && slug && stay ? hotelUrl(cc, slug, stay, currency) : null,
      room_id: roomId,
      block_id: id ? [id.roomId, id.policyGroupId, id.occupancy, id.mealPlanId, id.packageId].every((x) => x !== undefined && x !== null) ? `${id.roomId}_${id.policyGroupId}_${id.occupancy}_${id.mealPlanId}_${id.packageId}` : null : null,
      no_price_reason: null,
    });
  });
}
