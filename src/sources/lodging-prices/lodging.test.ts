/**
 * `/lodging-prices` on the real search captures (../shared/fixtures/booking: 50 raw `FullSearch`
 * result nodes, wrapped at test time as the site serves them: GraphQL answer and search page Apollo
 * store) field by field, and on the constructed hotel page; truncated, reordered and empty variants;
 * plan forms (links with and without dates, ids, the default stay, currency).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { SourceError } from '../_kit/errors.ts';
import { lodgingPricesRecord } from '../../contract/records/lodging-prices.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { plan } from './plan.ts';
import { graphqlAnswer, searchPage } from './served.ts';
import { defaultStay, readLodgingQuery } from './query.ts';

const file = fixturePath('booking', 'scrapfly_search_graphql_results_2026-03.json');
const skip = fixtureMissing(file);
const nodes = (): any[] => JSON.parse(readFileSync(file, 'utf8'));
const page = readFileSync(new URL('./constructed-hotel-page.html', import.meta.url), 'utf8');

const res = (body: string, url = 'https://www.booking.com/x') => ({ status: 200, url, headers: {}, body });
const NOW = Date.parse('2026-03-14T10:00:00Z');

test('50 real search results: one record per rate, field by field against the nodes', { skip }, () => {
  const raw = nodes();
  const recs = parseCapture(graphqlAnswer(raw));
  assert.equal(recs.length, raw.reduce((n, x) => n + x.blocks.length, 0));
  recs.forEach((r, i) => {
    const x = raw[i], b = x.blocks[0], bp = x.basicPropertyData, shown = x.priceDisplayInfoIrene.displayPrice.amountPerStay;
    assert.ok(Value.Check(lodgingPricesRecord, r), JSON.stringify([...Value.Errors(lodgingPricesRecord, r)].slice(0, 2)));
    assert.equal(r.hotel_id, String(bp.id));
    assert.equal(r.hotel_name, x.displayName.text);
    assert.equal(r.price, Math.round(b.finalPrice.amount * 100) / 100, 'rounded to the cent, as the page shows it');
    assert.equal(r.currency, b.finalPrice.currency);
    assert.equal(r.price_text, shown.amount);
    const before = x.priceDisplayInfoIrene.priceBeforeDiscount?.amountPerStay?.amountUnformatted;
    assert.equal(r.original_price, before > b.finalPrice.amount ? Math.round(before * 100) / 100 : null);
    assert.equal(r.room_id, String(b.blockId.roomId));
    assert.equal(r.room_name, x.matchingUnitConfigurations.unitConfigurations.find((u: any) => String(u.unitId) === b.blockId.roomId)?.name ?? x.matchingUnitConfigurations.commonConfiguration.name ?? x.matchingUnitConfigurations.commonConfiguration.unitTypeNames[0].translation);
    assert.equal(r.review_score, bp.reviewScore.score);
    assert.equal(r.reviews, bp.reviewScore.reviewCount);
    assert.equal(r.stars, bp.starRating?.value ?? null);
    assert.equal(r.city, bp.location.city.trim() || null);
    assert.equal(r.address, bp.location.address.trim() || null);
    assert.equal(r.breakfast_included, /breakfast/i.test(x.mealPlanIncluded?.text ?? ''));
    assert.equal(r.free_cancellation, b.freeCancellationUntil !== null || x.policies.showFreeCancellation);
    assert.equal(r.url, `https://www.booking.com/hotel/${bp.location.countryCode}/${bp.pageName}.html`);
    assert.equal(r.guests, b.blockId.occupancy, 'a saved answer: the occupancy the rate is priced for');
    assert.equal(r.check_in_date, null);
    assert.equal(r.latitude, null, 'search result nodes carry no position');
  });
  const first = recs[0]!;
  assert.deepEqual(
    { id: first.hotel_id, name: first.hotel_name, room: first.room_name, price: first.price, cur: first.currency, text: first.price_text, orig: first.original_price, score: first.review_score, n: first.reviews, stars: first.stars },
    { id: '1737972', name: 'Central Suites', room: 'Comfort One-Bedroom Apartment', price: 339.86, cur: 'USD', text: 'US$339.86', orig: 373.78, score: 8.7, n: 424, stars: 3 },
  );
  assert.equal(first.block_id, '173797201_385055947_2_0_0');
  assert.equal(recs.filter((r) => r.breakfast_included).length, 11);
});

test('the same results in a search page (Apollo store) and through parse with the stay', { skip }, () => {
  const raw = nodes();
  assert.deepEqual(parseCapture(searchPage(raw)), parseCapture(graphqlAnswer(raw)));
  const [step] = adapter.plan({ query: '1737972', params: {} });
  const out = adapter.parse(step!, res(searchPage(raw)), { query: '1737972', params: {} });
  assert.equal(out.records.length, 1);
  const r = out.records[0]!;
  assert.equal(r.hotel_id, '1737972');
  assert.equal(r.default_stay, true);
  assert.equal(r.nights, 1);
  assert.equal(r.guests, 2);
  assert.match(r.url!, /^https:\/\/www\.booking\.com\/hotel\/mt\/central-suites\.html\?checkin=\d{4}-\d{2}-\d{2}&checkout=/);
  // An id the results do not hold.
  const [other] = adapter.plan({ query: '42', params: {} });
  assert.throws(() => adapter.parse(other!, res(searchPage(raw)), { query: '42', params: {} }), (e: unknown) => e instanceof SourceError && e.type === 'not_found');
});

test('constructed hotel page: one record per rate row, room names carried, conditions read', () => {
  const q = 'https://www.booking.com/hotel/gb/constructed-example.en-gb.html?checkin=2026-05-01&checkout=2026-05-03&group_adults=2&selected_currency=EUR';
  const [step] = plan({ query: q, params: {} }, NOW);
  const recs = adapter.parse(step!, res(page, step!.url), { query: q, params: {} }).records;
  assert.equal(recs.length, 3);
  for (const r of recs) assert.ok(Value.Check(lodgingPricesRecord, r));
  const [a, b, c] = recs;
  assert.deepEqual(
    { room: a!.room_name, price: a!.price, orig: a!.original_price, cur: a!.currency, text: a!.price_text, fc: a!.free_cancellation, bf: a!.breakfast_included, max: a!.max_guests },
    { room: 'Deluxe Double Room', price: 312, orig: 360, cur: 'EUR', text: '€ 312', fc: true, bf: true, max: 2 },
  );
  assert.deepEqual({ room: b!.room_name, price: b!.price, fc: b!.free_cancellation, bf: b!.breakfast_included }, { room: 'Deluxe Double Room', price: 1250.5, fc: false, bf: false });
  assert.deepEqual({ room: c!.room_name, price: c!.price, fc: c!.free_cancellation, max: c!.max_guests, room_id: c!.room_id }, { room: 'Single Room with Shared Bathroom', price: 140, fc: true, max: 1, room_id: '999000102' });
  for (const r of recs) {
    assert.equal(r.hotel_id, '9990001');
    assert.equal(r.hotel_name, 'Constructed Example Hotel');
    assert.equal(r.check_in_date, '2026-05-01');
    assert.equal(r.check_out_date, '2026-05-03');
    assert.equal(r.nights, 2);
    assert.equal(r.guests, 2);
    assert.equal(r.default_stay, false);
    assert.equal(r.review_score, 8.6);
    assert.equal(r.reviews, 1204);
    assert.equal(r.latitude, 51.5131);
    assert.equal(r.longitude, -0.1915);
    assert.equal(r.url, step!.url);
  }
});

test('truncated, reordered and empty answers', { skip }, () => {
  const raw = nodes();
  const [step] = adapter.plan({ query: '1737972', params: {} });
  const ctx = { query: 'q', params: {} };
  const layout = (e: unknown) => e instanceof SourceError && e.type === 'layout_changed';
  const body = graphqlAnswer(raw);
  assert.throws(() => adapter.parse({ ...step!, state: { ...step!.state, hotelId: null } }, res(body.slice(0, body.length / 2)), ctx), layout);
  for (const empty of ['', '{}', '<html><body>nothing</body></html>']) assert.throws(() => adapter.parse(step!, res(empty), ctx), layout, empty);
  // A GraphQL error answer is the kit's typed error, not a crash.
  assert.throws(() => adapter.parse(step!, res('{"errors":[{"message":"boom"}]}'), ctx), (e: unknown) => e instanceof SourceError);
  // Sold out: the search answers with no results; the hotel page shows the hotel but no table (the
  // hotel, no price, and why: ./no-rate.test.ts).
  assert.deepEqual(adapter.parse(step!, res(graphqlAnswer([])), ctx).records, []);
  const [hs] = plan({ query: 'https://www.booking.com/hotel/gb/x.html', params: {} }, NOW);
  assert.deepEqual(adapter.parse(hs!, res('<html><script>b_hotel_id: \'9\'</script><h2 id="hp_hotel_name">X</h2></html>'), ctx).records.map((r) => [r.hotel_id, r.price, r.no_price_reason]), [['9', null, 'no_rate']]);
  assert.throws(() => adapter.parse(hs!, res('<html><body>changed</body></html>'), ctx), layout);
  // Truncated hotel page: the rows that came.
  const cut = page.slice(0, page.indexOf('999000102_91471573') - 20);
  assert.equal(parseCapture(cut).length, 2);
  // Reordered: the same rates, reversed.
  const ids = parseCapture(graphqlAnswer(raw)).map((r) => r.hotel_id);
  assert.deepEqual(parseCapture(graphqlAnswer([...raw].reverse())).map((r) => r.hotel_id), ids.reverse());
  // Missing branches: null fields.
  const bare = raw.slice(0, 1).map((x) => ({ ...x, priceDisplayInfoIrene: null, matchingUnitConfigurations: null, displayName: null, basicPropertyData: { id: 5 } }));
  const [r] = parseCapture(graphqlAnswer(bare));
  assert.equal(r!.hotel_id, '5');
  assert.equal(r!.price_text, null);
  assert.equal(r!.room_name, null);
  assert.equal(r!.hotel_name, null);
  assert.equal(r!.url, null);
  assert.equal(r!.price, Math.round(raw[0].blocks[0].finalPrice.amount * 100) / 100);
});

test('plan: hotel links with and without dates, date triples, language, currency, ids; the default stay', () => {
  assert.deepEqual(defaultStay(NOW), { checkIn: '2026-03-15', checkOut: '2026-03-16', adults: 2, children: 0, rooms: 1, isDefault: true });
  const bare = plan({ query: 'https://www.booking.com/hotel/mt/central-suites.html', params: {} }, NOW)[0]!;
  assert.equal(bare.kind, 'hotel');
  assert.equal(bare.url, 'https://www.booking.com/hotel/mt/central-suites.html?checkin=2026-03-15&checkout=2026-03-16&group_adults=2&group_children=0&no_rooms=1');
  assert.equal((bare.state as any).stay.isDefault, true);
  const dated = plan({ query: 'https://www.booking.com/hotel/gb/gardencourthotel.en-gb.html?label=x&sid=y&checkin=2026-05-01&checkout=2026-05-04&group_adults=3&group_children=1&no_rooms=2&selected_currency=gbp', params: {} }, NOW)[0]!;
  assert.equal(dated.url, 'https://www.booking.com/hotel/gb/gardencourthotel.html?checkin=2026-05-01&checkout=2026-05-04&group_adults=3&group_children=1&no_rooms=2&selected_currency=GBP&lang=en-gb');
  const triple = readLodgingQuery('https://www.booking.com/hotel/fr/x.html?checkin_year=2026&checkin_month=7&checkin_monthday=9&checkout_year=2026&checkout_month=7&checkout_monthday=12', NOW);
  assert.equal(triple.stay.checkIn, '2026-07-09');
  assert.equal(triple.stay.checkOut, '2026-07-12');
  assert.equal(triple.stay.isDefault, false);
  const id = plan({ query: '1737972', params: {} }, NOW)[0]!;
  assert.equal(id.kind, 'search');
  assert.equal(id.url, 'https://www.booking.com/searchresults.html?dest_id=1737972&dest_type=hotel&checkin=2026-03-15&checkout=2026-03-16&group_adults=2&group_children=0&no_rooms=1');
  for (const bad of ['', 'central suites', 'https://www.example.com/hotel/mt/x.html', 'https://www.booking.com/searchresults.html?ss=malta', 'https://www.booking.com/hotel/mt/x.html?checkin=2026-05-04&checkout=2026-05-01', 'https://www.booking.com/hotel/mt/x.html?checkin=2026-05-04', 'https://www.booking.com/hotel/mt/x.html?group_adults=0']) {
    assert.ok(adapter.checkQuery!(bad), bad);
  }
  assert.equal(adapter.checkQuery!('https://www.booking.com/hotel/mt/central-suites.html'), undefined);
});
