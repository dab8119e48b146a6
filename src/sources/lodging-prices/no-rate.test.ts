/**
 * `/lodging-prices` for hotels an answer shows with no rate: an answer for no stay (the
 * constructed dateless search answer, read as `trawl parse` reads it), a sold-out hotel, a hotel
 * page without its room table. Each hotel is one record with null price fields and a typed
 * `no_price_reason`, never an empty success, and is not billed (units count rates only).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { SourceError } from '../_kit/errors.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { lodgingPricesRecord } from '../../contract/records/lodging-prices.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { plan } from './plan.ts';
import { graphqlAnswer, searchPage } from './served.ts';

const dateless = readFileSync(new URL('./constructed-search-no-dates.json', import.meta.url), 'utf8');
const hotels = (): any[] => JSON.parse(dateless).data.searchQueries.search.results;
const res = (body: string, url = 'https://www.booking.com/x') => ({ status: 200, url, headers: {}, body });
const NOW = Date.parse('2026-03-14T10:00:00Z');
const PRICE_FIELDS = ['room_name', 'price', 'original_price', 'currency', 'price_text', 'room_id', 'block_id', 'free_cancellation', 'breakfast_included'] as const;

test('a constructed search answer for no stay: every hotel, null price, no_dates (was [])', () => {
  const recs = parseCapture(dateless);
  assert.deepEqual(recs.map((r) => [r.hotel_id, r.hotel_name, r.city, r.stars, r.review_score, r.reviews]), [
    ['9990011', 'Constructed Harbour View Hotel', 'Valletta', 4, 8.4, 312],
    ['9990012', 'Constructed Old Town Rooms', 'Valletta', null, 9.1, 87],
    ['9990013', 'Constructed Bay Apartments', 'Sliema', 3, 7.6, 1040],
  ]);
  for (const r of recs) {
    assert.ok(Value.Check(lodgingPricesRecord, r), JSON.stringify([...Value.Errors(lodgingPricesRecord, r)].slice(0, 2)));
    assert.equal(r.no_price_reason, 'no_dates');
    for (const f of PRICE_FIELDS) assert.equal(r[f], null, f);
    assert.equal(r.check_in_date, null);
    assert.match(r.url!, /^https:\/\/www\.booking\.com\/hotel\/mt\/constructed-[a-z-]+\.html$/);
  }
  // Not billed: a hotel with no rate is no price.
  assert.equal(adapter.units!(recs), 0);
  // Blocks empty or absent read the same as null.
  for (const blocks of [[], undefined]) {
    const again = parseCapture(graphqlAnswer(hotels().map((h) => ({ ...h, blocks }))));
    assert.deepEqual(again.map((r) => [r.hotel_id, r.no_price_reason]), recs.map((r) => [r.hotel_id, 'no_dates']));
  }
});

test('the reason follows the answer: dates dropped by the site, sold out, no rate for the stay', () => {
  const [step] = adapter.plan({ query: '9990012', params: {} });
  const ctx = { query: '9990012', params: {} };
  // The stay was asked, the page's search was for no dates (the site dropped them): no_dates.
  const [a] = adapter.parse(step!, res(searchPage(hotels(), 'search({"input":{"destId":"9990012"}})')), ctx).records;
  assert.deepEqual([a!.hotel_id, a!.price, a!.no_price_reason, a!.default_stay, a!.nights, a!.guests], ['9990012', null, 'no_dates', true, 1, 2]);
  // A search for the stay: sold out when the site says so, else no rate.
  const datedKey = 'search({"input":{"dates":{"checkin":"2026-03-15","checkout":"2026-03-16"}}})';
  const sold = hotels().map((h) => ({ ...h, soldOutInfo: { ...h.soldOutInfo, isSoldOut: true } }));
  assert.equal(adapter.parse(step!, res(searchPage(sold, datedKey)), ctx).records[0]!.no_price_reason, 'sold_out');
  assert.equal(adapter.parse(step!, res(searchPage(hotels(), datedKey)), ctx).records[0]!.no_price_reason, 'no_rate');
  // A GraphQL answer (no arguments in it) asked for a stay: no_rate.
  assert.equal(adapter.parse(step!, res(graphqlAnswer(hotels())), ctx).records[0]!.no_price_reason, 'no_rate');
  assert.equal(adapter.units!(adapter.parse(step!, res(graphqlAnswer(hotels())), ctx).records), 0);
});

const bookingCapture = fixturePath('booking', 'scrapfly_search_graphql_results_2026-03.json');

test('real results beside a hotel with no rate: the answer was dated, the rates billed, the hotel not', { skip: fixtureMissing(bookingCapture) }, () => {
  const real = JSON.parse(readFileSync(bookingCapture, 'utf8')).slice(0, 5);
  const recs = parseCapture(graphqlAnswer([...real, hotels()[0]]));
  assert.equal(recs.length, 6);
  assert.ok(recs.slice(0, 5).every((r) => r.price !== null && r.no_price_reason === null));
  assert.deepEqual([recs[5]!.hotel_id, recs[5]!.price, recs[5]!.no_price_reason], ['9990011', null, 'no_rate']);
  assert.equal(adapter.units!(recs), 5);
  // A real hotel whose rates moved (blocks renamed) still shows its price: refused, not a hotel without a rate.
  const moved = real.map((x: any) => { const { blocks, ...rest } = x; return { ...rest, rates: blocks }; });
  assert.throws(() => parseCapture(graphqlAnswer(moved)), (e: unknown) => e instanceof SourceError && e.type === 'layout_changed');
});

test('a hotel page without its room table: the hotel, no price; no_dates saved without a stay, no_rate asked for one', () => {
  const page = readFileSync(new URL('./constructed-hotel-page.html', import.meta.url), 'utf8');
  // The same page with its room table taken out (what the site shows for no dates or no availability).
  const bare = page.replace(/<table[^]*?id=["']hprt-table["'][^]*?<\/table>/, '').replace(/[?&;]checkin=[^"'&\s]*/g, '');
  assert.ok(!/data-block-id=/.test(bare), 'the room table is gone');
  const [saved] = parseCapture(bare);
  assert.deepEqual([saved!.hotel_id, saved!.hotel_name, saved!.latitude, saved!.price, saved!.no_price_reason], ['9990001', 'Constructed Example Hotel', 51.5131, null, 'no_dates']);
  assert.ok(Value.Check(lodgingPricesRecord, saved));
  const q = 'https://www.booking.com/hotel/gb/constructed-example.html?checkin=2026-05-01&checkout=2026-05-03';
  const [step] = plan({ query: q, params: {} }, NOW);
  const [asked] = adapter.parse(step!, res(bare, step!.url), { query: q, params: {} }).records;
  assert.deepEqual([asked!.price, asked!.no_price_reason, asked!.check_in_date, asked!.url], [null, 'no_rate', '2026-05-01', step!.url]);
});
