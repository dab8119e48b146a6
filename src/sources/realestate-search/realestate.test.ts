/**
 * `/realestate-search` on the real captures (../shared/fixtures/zillow, read at test time): 387 raw
 * `listResults` items and one property node, wrapped at test time the way the site serves them (the
 * search API's JSON, a search page's and a property page's `__NEXT_DATA__`), checked field by field;
 * truncated, reordered and empty variants; plan forms (text, links, mainFilter, skip).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { SourceError } from '../_kit/errors.ts';
import { amountOf } from '../_kit/money.ts';
import { realestateSearchRecord } from '../../contract/records/realestate-search.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { lotSqft } from './listing.ts';
import type { ViewState } from './plan.ts';

const listFile = fixturePath('zillow', 'scrapfly_search_listResults_2024-02.json');
const propFile = fixturePath('zillow', 'scrapfly_property_gdp_2023-06.json');
const skip = fixtureMissing(listFile);
// The dump has one stray Latin-1 byte: read as UTF-8 with replacement, as the site's bytes would be.
const items = (): any[] => JSON.parse(readFileSync(listFile, 'utf8'));

const SF = { west: -122.55, east: -122.35, south: 37.7, north: 37.82 };
/** The search API's answer around list items. */
export const apiAnswer = (list: unknown[], map: unknown[] = [], total = list.length, totalPages = 1) =>
  JSON.stringify({ user: {}, cat1: { searchResults: { listResults: list, mapResults: map }, searchList: { totalPages, totalResultCount: total } }, categoryTotals: { cat1: { totalResultCount: total } } });
/** A search page with the same answer in `__NEXT_DATA__`. */
const searchPage = (list: unknown[]) => `<!DOCTYPE html><html><head><title>SF</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { searchPageState: { queryState: { usersSearchTerm: 'San Francisco, CA', mapBounds: SF, regionSelection: [{ regionId: 20330, regionType: 6 }] }, cat1: { searchResults: { listResults: list, mapResults: [] }, searchList: { totalPages: 1, totalResultCount: list.length } } } } } })}</script></body></html>`;
const res = (body: string) => ({ status: 200, url: 'https://www.zillow.com/', headers: {}, body });

test('387 raw list results: every record field by field against its node', { skip }, () => {
  const raw = items();
  const recs = parseCapture(apiAnswer(raw));
  assert.equal(recs.length, 387);
  recs.forEach((r, i) => {
    const x = raw[i];
    const hi = x.hdpData?.homeInfo ?? {};
    assert.ok(Value.Check(realestateSearchRecord, r), JSON.stringify([...Value.Errors(realestateSearchRecord, r)].slice(0, 2)));
    assert.equal(r.property_id, String(x.zpid ?? x.plid ?? x.buildingId));
    assert.equal(r.status, hi.homeStatus ?? x.statusType);
    assert.equal(r.address, x.address);
    assert.equal(r.street, hi.streetAddress ?? null);
    assert.equal(r.city, hi.city ?? null);
    assert.equal(r.state, hi.state ?? null);
    assert.equal(r.postal_code, hi.zipcode ?? null);
    assert.equal(r.latitude, x.latLong?.latitude ?? hi.latitude ?? null);
    assert.equal(r.longitude, x.latLong?.longitude ?? hi.longitude ?? null);
    assert.equal(r.price, hi.price ?? amountOf(x.price));
    assert.equal(r.currency, r.price === null ? null : 'USD');
    assert.equal(r.price_text, x.price ?? null);
    assert.equal(r.beds, x.beds ?? hi.bedrooms ?? x.minBeds ?? null);
    assert.equal(r.baths, x.baths ?? hi.bathrooms ?? x.minBaths ?? null);
    assert.equal(r.area_sqft, x.area ?? hi.livingArea ?? x.minArea ?? null);
    assert.equal(r.lot_area_sqft, lotSqft(hi.lotAreaValue, hi.lotAreaUnit));
    assert.equal(r.home_type, hi.homeType ?? null);
    assert.equal(r.estimate, hi.zestimate ?? null);
    assert.equal(r.rent_estimate, hi.rentZestimate ?? null);
    assert.equal(r.days_on_site, hi.daysOnZillow >= 0 ? hi.daysOnZillow : null);
    assert.equal(r.photo, x.imgSrc ?? null);
    assert.equal(r.url, `https://www.zillow.com${x.detailUrl}`);
    assert.equal(r.status_text, x.statusText ?? null);
    assert.equal(r.broker_name, x.brokerName ?? null);
  });
  // Named values.
  const first = recs[0]!;
  assert.deepEqual(
    { id: first.property_id, street: first.street, zip: first.postal_code, price: first.price, text: first.price_text, type: first.home_type, lot: first.lot_area_sqft, days: first.days_on_site, lat: first.latitude },
    { id: '2052939967', street: '755-757 Sutter St', zip: '94109', price: 7800000, text: '$7,800,000', type: 'MULTI_FAMILY', lot: 5568, days: null, lat: 37.78844 },
  );
  const acres = recs.find((r, i) => raw[i].hdpData?.homeInfo?.lotAreaUnit === 'acres')!;
  const acreNode = raw[recs.indexOf(acres)].hdpData.homeInfo;
  assert.equal(acres.lot_area_sqft, Math.round(acreNode.lotAreaValue * 43560));
  // The six nodes without hdpData still give id, price (from its text), place and link.
  const bare = recs.filter((_, i) => !raw[i].hdpData);
  assert.equal(bare.length, 6);
  for (const r of bare) assert.ok(r.property_id && r.url && r.price !== null && r.home_type === null, JSON.stringify(r));
  // The node with the stray byte parses (its text carries U+FFFD).
  assert.equal(recs.filter((r) => JSON.stringify(r).includes('\ufffd')).length, 1);
});

