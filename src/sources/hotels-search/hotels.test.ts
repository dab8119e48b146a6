/**
 * `/hotels-search` on the real `AtySUc` captures (../shared/fixtures/google-hotels, read at test
 * time), checked field by field against the upstream parser's golden outputs, as served (rebuilt
 * `batchexecute` envelope) and decoded; plus truncated, reordered and empty variants, the plan's
 * link forms and the variant chain past one answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { rpcPayload } from '../_kit/batchexecute.ts';
import { SourceError } from '../_kit/errors.ts';
import { hotelsSearchRecord } from '../../contract/records/hotels-search.ts';
import { AMENITY_NAMES } from './amenities.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { hotelEntries, kgmidOf } from './parse.ts';
import { innerRequest, VARIANTS } from './plan.ts';
import { readHotelsQuery } from './query.ts';
import type { Step } from '../_kit/adapter.ts';
import type { HotelRecord } from './record.ts';

const dir = (f: string) => fixturePath('google-hotels', f);
const skip = fixtureMissing(dir('search_response_nyc.json'));
const read = (f: string) => readFileSync(dir(f), 'utf8');

/** The answer as the site serves it: anti-XSSI line, chunk length, wrb.fr frame, bookkeeping frames. */
function served(decoded: string): string {
  const frame = JSON.stringify([['wrb.fr', 'AtySUc', decoded, null, null, null, 'generic'], ['di', 120], ['af.httprm', 119, '-1', 8]]);
  const tail = JSON.stringify([['e', 4, null, null, frame.length + 40]]);
  return `)]}'\n\n${frame.length}\n${frame}\n${tail.length}\n${tail}\n`;
}

/** The fields both golden outputs carry under the upstream parser's names. */
function sameAsGolden(r: HotelRecord, g: any) {
  assert.equal(r.name, g.name);
  assert.equal(r.hotel_id, g.entity_key);
  assert.equal(r.engine_id, g.fid);
  assert.equal(r.kgmid, g.kgmid);
  assert.equal(r.site_hotel_id, g.google_hotel_id);
  assert.equal(r.latitude, g.latitude);
  assert.equal(r.longitude, g.longitude);
  assert.equal(Math.round(r.price!), g.display_price, r.name!);
}

const res = (body: string) => ({ status: 200, url: 'https://www.google.com/_/TravelFrontendUi/data/batchexecute', headers: {}, body });
const ctx = (query: string, limit = 100) => ({ query, params: { limit } });

test('search capture: 18 hotels, every field against the golden output', { skip }, () => {
  const golden = JSON.parse(read('parse_golden_search.json')) as any[];
  const recs = parseCapture(read('search_response_nyc.json'));
  assert.equal(recs.length, 18);
  assert.equal(golden.length, 18);
  recs.forEach((r, i) => {
    const g = golden[i];
    assert.ok(Value.Check(hotelsSearchRecord, r), JSON.stringify([...Value.Errors(hotelsSearchRecord, r)].slice(0, 3)));
    sameAsGolden(r, g);
    assert.equal(r.price_text, `$${g.display_price}`);
    assert.equal(r.currency, g.currency);
    assert.equal(r.check_in_date, g.rate_dates[0]);
    assert.equal(r.check_out_date, g.rate_dates[1]);
    assert.equal(r.stars_text, g.star_class_label);
    assert.deepEqual(r.reviews_per_score, g.rating_histogram?.bucket_counts ?? null);
    assert.equal(r.check_out_time, g.check_out_time);
    assert.deepEqual(r.photos.slice(0, 10), g.image_urls);
    assert.equal(r.link, `https://www.google.com/travel/hotels/entity/${g.entity_key}`);
    assert.equal(r.provider, null, 'a result list names no seller');
    assert.equal(r.total_price, null, 'no stay total in this answer');
  });
  // Named values of the first hotel.
  const first = recs[0]!;
  assert.equal(first.name, '31 Street Broadway Hotel');
  assert.equal(first.price, 41.99);
  assert.equal(first.price_text, '$42');
  assert.equal(first.stars, 2);
  assert.deepEqual(first.amenities.sort(), ['Beach access', 'Kid-friendly']);
  assert.equal(first.site, 'https://31streetbroadwayhotel.com/');
  assert.equal(first.kgmid, '/g/11pwh57g55');
});

