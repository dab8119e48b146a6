/**
 * `/lodging-prices` requests (both plain GETs of the site's pages):
 * - a hotel link → the hotel page for the stay,
 *   `https://www.booking.com/hotel/<cc>/<slug>.html?checkin=..&checkout=..&group_adults=..&group_children=..&no_rooms=..[&selected_currency=..][&lang=..]`:
 *   its room table (`#hprt-table`, one `tr[data-block-id]` per rate) is read;
 * - a hotel id → the search results page for that one hotel,
 *   `https://www.booking.com/searchresults.html?dest_id=<id>&dest_type=hotel&checkin=..`: its Apollo
 *   store (`<script data-capla-store-data="apollo">`, the `FullSearch` GraphQL results) is read.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { readLodgingQuery, type LodgingQuery } from './query.ts';
import type { Stay } from './record.ts';

export const SITE = 'https://www.booking.com';

/** The stay's query string, as the site's own links write it. */
export function stayQuery(stay: Stay, currency: string | null, lang: string | null = null): string {
  const qs = new URLSearchParams({
    checkin: stay.checkIn, checkout: stay.checkOut, group_adults: String(stay.adults), group_children: String(stay.children), no_rooms: String(stay.rooms),
  });
  if (currency) qs.set('selected_currency', currency);
  if (lang) qs.set('lang', lang);
  return qs.toString();
}

/** The page of a hotel for a stay (also the records' `url`). */
export function hotelUrl(cc: string, slug: string, stay: Stay, currency: string | null, lang: string | null = null): string {
  return `${SITE}/hotel/${cc}/${slug}.html?${stayQuery(stay, currency, lang)}`;
}

/** The step of a query. */
export function lodgingStep(q: LodgingQuery): Step {
  const state = { stay: q.stay, hotelId: q.kind === 'id' ? q.id : null };
  if (q.kind === 'link') return { kind: 'hotel', url: hotelUrl(q.cc, q.slug, q.stay, q.currency, q.lang), expect: 'html', state };
  return { kind: 'search', url: `${SITE}/searchresults.html?dest_id=${q.id}&dest_type=hotel&${stayQuery(q.stay, q.currency)}`, expect: 'html', state };
}

/** @example plan({ query: 'https://www.booking.com/hotel/mt/central-suites.html', params: {} })[0].kind // 'hotel' */
export function plan(ctx: QueryContext, now = Date.now()): Step[] {
  return [lodgingStep(readLodgingQuery(ctx.query, now))];
}