test('the same results in a search page (__NEXT_DATA__) and as map pins', { skip }, () => {
  const raw = items();
  const fromApi = parseCapture(apiAnswer(raw));
  assert.deepEqual(parseCapture(searchPage(raw)), fromApi);
  assert.deepEqual(parseCapture(apiAnswer([], raw)), fromApi, 'map pins alone');
  assert.equal(parseCapture(apiAnswer(raw.slice(0, 10), raw.slice(5, 20))).length, 20, 'list and pins overlap: deduped');
  assert.deepEqual(parseCapture(readFileSync(listFile, 'utf8')), fromApi, 'the dump itself: a bare array of list results');
});

test('property node: field by field, bare and inside a property page', { skip: fixtureMissing(propFile) }, () => {
  const node = JSON.parse(readFileSync(propFile, 'utf8'));
  const page = `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { componentProps: { gdpClientCache: JSON.stringify({ 'ForSaleShopperPlatformFullRenderQuery{"zpid":15192198}': { property: node } }) } } } })}</script></body></html>`;
  for (const body of [JSON.stringify(node), page]) {
    const [r, ...rest] = parseCapture(body);
    assert.equal(rest.length, 0);
    assert.ok(r && Value.Check(realestateSearchRecord, r));
    assert.deepEqual(r, {
      query: '', property_id: '15192198', status: 'FOR_SALE', address: '661 Lakeview Ave, San Francisco, CA 94112', street: '661 Lakeview Ave',
      city: 'San Francisco', state: 'CA', postal_code: '94112', latitude: 37.71803, longitude: -122.45783, price: 850000, currency: 'USD',
      price_text: null, beds: 2, baths: 1, area_sqft: 900, lot_area_sqft: 3746, home_type: 'SINGLE_FAMILY', estimate: 887000, rent_estimate: 3058,
      days_on_site: 31, photo: 'https://photos.zillowstatic.com/fp/fc74d9ea95fb55d5343f731fb0c1bc56-p_f.jpg',
      url: 'https://www.zillow.com/homedetails/661-Lakeview-Ave-San-Francisco-CA-94112/15192198_zpid/', status_text: 'For Sale by Agent', broker_name: 'KW Advisors',
      is_building: false, unit_count: null, min_beds: null, max_beds: null, min_baths: null, max_baths: null, min_price: null, max_price: null,
    });
  }
  const [step] = adapter.plan({ query: 'https://www.zillow.com/homedetails/661-Lakeview-Ave-San-Francisco-CA-94112/15192198_zpid/', params: {} });
  assert.equal(step!.kind, 'property');
  assert.equal(adapter.parse(step!, res(page), { query: 'q', params: {} }).records[0]!.property_id, '15192198');
});

test('truncated, reordered and empty answers', { skip }, () => {
  const raw = items();
  const step = adapter.plan({ query: 'https://www.zillow.com/homes/?searchQueryState=' + encodeURIComponent(JSON.stringify({ mapBounds: SF })), params: { limit: 1000 } })[0]!;
  const ctx = { query: 'sf', params: { limit: 1000 } };
  const body = apiAnswer(raw);
  const layout = (e: unknown) => e instanceof SourceError && e.type === 'layout_changed';
  assert.throws(() => adapter.parse(step, res(body.slice(0, body.length / 2)), ctx), layout);
  for (const empty of ['', '{}', '[]', '<html><body>no state</body></html>', JSON.stringify({ cat1: {} })]) assert.throws(() => adapter.parse(step, res(empty), ctx), layout, empty);
  // No properties in the area: no records, no error.
  assert.equal(adapter.parse(step, res(apiAnswer([])), ctx).records.length, 0);
  // Reordered: the same properties, reversed.
  const ids = adapter.parse(step, res(body), ctx).records.map((r) => r.property_id);
  assert.deepEqual(adapter.parse(step, res(apiAnswer([...raw].reverse())), ctx).records.map((r) => r.property_id), [...ids].reverse());
  // Missing branches: null fields, the rest stays.
  const cut = raw.slice(0, 1).map((x) => ({ ...x, hdpData: { homeInfo: { zpid: x.zpid } }, latLong: undefined, price: undefined }));
  const [r] = parseCapture(apiAnswer(cut));
  assert.equal(r!.property_id, '2052939967');
  assert.equal(r!.price, null);
  assert.equal(r!.currency, null);
  assert.equal(r!.latitude, null);
  assert.equal(r!.home_type, null);
  assert.ok(r!.url);
});

