/**
 * POST /businesses end to end (issue 13): places found by /maps/search land in the searcher's own
 * business database (never another account's), a re-scrape updates rather than duplicates, pages are
 * keyset with a signed cursor, and bad input is a 422 that says what is wrong.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { SAMPLE } from '../src/store/businesses/conformance.ts';
import { FILTER_SAMPLE } from '../src/store/businesses/conformance-filters.ts';
import { osIdOf } from '../src/store/businesses/os-id.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

const search = (body: unknown, key?: string) =>
  h.json('/businesses', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(key ? { key } : {}) });
/** Capture runs after the request's end is announced: the places arrive shortly after the answer. */
const searchUntil = (body: Record<string, unknown>, total: number) =>
  until(async () => { const r = await search({ ...body, include_total: true }); return r.body.total === total ? r : null; }, 10_000, `${total} businesses`);

test('scraped places are searchable by their account only; a re-scrape updates, never duplicates', async () => {
  const scraped = await h.json('/maps/search?query=keys=a1,b2,c3&async=false');
  assert.equal(scraped.status, 200, JSON.stringify(scraped.body));
  const all = await searchUntil({ limit: 100 }, 3);
  assert.equal(all.status, 200, JSON.stringify(all.body));
  assert.deepEqual(all.body.items.map((b: any) => b.name).sort(), ['place a1', 'place b2', 'place c3']);
  assert.equal(all.body.total, 3);
  assert.equal(all.body.has_more, false);
  assert.equal(all.body.next_cursor, null);
  assert.equal('data' in all.body, false);
  const one = all.body.items.find((b: any) => b.name === 'place a1');
  assert.equal(one.engine_id, 'a1');
  assert.equal(one.source, '/maps/search');
  assert.match(one.os_id, /^bz_[0-9a-f]{24}$/);
  assert.equal(typeof one.added_timestamp, 'number');

  assert.equal((await h.json('/maps/search?query=keys=a1&async=false')).status, 200);
  const again = await search({ limit: 100, include_total: true });
  assert.equal(again.body.total, 3);
  assert.equal(again.body.items.find((b: any) => b.name === 'place a1').os_id, one.os_id);

  const other = await h.newAccount();
  const theirs = await search({ limit: 100 }, other.key);
  assert.equal(theirs.status, 200);
  assert.deepEqual(theirs.body.items, []);

  const named = await search({ filters: { name: 'B2' }, fields: ['name', 'os_id'] });
  assert.deepEqual(named.body.items.map((b: any) => Object.keys(b).sort()), [['name', 'os_id']]);
});

test('keyset pages with a signed cursor; a tampered or foreign cursor is a 422', async () => {
  await h.json('/maps/search?query=keys=p1,p2,p3,p4,p5&async=false');
  await searchUntil({ filters: { name: 'place p' } }, 5);
  const seen: string[] = [];
  let cursor: string | null = null;
  let first = '';
  do {
    const r = await search({ limit: 2, cursor, filters: { name: 'place p' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    seen.push(...r.body.items.map((b: any) => b.name));
    cursor = r.body.next_cursor;
    assert.equal(r.body.has_more, cursor !== null);
    if (!first && cursor) first = cursor;
  } while (cursor);
  assert.deepEqual(seen.sort(), ['place p1', 'place p2', 'place p3', 'place p4', 'place p5']);
  const [payload, mac] = first.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: 'bz_0' })).toString('base64url');
  for (const bad of [`${forged}.${mac}`, 'nonsense', `${payload}.${mac}x`]) {
    const r = await search({ limit: 2, cursor: bad, filters: { name: 'place p' } });
    assert.equal(r.status, 422, bad);
    assert.match(r.body.errorMessage, /^422 Unprocessable Entity.*cursor is not a cursor of this search/);
  }
  // The same cursor with other filters belongs to another search.
  assert.equal((await search({ limit: 2, cursor: first, filters: { name: 'place' } })).status, 422);
  const other = await h.newAccount();
  assert.equal((await search({ limit: 2, cursor: first, filters: { name: 'place p' } }, other.key)).status, 422);
});

test('rating/reviews grammar, unknown fields and impossible geo filters are 422s that say why', async () => {
  for (const ok of ['4.5+', '<4', '<=4', '>4', '>=4.5', '3-4.5', '4']) assert.equal((await search({ filters: { rating: ok } })).status, 200, ok);
  for (const bad of ['4.5++', 'high', '4-3', '=4']) {
    const r = await search({ filters: { rating: bad } });
    assert.equal(r.status, 422, bad);
    assert.match(r.body.errorMessage, /filters\.rating/);
  }
  assert.match((await search({ filters: { reviews: 'lots' } })).body.errorMessage, /filters\.reviews must be an expression: 4\.5\+ \(at least\)/);
  assert.match((await search({ fields: ['name', 'nope'] })).body.errorMessage, /unknown field "nope"/);
  assert.equal((await search({ filters: { geo_filters: [{ type: 'polygon', points: [[0, 0], [1, 1]] }] } })).status, 422, 'a polygon needs three points');
  assert.equal((await search({ filters: { geo_filters: [{ type: 'polygon', points: [[0, 0], [1, 1], [91, 0]] }] } })).status, 422);
  assert.match((await search({ filters: { geo_filters: [{ type: 'bbox', south: 10, north: 5, west: 0, east: 1 }] } })).body.errorMessage, /south <= north/);
  assert.equal((await search({ filters: { geo_filters: [{ type: 'circle', lat: 30, lng: -97, radius_m: 2000 }] } })).status, 200);
  assert.equal((await search({ limit: 0 })).status, 422);
  assert.equal((await search({ limit: 1001 })).status, 422);
});

