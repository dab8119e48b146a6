/**
 * The hotel page (HTML) → one record per rate row of its room table. What is read:
 * - hotel id: `b_hotel_id: '<id>'` (or `hotel_id`) in the page's inline scripts, else
 *   `input[name="hotel_id"]`;
 * - name: `#hp_hotel_name` / `.pp-header__title`, else the JSON-LD `Hotel` name;
 * - position: `data-atlas-latlng="<lat>,<lng>"`; review score and count: JSON-LD `aggregateRating`;
 * - the room table `#hprt-table`: each `tr[data-block-id]` is one rate; the room name
 *   (`.hprt-roomtype-icon-link`) stands in the first row of its room and carries to the rows below;
 *   price `.bui-price-display__value` (or `.prco-valign-middle-helper`), struck-through price
 *   `.bui-price-display__original`; conditions `.hprt-conditions-bui` (free cancellation,
 *   breakfast included); guests from `.hprt-occupancy-occupancy-info` ("Max. people: 2") when the
 *   row states them.
 */
import { attr, first, parseHtml, select, textOf } from '../_kit/html.ts';
import { jsonLdOfType, ldNumber, ldText } from '../_kit/jsonld.ts';
import { amountOf, currencyOf } from '../_kit/money.ts';
import { priceRecord, ratelessOf, type HotelFields, type PriceRecord, type Stay } from './record.ts';

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

function hotelIdOf(html: string, doc: ReturnType<typeof parseHtml>): string | null {
  const m = /\bb_hotel_id\s*[:=]\s*['"]?(\d+)/.exec(html) ?? /["']hotel_id["']\s*:\s*['"]?(\d+)/.exec(html);
  return m ? m[1]! : attr(first(doc, 'input[name="hotel_id"]'), 'value');
}

/** True when the body is a hotel page with a room table. */
export function isHotelPage(html: string): boolean {
  return /id=["']hprt-table["']|data-block-id=/.test(html);
}

/** A hotel page that shows the hotel but no room table (no dates asked, or no rate for the stay). */
export function isRatelessHotelPage(html: string): boolean {
  return /\bb_hotel_id\b|id=["']hp_hotel_name["']/.test(html);
}

/** The hotel's own fields of a hotel page, and its document for the rows. */
function hotelOf(html: string, query: string, stay: Stay | null, url: string | null) {
  const doc = parseHtml(html);
  const ld = jsonLdOfType(html, 'Hotel', 'LodgingBusiness')[0] ?? null;
  const ll = attr(first(doc, '[data-atlas-latlng]'), 'data-atlas-latlng')?.split(',').map(Number) ?? [];
  const name = clean(textOf(first(doc, '#hp_hotel_name, .pp-header__title'))) || ldText(ld?.name);
  const rating = ld?.aggregateRating ?? null;
  const hotel: HotelFields = {
    query,
    hotel_id: hotelIdOf(html, doc),
    hotel_name: name || null,
    check_in_date: stay?.checkIn ?? null,
    check_out_date: stay?.checkOut ?? null,
    nights: stay ? Math.round((Date.parse(stay.checkOut) - Date.parse(stay.checkIn)) / 86_400_000) : null,
    review_score: ldNumber(rating?.ratingValue),
    reviews: ldNumber(rating?.reviewCount),
    latitude: ll.length === 2 && Number.isFinite(ll[0]) ? ll[0]! : null,
    longitude: ll.length === 2 && Number.isFinite(ll[1]) ? ll[1]! : null,
    url,
    default_stay: stay?.isDefault ?? false,
    stars: null,
    city: ldText(ld?.address?.addressLocality),
    address: ldText(ld?.address?.streetAddress),
  };
  return { doc, hotel };
}

/**
 * The one record of a hotel page with no room table: the hotel, null price fields, and why. A page
 * asked for a stay (or a saved one whose own links carry dates) has no rate for it; else no stay
 * was asked, which the site does not price.
 */
export function ratelessRecord(html: string, query: string, stay: Stay | null, url: string | null): PriceRecord {
  const { hotel } = hotelOf(html, query, stay, url);
  const dated = stay !== null || /[?&;]checkin=\d{4}-\d{2}-\d{2}/.test(html);
  return ratelessOf(hotel, stay?.adults ?? null, dated ? 'no_rate' : 'no_dates');
}

/** The rate records of a hotel page; `url` is the page asked for (null for a saved page). */
export function pageRecords(html: string, query: string, stay: Stay | null, url: string | null): PriceRecord[] {
  const { doc, hotel } = hotelOf(html, query, stay, url);
  let room: string | null = null;
  const out: PriceRecord[] = [];
  for (const row of select(doc, 'tr[data-block-id]')) {
    const roomHere = clean(textOf(first(row, '.hprt-roomtype-icon-link')));
    if (roomHere) room = roomHere;
    const priceText = clean(textOf(first(row, '.bui-price-display__value, .prco-valign-middle-helper'))) || null;
    const beforeText = clean(textOf(first(row, '.bui-price-display__original'))) || null;
    const cond = clean(textOf(first(row, '.hprt-conditions-bui, .hprt-conditions')));
    const occ = /(\d+)/.exec(attr(first(row, '.hprt-occupancy-occupancy-info'), 'data-title') ?? textOf(first(row, '.hprt-occupancy-occupancy-info')))?.[1];
    const price = amountOf(priceText);
    const before = amountOf(beforeText);
    const blockId = attr(row, 'data-block-id');
    out.push(priceRecord(hotel, {
      room_name: room,
      price,
      original_price: before !== null && price !== null && before > price ? before : null,
      currency: currencyOf(priceText),
      price_text: priceText,
      guests: stay?.adults ?? null,
      max_guests: occ ? Number(occ) : null,
      free_cancellation: cond ? /free cancellation/i.test(cond) : null,
      breakfast_included: cond ? /breakfast (?:is )?included|included breakfast|breakfast & dinner included|all-inclusive/i.test(cond) : null,
      room_id: blockId?.split('_')[0] ?? null,
      url: null,
      block_id: blockId,
      no_price_reason: null,
    }));
  }
  return out;
}
