/**
 * The listing endpoints end to end, offline: the real adapters and executor with the executor in
 * replay mode, serving HAR archives built at test time from the real captures (never copied into the
 * repository). Proves plan → executor → parse → finish → store → HTTP → billing on real data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { replayEntry as entry, usageOf, withReplay } from './support/replay.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import { adapter as hotels } from '../src/sources/hotels-search/adapter.ts';
import { adapter as estate } from '../src/sources/realestate-search/adapter.ts';
import { adapter as lodging } from '../src/sources/lodging-prices/adapter.ts';
import { adapter as menus } from '../src/sources/delivery/adapter.ts';

const hotelsCapture = fixturePath('google-hotels', 'search_response_nyc.json');

test('/hotels-search end to end: the served batchexecute answer, 18 hotels billed as 18', { skip: fixtureMissing(hotelsCapture), timeout: 60_000 }, async () => {
  const query = 'https://www.google.com/travel/search?q=new%20york%20hotels&checkin=2026-04-27&checkout=2026-04-28';
  const [step] = hotels.plan({ query, params: { limit: 18 } });
  const frame = JSON.stringify([['wrb.fr', 'AtySUc', readFileSync(hotelsCapture, 'utf8'), null, null, null, 'generic']]);
  const body = `)]}'\n\n${frame.length}\n${frame}\n`;
  await withReplay([entry(step!, body, 'application/json')], async (h) => {
    const r = await h.json(`/hotels-search?query=${encodeURIComponent(query)}&limit=18&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.equal(rows.length, 18);
    assert.equal(rows[0].name, '31 Street Broadway Hotel');
    assert.equal(rows[0].query, query);
    assert.equal(rows[0].currency, 'USD');
    assert.equal(new Set(rows.map((x: any) => x.hotel_id)).size, 18);
    assert.equal(await usageOf(h, r.body.id), '18');
    // limit 10, then the last record's cursor: the other 8 (the later variants replay the same answer: nothing new).
    const a = await h.json(`/hotels-search?query=${encodeURIComponent(query)}&limit=10&async=false`);
    const first = a.body.data[0];
    assert.equal(first.length, 10);
    const cursor = first[9].next_page_cursor;
    assert.match(cursor, /^c1\./);
    const b = await h.json(`/hotels-search?query=${encodeURIComponent(query)}&limit=10&cursor=${encodeURIComponent(cursor)}&async=false`);
    const rest = b.body.data[0];
    assert.equal(rest.length, 8);
    assert.deepEqual([...first, ...rest].map((x: any) => x.hotel_id), rows.map((x: any) => x.hotel_id));
    assert.equal(await usageOf(h, b.body.id), '8');
    // A link that is no hotel search is refused at submit, saying why.
    const bad = await h.json(`/hotels-search?query=${encodeURIComponent('https://www.google.com/maps/search/hotels')}&async=false`);
    assert.equal(bad.status, 422);
    assert.match(bad.body.errorMessage, /hotel-search page/);
  });
});

const estateCapture = fixturePath('zillow', 'scrapfly_search_listResults_2024-02.json');

test('/realestate-search end to end: a search page with the real results, limit 100 after skip 20, billed as 100', { skip: fixtureMissing(estateCapture), timeout: 60_000 }, async () => {
  const list = JSON.parse(readFileSync(estateCapture, 'utf8'));
  const sps = { queryState: { usersSearchTerm: 'San Francisco, CA', mapBounds: { west: -122.55, east: -122.35, south: 37.7, north: 37.82 } }, cat1: { searchResults: { listResults: list, mapResults: [] }, searchList: { totalPages: 1, totalResultCount: list.length } } };
  const page = `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { searchPageState: sps } } })}</script></body></html>`;
  const [step] = estate.plan({ query: 'san francisco, ca', params: { mainFilter: 'for_sale', limit: 100, skip: 20 } });
  await withReplay([entry(step!, page, 'text/html')], async (h) => {
    const r = await h.json('/realestate-search?query=san%20francisco%2C%20ca&limit=100&skip=20&async=false');
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.equal(rows.length, 100);
    assert.equal(rows[0].property_id, String(list[20].zpid));
    assert.equal(new Set(rows.map((x: any) => x.property_id)).size, 100);
    assert.equal(await usageOf(h, r.body.id), '100');
    const bad = await h.json(`/realestate-search?query=${encodeURIComponent('https://www.example.com/homes/x_rb/')}&async=false`);
    assert.equal(bad.status, 422);
  });
});

test('/realestate-search: a view that ends short of the totalResultCount it states ends incomplete, its records kept and billed (never a silent truncation)', { skip: fixtureMissing(estateCapture), timeout: 60_000 }, async () => {
  const list = JSON.parse(readFileSync(estateCapture, 'utf8'));
  // The view states 300 more than its one page lists, and is too small (a block) to split further.
  const page = (total: number) => `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { searchPageState: {
    queryState: { usersSearchTerm: 'San Francisco, CA', mapBounds: { west: -122.4005, east: -122.4, south: 37.7, north: 37.7005 } },
    cat1: { searchResults: { listResults: list, mapResults: [] }, searchList: { totalPages: 1, totalResultCount: total } } } } } })}</script></body></html>`;
  const [step] = estate.plan({ query: 'san francisco, ca', params: { mainFilter: 'for_sale', limit: 1000, skip: 0 } });
  for (const [total, reason] of [[list.length + 300, 'incomplete'], [list.length, undefined]] as const) {
    await withReplay([entry(step!, page(total), 'text/html')], async (h) => {
      const r = await h.json('/realestate-search?query=san%20francisco%2C%20ca&limit=1000&async=false');
      assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
      assert.equal(r.body.status, 'Success');
      const rows = r.body.data[0];
      assert.ok(rows.length >= new Set(list.map((x: any) => x.zpid)).size, 'the records read are kept');
      assert.equal(await usageOf(h, r.body.id), String(rows.length), 'and billed as read');
      assert.equal(r.body.errors?.[0]?.error.type, reason);
      if (reason) assert.match(r.body.errors[0].error.message, new RegExp(`the search's view: read ${list.length} of the ${total} the answer states`));
    });
  }
});

const bookingCapture = fixturePath('booking', 'scrapfly_search_graphql_results_2026-03.json');

test('/lodging-prices end to end: a hotel id (real results in the search page store) and a hotel link (constructed page), billed per price', { skip: fixtureMissing(bookingCapture), timeout: 60_000 }, async () => {
  const results = JSON.parse(readFileSync(bookingCapture, 'utf8'));
  const store = JSON.stringify({ ROOT_QUERY: { searchQueries: { 'search({"input":{}})': { results } } } }).replace(/</g, '\\u003c');
  const searchPage = `<html><body><script type="application/json" data-capla-store-data="apollo">${store}</script></body></html>`;
  const link = 'https://www.booking.com/hotel/gb/constructed-example.html?checkin=2026-05-01&checkout=2026-05-03';
  const [byId] = lodging.plan({ query: '1737972', params: {} });
  const [byLink] = lodging.plan({ query: link, params: {} });
  const hotelPage = readFileSync(new URL('../src/sources/lodging-prices/constructed-hotel-page.html', import.meta.url), 'utf8');
  // A search page for no dates (the site dropped them): the hotel, no price, no_dates, not billed.
  const dateless = JSON.parse(readFileSync(new URL('../src/sources/lodging-prices/constructed-search-no-dates.json', import.meta.url), 'utf8')).data.searchQueries.search.results;
  const [noDates] = lodging.plan({ query: '9990011', params: {} });
  const datelessPage = `<html><body><script type="application/json" data-capla-store-data="apollo">${JSON.stringify({ ROOT_QUERY: { searchQueries: { 'search({"input":{"destId":"9990011"}})': { results: dateless } } } })}</script></body></html>`;
  await withReplay([entry(byId!, searchPage, 'text/html'), entry(byLink!, hotelPage, 'text/html'), entry(noDates!, datelessPage, 'text/html')], async (h) => {
    const r = await h.json(`/lodging-prices?query=1737972&query=${encodeURIComponent(link)}&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const [a, b] = r.body.data;
    assert.equal(a.length, 1);
    assert.equal(a[0].hotel_name, 'Central Suites');
    assert.equal(a[0].default_stay, true);
    assert.equal(a[0].nights, 1);
    assert.equal(b.length, 3);
    assert.deepEqual(b.map((x: any) => x.price), [312, 1250.5, 140]);
    assert.equal(b[0].check_in_date, '2026-05-01');
    assert.equal(await usageOf(h, r.body.id), '4');
    const none = await h.json('/lodging-prices?query=9990011&async=false');
    assert.equal(none.body.status, 'Success', JSON.stringify(none.body).slice(0, 300));
    assert.deepEqual(none.body.data[0].map((x: any) => [x.hotel_id, x.hotel_name, x.price, x.no_price_reason]), [['9990011', 'Constructed Harbour View Hotel', null, 'no_dates']]);
    assert.equal(await usageOf(h, none.body.id), '0');
    const bad = await h.json(`/lodging-prices?query=${encodeURIComponent('https://www.booking.com/hotel/mt/x.html?checkin=2026-05-04')}&async=false`);
    assert.equal(bad.status, 422);
    assert.match(bad.body.errorMessage, /checkin and checkout/);
  });
});

test('/delivery end to end: a store link (4 items) and an item link the feed lacks (feed, then its item page), billed per listing; Cloudflare fails typed', { timeout: 60_000 }, async () => {
  const sample = (f: string) => readFileSync(new URL(`../src/sources/delivery/${f}`, import.meta.url), 'utf8');
  const feed = sample('constructed-store-feed.json');
  const store = 'https://www.doordash.com/store/joes-corner-pizza-24687/';
  const item = 'https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998899/';
  const [feedStep] = menus.plan({ query: store, params: {} });
  const [itemFeedStep] = menus.plan({ query: item, params: {} });
  const itemStep = menus.parse(itemFeedStep!, { status: 200, url: itemFeedStep!.url, headers: {}, body: feed }, { query: item, params: {} }).next![0]!;
  const [captchaStep] = menus.plan({ query: '77777', params: {} });
  const [wallStep] = menus.plan({ query: '88888', params: {} });
  const challenge = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:"managed"}</script></body></html>';
  const entries = [
    entry(feedStep!, feed, 'application/json'),
    entry(itemFeedStep!, feed, 'application/json'),
    entry(itemStep, sample('constructed-item-page.json'), 'application/json'),
    entry(captchaStep!, challenge, 'text/html', 403),
    entry(wallStep!, '<!DOCTYPE html><html><head><title>Access denied</title></head><body>denied</body></html>', 'text/html', 200),
  ];
  await withReplay(entries, async (h) => {
    const r = await h.json(`/delivery?query=${encodeURIComponent(store)}&query=${encodeURIComponent(item)}&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const [a, b] = r.body.data;
    assert.deepEqual(a.map((x: any) => [x.item_name, x.price, x.currency, x.category]), [
      ['Large Margherita', 18.99, 'USD', 'Pizzas'], ['Pepperoni Slice', 4.25, 'USD', 'Pizzas'], ['Garlic Knots', 6.5, 'USD', 'Sides & Drinks'], ['Mexican Coke', 1003.5, 'USD', 'Sides & Drinks'],
    ]);
    assert.equal(a[0].query, store);
    assert.equal(a[0].store_name, "Joe's Corner Pizza");
    assert.deepEqual(b.map((x: any) => [x.query, x.item_id, x.item_name, x.price, x.store_name]), [[item, '998899', 'Secret Calzone', 14.5, "Joe's Corner Pizza"]]);
    assert.equal(await usageOf(h, r.body.id), '5');
    // A challenge: typed by the executor (403) or by the parser (an HTML page served with 200): never an empty success.
    const blocked = await h.json('/delivery?query=77777&query=88888&async=false');
    assert.equal(blocked.body.status, 'Failure', JSON.stringify(blocked.body).slice(0, 300));
    assert.deepEqual(blocked.body.errors.map((e: any) => [e.query, e.error.type]), [['77777', 'captcha'], ['88888', 'blocked']]);
    const bad = await h.json(`/delivery?query=${encodeURIComponent('pizza near me')}&async=false`);
    assert.equal(bad.status, 422);
    assert.match(bad.body.errorMessage, /store or menu-item link/);
  });
});
