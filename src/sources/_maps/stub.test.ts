import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeStubWhy, placeStubs, POPULAR_TIMES_REVIEWS } from './stub.ts';
import { parsePlaceBody, parsePlaceStep, placeNodeOf } from './place-parse.ts';
import { parseSearchBody } from './search-body.ts';
import { constructedPlacePage, type ConstructedPlace } from './constructed-search.ts';
import type { PlaceRecord } from './record.ts';
import { EN, fixture, missing, SEARCH } from './test-support.ts';

const week = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => ({ day, ranges: '9 AM–5 PM' }));
const page = (p: Partial<ConstructedPlace>) => parsePlaceStep({ status: 200, url: 'https://www.google.com/maps?cid=1', headers: {}, body: constructedPlacePage({ i: 1, lat: 1, lng: 2, name: 'Place 1', reviews: 10, category: 'Dentist', hours: week, ...p }) }, {});

test('a whole constructed place page is no stub; one day of hours or no place id is', () => {
  assert.equal(page({}).stubs, undefined);
  assert.deepEqual(page({ hours: week.slice(0, 1) }).stubs, [{ key: 'Place 1', why: 'hours of 1 day of 7' }]);
  assert.equal(page({ hours: null }).stubs, undefined, 'a place that shows no hours is not short of them');
  const body = constructedPlacePage({ i: 1, lat: 1, lng: 2, name: 'Place 1', hours: week }).replace(/ChIJsimulated00000001/g, '');
  assert.deepEqual(parsePlaceStep({ status: 200, url: '', headers: {}, body }, {}).stubs, [{ key: 'Place 1', why: 'no place_id' }]);
});

test('popular times: an empty block, or none for a busy place of a charted kind, on a page only', () => {
  const base = { name: 'Cafe', place_id: 'ChIJx', engine_id: '0x1:0x2', working_hours: null, popular_times: null, business_status: 'OPERATIONAL', category: 'Coffee shop', subtypes: 'Coffee shop', reviews: POPULAR_TIMES_REVIEWS } as unknown as PlaceRecord;
  assert.match(placeStubWhy(base, 'page') ?? '', /no popular times \(charted for a Coffee shop with 1000 reviews\)/);
  assert.equal(placeStubWhy(base, 'listing'), null, 'listings never carry popular times');
  assert.equal(placeStubWhy({ ...base, reviews: POPULAR_TIMES_REVIEWS - 1 }, 'page'), null);
  assert.equal(placeStubWhy({ ...base, category: 'Dentist', subtypes: 'Dentist' }, 'page'), null);
  assert.equal(placeStubWhy({ ...base, business_status: 'CLOSED_TEMPORARILY' }, 'page'), null);
  assert.equal(placeStubWhy({ ...base, reviews: 5 }, 'page', [] as unknown[]), null);
  const node: unknown[] = [];
  node[84] = [null, 1];
  assert.equal(placeStubWhy({ ...base, reviews: 5 }, 'page', node), 'an empty popular times block');
});

test('real captures read whole: the place page and every search listing', { skip: missing(EN) || missing(SEARCH) }, () => {
  const en = fixture(EN);
  const search = fixture(SEARCH);
  const data = JSON.parse(en.replace(/^\)\]\}'\n/, ''));
  assert.equal(placeStubWhy(parsePlaceBody(en), 'page', placeNodeOf(data)!), null);
  const listings = parseSearchBody(search, {});
  assert.equal(listings.length, 20);
  assert.deepEqual(placeStubs(listings, 'listing'), []);
  // The same place cut as a stub would be: its hours to today's, its place id gone.
  const cut = { ...parsePlaceBody(en), place_id: null, working_hours: { Monday: '12–11 PM' } };
  assert.equal(placeStubWhy(cut, 'page', placeNodeOf(data)!), 'no place_id; hours of 1 day of 7');
});