test('search capture as served (batchexecute envelope) gives the same records as its decoded payload', { skip }, () => {
  const decoded = read('search_response_nyc.json');
  const body = served(decoded);
  assert.deepEqual(rpcPayload(body, 'AtySUc'), JSON.parse(decoded));
  assert.deepEqual(parseCapture(body), parseCapture(decoded));
  // Also as one JSON array (no chunk lengths).
  const plain = `)]}'\n${JSON.stringify([['wrb.fr', 'AtySUc', decoded, null, null, null, 'generic']])}`;
  assert.equal(parseCapture(plain).length, 18);
});

test("detail capture: the hotel's own answer, field by field against the golden output", { skip }, () => {
  const g = JSON.parse(read('parse_golden_detail.json'));
  const [r, ...rest] = parseCapture(served(read('detail_response_sample.json')));
  assert.equal(rest.length, 0);
  assert.ok(r && Value.Check(hotelsSearchRecord, r));
  assert.equal(r.name, g.name);
  assert.equal(r.address, g.address);
  assert.equal(r.phone, g.phone);
  assert.equal(r.description, g.description);
  sameAsGolden(r, g);
  assert.equal(r.rating, g.overall_rating);
  assert.equal(r.reviews, g.review_count);
  assert.equal(r.stars, g.star_class);
  assert.deepEqual(r.reviews_per_score, g.rating_histogram.bucket_counts);
  assert.deepEqual(new Set(r.amenities), new Set((g.amenities_available as number[]).map((id) => AMENITY_NAMES[id])));
  assert.equal(r.check_in_time, g.check_in_time);
  // Named values the golden output does not carry.
  assert.equal(r.provider, 'Expedia.com');
  assert.equal(r.price, 137.91);
  assert.equal(r.price_text, '$138');
  assert.equal(r.currency, 'USD');
  assert.equal(r.check_in_date, '2026-04-27');
  assert.equal(r.check_out_date, '2026-04-28');
});

test("detail capture whose hotel has lost its name: layout_changed, never the hotels nested in its entry or the ads", { skip }, () => {
  const payload = JSON.parse(read('detail_response_sample.json'));
  const own = hotelEntries(payload)[0]!;
  own[1] = '';
  const body = JSON.stringify(payload);
  const refused = (e: unknown) => e instanceof SourceError && e.type === 'layout_changed' && /1 hotel entries do not read/.test(e.message);
  assert.throws(() => parseCapture(body), refused);
  assert.throws(() => adapter.parse({ kind: 'hotel', url: '', expect: 'text', state: { variant: 0, seen: [] } }, res(body), ctx('x')), refused);
  // Its coordinates wrapped one level deeper: still the hotel by its ids, refused the same way.
  const moved = JSON.parse(read('detail_response_sample.json'));
  const entry = hotelEntries(moved)[0]!;
  entry[2] = [[(entry[2] as unknown[])[0]], ...(entry[2] as unknown[]).slice(1)];
  assert.throws(() => parseCapture(JSON.stringify(moved)), refused);
});

test('detail capture with a block flagged as an ad beside the hotel: the hotel alone', { skip }, () => {
  const payload = JSON.parse(read('detail_response_sample.json'));
  const before = parseCapture(JSON.stringify(payload));
  const ad = { ...JSON.parse(JSON.stringify(payload[1][7])), isSponsored: true };
  (ad['441552390'] as unknown[])[1] = 'Another Hotel';
  (payload[1] as unknown[]).splice(7, 0, ad);
  assert.deepEqual(parseCapture(JSON.stringify(payload)), before);
});