test('a natural-language query, alone or with filters, answers parsed_query; words not understood are a 422 naming them', async () => {
  const other = await h.newAccount();
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(other.account.id, SAMPLE, Date.now());
  const ask = (body: unknown) => search(body, other.key);
  const names = (r: { body: { items: { name: string }[] } }) => r.body.items.map((b) => b.name).sort();

  const coffee = await ask({ query: 'coffee shops in austin tx rated 4.5+ with a website' });
  assert.equal(coffee.status, 200, JSON.stringify(coffee.body));
  assert.deepEqual(names(coffee), ["Joe's Coffee"]);
  assert.deepEqual(coffee.body.parsed_query.cities, ['Austin']);
  assert.equal(coffee.body.parsed_query.rating, '4.5+');
  assert.equal(coffee.body.parsed_query.has_website, true);

  const near = await ask({ query: 'coffee shops near 30.2672,-97.7431 within 3 km' });
  assert.deepEqual(names(near), ['Bean There', "Joe's Coffee"]);
  assert.deepEqual(near.body.parsed_query.geo_filters, [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 3000 }]);

  assert.deepEqual(names(await ask({ query: 'closed restaurants in paris' })), ['Le Closed']);
  // Filters beside the query: both apply, and a filter given wins over the query's reading of the same one.
  assert.deepEqual(names(await ask({ query: 'coffee shops in austin', filters: { has_phone: false } })), ['Bean There']);
  assert.deepEqual(names(await ask({ query: 'restaurants in austin', filters: { cities: ['Paris'] } })), ['Café de Flore', 'Le Closed']);

  const bad = await ask({ query: 'coffee shops without wifi and karaoke in austin' });
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /^422 Unprocessable Entity.*query: not understood: "without", "wifi", "karaoke"\./);
  const empty = await ask({ query: 'show me the places' });
  assert.equal(empty.status, 422);
  assert.match(empty.body.errorMessage, /nothing in it could be read as a filter/);
  // The cursor belongs to the query too.
  const page = await ask({ query: 'restaurants', limit: 1 });
  assert.ok(page.body.next_cursor);
  assert.equal((await ask({ query: 'restaurants', limit: 1, cursor: page.body.next_cursor })).status, 200);
  assert.equal((await ask({ query: 'cafes', limit: 1, cursor: page.body.next_cursor })).status, 422);
});

test('attributes, broad_match, business_only, located_os_id and polygon through the body', async () => {
  const other = await h.newAccount();
  // The mall is stored under its place id: its shops name it by its engine id, and both spellings are asked for.
  const mall = { ...FILTER_SAMPLE[0], place_id: 'mall-place', os_id: osIdOf('place', 'mall-place') };
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(other.account.id, [mall, ...FILTER_SAMPLE.slice(1)], Date.now());
  const names = async (filters: unknown) => {
    const r = await search({ filters, fields: ['name'] }, other.key);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.items.map((b: { name: string }) => b.name).sort();
  };
  assert.deepEqual(await names({ located_os_id: mall.os_id }), ['Food Court Pizza', 'Shoe Town']);
  assert.deepEqual(await names({ located_os_id: osIdOf('engine', 'mall-1') }), ['Food Court Pizza', 'Shoe Town']);
  assert.deepEqual(await names({ located_os_id: 'bz_000000000000000000000000' }), []);
  assert.deepEqual(await names({ attributes: ['outdoor seating'] }), ['Food Court Pizza', 'Park Kiosk']);
  const read = await search({ query: 'wheelchair accessible pizza places with outdoor seating', fields: ['name'] }, other.key);
  assert.deepEqual([read.status, read.body.items.map((b: { name: string }) => b.name)], [200, ['Food Court Pizza']]);
  assert.deepEqual(read.body.parsed_query.attributes, ['Wheelchair accessible entrance', 'Outdoor seating']);
  assert.deepEqual(await names({ types: ['restaurant'], broad_match: true }), ['Food Court Pizza']);
  assert.deepEqual(await names({ business_only: true, types: ['park'] }), ['Park Kiosk']);
  assert.deepEqual(await names({ geo_filters: [{ type: 'polygon', points: [[29.9, -97.1], [29.9, -96.9], [30.1, -96.9], [30.1, -97.1]] }] }),
    ['Barton Mall', 'Food Court Pizza', 'Shoe Town']);
  const one = await search({ filters: { name: 'shoe' } }, other.key);
  assert.equal(one.body.items[0].located_in, 'Barton Mall');
  assert.equal(one.body.items[0].located_os_id, osIdOf('engine', 'mall-1'));
});