test('plan: location text by mainFilter, search links, state links, property links; skip widens the budget', () => {
  const p = (query: string, params: Record<string, unknown> = {}) => adapter.plan({ query, params: { mainFilter: 'for_sale', limit: 100, skip: 0, ...params } })[0]!;
  assert.equal(p('san francisco, ca').url, 'https://www.zillow.com/homes/san-francisco,-ca_rb/');
  assert.equal(p('san francisco, ca', { mainFilter: 'for_rent' }).url, 'https://www.zillow.com/homes/for_rent/san-francisco,-ca_rb/');
  assert.equal(p('94109', { mainFilter: 'sold' }).url, 'https://www.zillow.com/homes/recently_sold/94109_rb/');
  assert.equal(p('94109', { mainFilter: 'sold' }).state?.filter, 'sold');
  // A search link keeps its own filter; without one, mainFilter decides.
  assert.equal(p('https://www.zillow.com/san-francisco-ca/rentals/', { mainFilter: 'sold' }).state?.filter, 'for_rent');
  assert.equal(p('https://www.zillow.com/san-francisco-ca/sold/').state?.filter, 'sold');
  assert.equal(p('https://zillow.com/san-francisco-ca/', { mainFilter: 'for_rent' }).state?.filter, 'for_rent');
  assert.equal(p('https://www.zillow.com/san-francisco-ca/').url, 'https://www.zillow.com/san-francisco-ca/');
  // A link with a search state and map bounds goes straight to the search API.
  const sqs = { pagination: {}, usersSearchTerm: 'San Francisco, CA', mapBounds: SF, regionSelection: [{ regionId: 20330, regionType: 6 }], filterState: { sort: { value: 'days' }, fr: { value: true }, price: { min: 1000 } } };
  const api = p(`https://www.zillow.com/san-francisco-ca/rentals/?searchQueryState=${encodeURIComponent(JSON.stringify(sqs))}`, { limit: 50, skip: 20 });
  assert.equal(api.method, 'PUT');
  assert.equal(api.url, 'https://www.zillow.com/async-create-search-page-state');
  const body = JSON.parse(api.body!);
  assert.deepEqual(body.searchQueryState.mapBounds, SF);
  assert.deepEqual(body.searchQueryState.regionSelection, sqs.regionSelection);
  assert.deepEqual(body.searchQueryState.filterState.fr, { value: true });
  assert.deepEqual(body.searchQueryState.filterState.price, { min: 1000 }, "the link's other filters stay");
  assert.deepEqual(body.searchQueryState.filterState.fsba, { value: false });
  assert.deepEqual(body.wants.cat1, ['listResults', 'mapResults']);
  assert.equal((api.state as ViewState).budget, 70, 'limit + skip');
  const sold = JSON.parse(p(`https://www.zillow.com/homes/?searchQueryState=${encodeURIComponent(JSON.stringify({ mapBounds: SF }))}`, { mainFilter: 'sold' }).body!);
  assert.deepEqual(sold.searchQueryState.filterState.rs, { value: true });
  const sale = JSON.parse(p(`https://www.zillow.com/homes/?searchQueryState=${encodeURIComponent(JSON.stringify({ mapBounds: SF }))}`).body!);
  assert.equal(sale.searchQueryState.filterState.fr, undefined);
  for (const bad of ['', 'https://www.example.com/homes/x_rb/', 'https://www.zillow.com/homedetails/no-id/', 'https://www.zillow.com/homes/?searchQueryState=%7Bbroken']) assert.ok(adapter.checkQuery!(bad), bad);
  assert.equal(adapter.checkQuery!('Austin, TX'), undefined);
});

test('finish: dedupe by property id, then skip and limit', { skip }, () => {
  const recs = parseCapture(apiAnswer(items()));
  const twice = [...recs.slice(0, 50), ...recs.slice(0, 100)];
  const out = adapter.finish!(twice, { query: 'x', params: { limit: 30, skip: 40 } });
  assert.deepEqual(out.map((r) => r.property_id), recs.slice(40, 70).map((r) => r.property_id));
});