test('truncated, reordered and empty answers', { skip }, () => {
  const decoded = read('search_response_nyc.json');
  // Truncated: not JSON any more, in either form.
  for (const body of [decoded.slice(0, decoded.length / 2), served(decoded).slice(0, 5000)]) {
    assert.throws(() => adapter.parse({ kind: 'search', url: '', expect: 'text', state: { variant: 0, seen: [] } }, res(body), ctx('x')), (e: unknown) => e instanceof SourceError && e.type === 'layout_changed');
  }
  // Empty: no body, an empty frame, an empty payload.
  for (const body of ['', ")]}'\n", '[]', served('[]'), served('{}')]) {
    assert.throws(() => adapter.parse({ kind: 'search', url: '', expect: 'text', state: { variant: 0, seen: [] } }, res(body), ctx('x')), (e: unknown) => e instanceof SourceError && e.type === 'layout_changed', body);
  }
  // Reordered: the hotel blocks in reverse order give the same hotels, reversed.
  const payload = JSON.parse(decoded);
  const root = payload[0][0][0][1] as unknown[];
  const hotels = root.filter((x) => hotelEntries(x).length === 1);
  const others = root.filter((x) => hotelEntries(x).length !== 1);
  payload[0][0][0][1] = [...hotels.reverse(), ...others];
  const names = parseCapture(JSON.stringify(payload)).map((r) => r.name);
  assert.deepEqual(names, parseCapture(decoded).map((r) => r.name).reverse());
  // A missing branch is a null field, the rest stays.
  const e = hotelEntries(payload)[0]!;
  e[7] = null; e[6] = 'changed'; e[3] = [];
  const r = parseCapture(JSON.stringify(payload))[0]!;
  assert.equal(r.rating, null);
  assert.equal(r.reviews, null);
  assert.equal(r.price, null);
  assert.equal(r.currency, null);
  assert.equal(r.stars, null);
  assert.equal(r.check_in_date, null);
  assert.ok(r.name && r.latitude !== null && r.hotel_id);
});

test('query forms: result links, place and hotel links, text; dates, guests, currency, language', () => {
  const a = readHotelsQuery('https://www.google.com/travel/search?q=hotels%20in%20istanbul&qs=MihDaGtJ&hl=de&gl=TR&curr=eur&checkin=2026-11-14&checkout=2026-11-18&adults=3&children=1');
  assert.deepEqual(a, { text: 'hotels in istanbul', entityKey: null, checkIn: '2026-11-14', checkOut: '2026-11-18', adults: 3, children: 1, currency: 'EUR', language: 'de', region: 'tr' });
  const inner = innerRequest(a, 0) as any[];
  assert.equal(inner[0], 'hotels in istanbul');
  assert.deepEqual(inner[1][1], [[[3], [3], [3], [2, 12]], 1], 'party: three adults, one child');
  assert.deepEqual(inner[1][2][1][1], [[2026, 11, 14], [2026, 11, 18], 4]);
  assert.equal(inner[1][4][0][6], 'EUR');
  assert.deepEqual(inner[2], [1, null, null, null, null, null, 13, null, 0]);

  const b = readHotelsQuery('https://www.google.com/travel/hotels/New%20York?check_in_date=2026-04-27&check_out_date=2026-04-28');
  assert.equal(b.text, 'New York hotels');
  assert.equal(b.checkIn, '2026-04-27');
  assert.equal(b.currency, 'USD');
  const bi = innerRequest(b, 0) as any[];
  assert.equal(bi[1][1], null, 'two adults: no party block');

  const c = readHotelsQuery('https://www.google.com/travel/hotels/entity/ChkIooCAqvyy0fDgARoML2cvMWhoZ18zbWdzEAE?q=manhattan&curr=GBP');
  assert.equal(c.entityKey, 'ChkIooCAqvyy0fDgARoML2cvMWhoZ18zbWdzEAE');
  assert.equal((innerRequest(c, 0) as any[])[2][5], c.entityKey);
  const [hs] = adapter.plan({ query: 'https://www.google.com/travel/hotels/entity/ChkIooCAqvyy0fDgARoML2cvMWhoZ18zbWdzEAE', params: { limit: 5 } });
  assert.equal(hs!.kind, 'hotel');

  const d = readHotelsQuery('hotels in istanbul');
  assert.equal(d.text, 'hotels in istanbul');
  assert.equal((innerRequest(d, 0) as any[])[1][2], null, 'no dates: the site picks them');

  const [step] = adapter.plan({ query: 'https://www.google.com/travel/search?q=rome&hl=it&gl=it', params: { limit: 20 } });
  assert.equal(step!.method, 'POST');
  assert.match(step!.url, /^https:\/\/www\.google\.com\/_\/TravelFrontendUi\/data\/batchexecute\?rpcids=AtySUc&hl=it&gl=it&rt=c$/);
  const freq = JSON.parse(new URLSearchParams(step!.body!).get('f.req')!);
  assert.equal(freq[0][0][0], 'AtySUc');
  assert.equal(JSON.parse(freq[0][0][1])[0], 'rome');

  for (const bad of ['', 'https://www.google.com/maps/search/hotels', 'https://www.google.com/travel/search?q=x&checkin=2026-02-30&checkout=2026-03-02', 'https://www.google.com/travel/search?q=x&checkin=2026-03-05&checkout=2026-03-02', 'https://www.google.com/travel/search?q=x&curr=euro', 'https://www.google.com/travel/search?q=x&adults=0']) {
    assert.ok(adapter.checkQuery!(bad), bad);
  }
  assert.equal(adapter.checkQuery!('hotels in rome'), undefined);
});

