/**
 * Sponsored hotels of `/hotels-search`: the paid block of a search answer is read (another layout
 * from the organic list) and its hotels are records with `sponsored: true`, not dropped. The real
 * ads are the nine of the hotel answer in ../shared/fixtures/google-hotels, put into the search
 * answer's own (empty) sponsored block at test time: 18 organic + 9 sponsored = 27 priced hotels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { hotelsSearchRecord } from '../../contract/records/hotels-search.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { hotelsOfBody } from './parse.ts';

const dir = (f: string) => fixturePath('google-hotels', f);
const skip = fixtureMissing(dir('detail_response_sample.json'));
const real = (f: string): any => JSON.parse(readFileSync(dir(f), 'utf8'));
const constructed = readFileSync(new URL('./constructed-search-sponsored.json', import.meta.url), 'utf8');
const res = (body: string) => ({ status: 200, url: 'https://www.google.com/_/TravelFrontendUi/data/batchexecute', headers: {}, body });
const step = (kind: 'search' | 'hotel') => ({ kind, url: '', expect: 'text' as const, state: { variant: 0, seen: [] } });

/** The search answer with the hotel answer's real sponsored block in its own empty one. */
function searchWithAds(): string {
  const search = real('search_response_nyc.json') as any;
  const ads = real('detail_response_sample.json')[0][0][0][1][10][1]['300000000'];
  const block = search[0][0][0][1][1];
  assert.equal(JSON.stringify(block), '[71,{"300000000":[]}]', 'the search answer has an empty sponsored block');
  block[1]['300000000'] = ads;
  return JSON.stringify(search);
}

test('a search answer with its sponsored block: 18 organic + 9 sponsored = 27 priced hotels, ads first', { skip }, () => {
  const recs = adapter.parse(step('search'), res(searchWithAds()), { query: 'hotels in new york', params: { limit: 100 } }).records;
  assert.equal(recs.length, 27);
  assert.equal(recs.filter((r) => r.price !== null).length, 27);
  assert.deepEqual(recs.map((r) => r.sponsored), [...Array(9).fill(true), ...Array(18).fill(false)]);
  for (const r of recs) assert.ok(Value.Check(hotelsSearchRecord, r), JSON.stringify([...Value.Errors(hotelsSearchRecord, r)].slice(0, 3)));
  const hilton = recs.find((r) => r.name === 'Hilton Garden Inn New York/Central Park South-Midtown West')!;
  assert.equal(hilton.price, 196.46);
  assert.equal(hilton.price_text, '$196');
  assert.equal(hilton.currency, 'USD');
  assert.equal(hilton.rating, 3.7);
  assert.equal(hilton.reviews, 3603);
  assert.equal(hilton.stars, 4);
  assert.equal(hilton.provider, 'Expedia.com');
  assert.equal(hilton.latitude, 40.7645);
  assert.equal(hilton.longitude, -73.98311500000001);
  assert.equal(hilton.check_in_date, '2026-04-27');
  assert.equal(hilton.check_out_date, '2026-04-28');
  assert.match(hilton.photos[0]!, /^https:\/\/lh6\.googleusercontent\.com\/proxy\//);
  // An ad carries no entity key, so no link, ids or amenity names it cannot back.
  assert.equal(hilton.hotel_id, null);
  assert.equal(hilton.link, null);
  assert.deepEqual(hilton.amenities, []);
  const named = Object.fromEntries(recs.filter((r) => r.sponsored).map((r) => [r.name, [r.price, r.stars, r.reviews]]));
  assert.deepEqual(named['JW Marriott Essex House New York'], [854, 5, 2440]);
  assert.deepEqual(named['The Times Square EDITION'], [566.5, 5, 1716]);
  // The organic hotels are unchanged by the ads beside them.
  assert.deepEqual(recs.slice(9), parseCapture(readFileSync(dir('search_response_nyc.json'), 'utf8')).map((r) => ({ ...r, query: 'hotels in new york' })));
});

test("a hotel's own answer keeps only that hotel: the other hotels' ads on its page are not it", { skip }, () => {
  const body = readFileSync(dir('detail_response_sample.json'), 'utf8');
  assert.deepEqual(hotelsOfBody(body, '', 'hotel').map((r) => r.name), ['The Manhattan at Times Square Hotel']);
  assert.deepEqual(parseCapture(body).map((r) => r.name), ['The Manhattan at Times Square Hotel']);
  // Read as a search, the same answer's ads are hotels (its block comes twice: each ad once).
  const asSearch = hotelsOfBody(body, '', 'search');
  assert.equal(asSearch.length, 10);
  assert.equal(asSearch.filter((r) => r.sponsored).length, 9);
});

test('constructed sponsored block: ISO code in the text, a bare sign, an ad that is also an organic result', () => {
  const recs = parseCapture(constructed);
  assert.deepEqual(recs.map((r) => [r.name, r.sponsored]), [
    ['Hotel Sultania', true],
    ['Pera Palace Hotel', true],
    ['Sirkeci Mansion', false],
    ['Hotel Amira Istanbul', false],
  ]);
  const [sultania, pera] = recs;
  assert.equal(sultania!.currency, 'EUR');
  assert.equal(sultania!.price, 97.6);
  assert.equal(sultania!.price_text, 'EUR 98');
  assert.equal(pera!.currency, 'EUR', "a bare sign takes the answer's currency");
  assert.equal(pera!.provider, 'Pera Palace Hotel', 'the hotel itself sells');
  assert.equal(pera!.stars, 5);
  // An exact number that disagrees with the shown price (a slot that moved) is not believed.
  const payload = JSON.parse(constructed);
  payload[0][0][0][1][1][1]['300000000'][2][0][20][3] = 4410;
  assert.equal(parseCapture(JSON.stringify(payload))[0]!.price, 98);
});