test('past one answer: the next variants are asked until limit distinct hotels, none twice', { skip }, () => {
  const body = served(read('search_response_nyc.json'));
  const [s0] = adapter.plan(ctx('hotels in nyc', 30));
  const a = adapter.parse(s0!, res(body), ctx('hotels in nyc', 30));
  assert.equal(a.records.length, 18);
  assert.equal(a.records[0]!.next_page_cursor, null, 'the runner signs cursors, not the parser');
  assert.equal(a.next!.length, 1);
  const s1 = a.next![0]! as Step;
  assert.equal(JSON.parse(JSON.parse(new URLSearchParams(s1.body!).get('f.req')!)[0][0][1])[1][4][0][4], VARIANTS[1]!.sort);
  // The same hotels again: nothing new, the chain goes on.
  const b = adapter.parse(s1, res(body), ctx('hotels in nyc', 30));
  assert.equal(b.records.length, 0);
  assert.equal(b.next!.length, 1);
  // A later variant with no hotel at all is no error.
  const c = adapter.parse(b.next![0]!, res(served('[[null]]')), ctx('hotels in nyc', 30));
  assert.equal(c.records.length, 0);
  // limit reached: no next step.
  const d = adapter.parse(s0!, res(body), ctx('hotels in nyc', 10));
  assert.equal(d.next!.length, 0);
  // The last variant: nothing follows.
  const last = { ...s0!, state: { variant: VARIANTS.length - 1, seen: [] } };
  const e = adapter.parse(last, res(body), ctx('hotels in nyc', 100));
  assert.equal(e.records.length, 18);
  assert.equal(e.next!.length, 0);
  // A hotel's own answer has no variants.
  const [hs] = adapter.plan(ctx('https://www.google.com/travel/hotels/entity/ChoIxPKIzoX4zIfLARoNL2cvMTFwd2g1N2c1NRAB'));
  assert.equal(adapter.parse(hs!, res(body), ctx('x')).next!.length, 0);
});

test('helpers: entity keys', () => {
  assert.equal(kgmidOf('ChoIxPKIzoX4zIfLARoNL2cvMTFwd2g1N2c1NRAB'), '/g/11pwh57g55');
  assert.equal(kgmidOf('!!'), null);
});
