import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { deliveryRecord } from '../../contract/records/delivery.ts';
import { readStoreLink } from '../_doordash/links.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { FEED_QUERY, ITEM_QUERY } from './plan.ts';

const read = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');
const feedText = read('./constructed-store-feed.json');
const feed = (): any => JSON.parse(feedText);
const itemText = read('./constructed-item-page.json');
const pageHtml = read('./constructed-store-page.html');

const res = (body: string, status = 200): FetchedResponse => ({ status, url: 'https://www.doordash.com/graphql/storepageFeed?operation=storepageFeed', headers: {}, body });
const ctx = (query = '24687') => ({ query, params: {} });
const first = (query = '24687') => adapter.plan(ctx(query))[0]!;
const body = (s: Step) => JSON.parse(s.body!);
const throwsType = (fn: () => unknown, type: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === type, `expected SourceError(${type})`);
const names = (rs: { item_name: string | null }[]) => rs.map((r) => r.item_name);

test('query items: store links, menu-item links (path and item_id forms), locale prefix, store ids; refusals say why', () => {
  const cases: Array<[string, { id: string; menuId: string | null; itemId: string | null }]> = [
    ['https://www.doordash.com/store/joes-corner-pizza-san-francisco-24687/', { id: '24687', menuId: null, itemId: null }],
    ['https://www.doordash.com/store/24687/?pickup=true', { id: '24687', menuId: null, itemId: null }],
    ['doordash.com/en-US/store/joes-corner-pizza-24687', { id: '24687', menuId: null, itemId: null }],
    ['https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998877/?cursor=x', { id: '24687', menuId: '31337', itemId: '998877' }],
    ['https://www.doordash.com/store/joes-corner-pizza-24687/item/998877', { id: '24687', menuId: null, itemId: '998877' }],
    ['https://www.doordash.com/store/24687/?item_id=998877', { id: '24687', menuId: null, itemId: '998877' }],
    ['https://order.doordash.com/store/7-eleven-san-jose-1234567/', { id: '1234567', menuId: null, itemId: null }],
    [' 24687 ', { id: '24687', menuId: null, itemId: null }],
  ];
  for (const [q, want] of cases) assert.deepEqual(readStoreLink(q), want, q);
  for (const bad of ['', 'pizza near me', 'https://example.com/store/1/', 'https://www.doordash.com/business/joes-pizza-123/', 'https://www.doordash.com/store/joes-pizza/']) {
    assert.ok(adapter.checkQuery!(bad), bad);
  }
  throwsType(() => adapter.plan(ctx('https://example.com/store/1/')), 'invalid_query');
});

test('plan: the store page feed by POST /graphql/storepageFeed, with the menu and item a link names', () => {
  const s = first('https://www.doordash.com/store/joes-corner-pizza-24687/');
  assert.equal(s.kind, 'menu');
  assert.equal(s.method, 'POST');
  assert.equal(s.url, 'https://www.doordash.com/graphql/storepageFeed?operation=storepageFeed');
  assert.equal(s.headers!['x-channel-id'], 'marketplace');
  assert.equal(s.headers!.referer, 'https://www.doordash.com/store/24687/');
  assert.equal(body(s).operationName, 'storepageFeed');
  assert.equal(body(s).query, FEED_QUERY);
  assert.deepEqual(body(s).variables, { storeId: '24687', menuId: null, isMerchantPreview: false, fulfillmentType: 'Delivery', cursorContext: null });
  const item = first('https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998877/');
  assert.equal(item.kind, 'menu');
  assert.equal(body(item).variables.menuId, '31337');
  assert.deepEqual(item.state, { storeId: '24687', menuId: '31337', itemId: '998877' });
});

test('a store page feed field by field (constructed sample): menu order, one record per item, carousel marks popular', () => {
  const out = adapter.parse(first(), res(feedText), ctx('https://www.doordash.com/store/24687/'));
  assert.deepEqual(names(out.records), ['Large Margherita', 'Pepperoni Slice', 'Garlic Knots', 'Mexican Coke']);
  assert.deepEqual(out.records[0], {
    query: 'https://www.doordash.com/store/24687/', store_id: '24687', store_name: "Joe's Corner Pizza",
    store_address: '2150 Mission St, San Francisco, CA 94110', store_phone: '+14155550123', store_rating: 4.6, store_reviews: 2310,
    item_id: '998877', item_name: 'Large Margherita', description: 'San Marzano tomato, fresh mozzarella, basil.', category: 'Pizzas',
    price: 18.99, currency: 'USD', image: 'https://img.cdn4dd.com/cdn-cgi/image/format=auto/https://doordash-static.s3.amazonaws.com/media/photosV2/constructed-margherita.jpg',
    rating: 94, ratings_count: 212, is_popular: true, price_text: '$18.99', item_url: 'https://www.doordash.com/store/24687/31337/item/998877/',
    store_url: 'https://www.doordash.com/store/24687/', store_latitude: 37.7628, store_longitude: -122.4194, menu_id: '31337', options: null,
  });
  const [, pep, knots, coke] = out.records;
  assert.deepEqual([pep.price, pep.description, pep.image, pep.rating, pep.ratings_count, pep.is_popular], [4.25, null, null, 88, 57, false]);
  assert.deepEqual([knots.category, knots.is_popular, knots.rating], ['Sides & Drinks', true, null]);
  // No price object: the shown text, thousands separator read as such.
  assert.deepEqual([coke.price, coke.currency, coke.price_text, coke.description], [1003.5, 'USD', '$1,003.50', null]);
  for (const r of out.records) assert.ok(Value.Check(deliveryRecord, r), JSON.stringify(r));
  assert.equal(out.next, undefined);
});

test('a popular list with an entry that does not read (id or name emptied): is_popular unknown for items not seen in it, not false', () => {
  const base = adapter.parse(first(), res(feedText), ctx()).records;
  const popularOf = (change: (lists: any[]) => void) => {
    const f = feed();
    change(f.data.storepageFeed.itemLists);
    return Object.fromEntries(adapter.parse(first(), res(JSON.stringify(f)), ctx()).records.map((r) => [r.item_name, r.is_popular]));
  };
  assert.deepEqual(popularOf(() => {}), Object.fromEntries(base.map((r) => [r.item_name, r.is_popular])));
  const popular = (lists: any[]) => lists.find((l) => /most ordered|popular/i.test(l.name));
  for (const key of ['id', 'name']) {
    const p = popularOf((lists) => { popular(lists).items[1][key] = key === 'id' ? null : ''; });
    assert.equal(p['Large Margherita'], true, 'still seen in the list');
    assert.equal(p['Garlic Knots'], null, `its ${key} emptied in the list: not known to be popular, not "not popular"`);
    assert.equal(p['Pepperoni Slice'], null);
  }
});

test('an item link: the feed\'s item only; an item the feed lacks → its item page, the store carried over', () => {
  const link = 'https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998880/';
  const one = adapter.parse(first(link), res(feedText), ctx(link));
  assert.deepEqual(names(one.records), ['Garlic Knots']);
  const hidden = 'https://www.doordash.com/store/24687/?item_id=998899';
  const miss = adapter.parse(first(hidden), res(feedText), ctx(hidden));
  assert.deepEqual(miss.records, []);
  const step = miss.next![0]!;
  assert.equal(step.url, 'https://www.doordash.com/graphql/itemPage?operation=itemPage');
  assert.equal(body(step).query, ITEM_QUERY);
  assert.deepEqual(body(step).variables, { storeId: '24687', itemId: '998899', isMerchantPreview: false, fulfillmentType: 'Delivery' });
  const got = adapter.parse(step, res(itemText), ctx(hidden));
  assert.equal(got.records.length, 1, 'option lists and recommendations are not menu items');
  const r = got.records[0]!;
  assert.deepEqual([r.item_id, r.item_name, r.price, r.currency, r.price_text, r.image, r.menu_id], ['998899', 'Secret Calzone', 14.5, 'USD', '$14.50', 'https://img.cdn4dd.com/constructed-calzone.jpg', '31337']);
  assert.deepEqual([r.store_id, r.store_name, r.store_phone, r.store_reviews, r.category, r.is_popular], ['24687', "Joe's Corner Pizza", '+14155550123', 2310, null, null]);
  assert.equal(r.item_url, 'https://www.doordash.com/store/24687/31337/item/998899/');
  assert.ok(Value.Check(deliveryRecord, r));
  throwsType(() => adapter.parse(step, res('{"data":{"itemPage":null}}'), ctx(hidden)), 'not_found');
  const other = JSON.parse(itemText);
  other.data.itemPage.itemHeader.id = '5';
  throwsType(() => adapter.parse(step, res(JSON.stringify(other)), ctx(hidden)), 'not_found');
});

test('variants: reordered, moved lists, thin items, missing branches → null, empty menu, truncated, errors', () => {
  const s = first();
  // Reordered keys and lists: the same items, categories still from their own lists.
  const re = feed();
  re.data.storepageFeed.itemLists.reverse();
  re.data.storepageFeed = Object.fromEntries(Object.entries(re.data.storepageFeed).reverse());
  const ro = adapter.parse(s, res(JSON.stringify(re)), ctx()).records;
  assert.deepEqual(names(ro).sort(), ['Garlic Knots', 'Large Margherita', 'Mexican Coke', 'Pepperoni Slice']);
  assert.equal(ro.find((r) => r.item_id === '998877')!.category, 'Pizzas');
  assert.equal(ro.find((r) => r.item_id === '998877')!.is_popular, true);
  // Lists moved under another wrapper without typenames (a later layout): found by shape.
  const moved = { data: { storepageFeed: { header: feed().data.storepageFeed.storeHeader, menu: { categories: feed().data.storepageFeed.itemLists.slice(1).map(({ __typename, items, ...c }: any) => ({ ...c, products: items.map(({ __typename: _t, ...i }: any) => i) })) } } } };
  const mo = adapter.parse(s, res(JSON.stringify(moved)), ctx()).records;
  assert.deepEqual(names(mo), ['Large Margherita', 'Pepperoni Slice', 'Garlic Knots', 'Mexican Coke']);
  assert.deepEqual([mo[0].category, mo[0].price, mo[0].store_name, mo[0].is_popular], ['Pizzas', 18.99, "Joe's Corner Pizza", true], 'the callout marks it without the carousel');
  assert.equal(mo[1].is_popular, null, 'no popular list and no mark: unknown');
  // Missing branches: no store header, no ratings, no price → nulls, records still valid.
  const thin = { data: { storepageFeed: { itemLists: [{ name: 'Soups', items: [{ __typename: 'MenuPageItem', id: 1, name: 'Pho' }] }] } } };
  const t = adapter.parse(s, res(JSON.stringify(thin)), ctx()).records[0]!;
  assert.deepEqual([t.item_id, t.store_id, t.store_name, t.store_address, t.price, t.currency, t.price_text, t.category, t.rating], ['1', '24687', null, null, null, null, null, 'Soups', null]);
  assert.ok(Value.Check(deliveryRecord, t));
  // `itemId` in place of `id`, a price in minor units beside the item, a numeric id.
  const alias = { data: { storepageFeed: { itemLists: [{ title: 'Bowls', items: [{ itemId: 42, name: 'Poke', unitAmount: 1295, currency: 'usd', decimalPlaces: 2 }] }] } } };
  const al = adapter.parse(s, res(JSON.stringify(alias)), ctx()).records[0]!;
  assert.deepEqual([al.item_id, al.category, al.price, al.currency, al.price_text], ['42', 'Bowls', 12.95, 'USD', null]);
  // A store whose feed lists no item: no records (the store is there).
  const empty = feed();
  empty.data.storepageFeed.itemLists = [];
  assert.deepEqual(adapter.parse(s, res(JSON.stringify(empty)), ctx()).records, []);
  throwsType(() => adapter.parse(s, res('{"data":{"storepageFeed":null}}'), ctx()), 'not_found');
  throwsType(() => adapter.parse(s, res('{"data":{"somethingElse":{"a":1}}}'), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(s, res('{"data":{}}'), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(s, res(feedText.slice(0, 300)), ctx()), 'layout_changed');
  // Cloudflare's challenge served with 200 (not typed by the executor): blocked, never an empty success.
  throwsType(() => adapter.parse(s, res('<!DOCTYPE html><title>Just a moment...</title>', 200), ctx()), 'blocked');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Rate limit exceeded"}],"data":null}'), ctx()), 'rate_limited');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Cannot query field \\"storepageFeed\\" on type \\"Query\\"."}],"data":null}'), ctx()), 'stale_request');
});

test('trawl parse: the feed answer, a batch, the item page answer, the store page with its Apollo state', () => {
  const recs = parseCapture(feedText);
  assert.deepEqual(names(recs), ['Large Margherita', 'Pepperoni Slice', 'Garlic Knots', 'Mexican Coke']);
  assert.equal(recs[0].store_id, '24687');
  assert.equal(recs[0].query, '24687');
  assert.deepEqual(names(parseCapture(`[${feedText},${itemText}]`)), ['Large Margherita', 'Pepperoni Slice', 'Garlic Knots', 'Mexican Coke', 'Secret Calzone']);
  const item = parseCapture(itemText);
  assert.deepEqual([item.length, item[0].item_name, item[0].price, item[0].store_id], [1, 'Secret Calzone', 14.5, null]);
  const page = parseCapture(pageHtml);
  assert.deepEqual(page.map((r) => [r.store_id, r.store_name, r.item_name, r.category, r.price, r.is_popular, r.store_reviews]), [
    ['24687', "Joe's Corner Pizza", 'Large Margherita', 'Pizzas', 18.99, true, 2300],
    ['24687', "Joe's Corner Pizza", 'Pepperoni Slice', 'Pizzas', 4.25, false, 2300],
  ]);
  // The cache entries before the query root (key order varies): categories still from the lists; an item only in the carousel has no known category (null, never "Most Ordered").
  const nd = JSON.parse(/<script id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(pageHtml)![1]!);
  const cache = nd.props.pageProps.initialApolloState;
  const lists = (Object.values(cache.ROOT_QUERY).find((v: any) => v?.itemLists) as any).itemLists;
  lists[1].items = lists[1].items.slice(1); // the Margherita only in the carousel now
  nd.props.pageProps.initialApolloState = Object.fromEntries(Object.entries(cache).reverse());
  const swapped = parseCapture(pageHtml.replace(/(<script id="__NEXT_DATA__"[^>]*>)[\s\S]*?(<\/script>)/, (_m, a, b) => a + JSON.stringify(nd) + b));
  assert.deepEqual(swapped.map((r) => [r.item_name, r.category, r.is_popular]), [['Large Margherita', null, true], ['Pepperoni Slice', 'Pizzas', false]]);
  for (const r of [...recs, ...item, ...page]) assert.ok(Value.Check(deliveryRecord, r));
  assert.throws(() => parseCapture('<!DOCTYPE html><title>Just a moment...</title><script>window._cf_chl_opt={}</script>'), /Cloudflare challenge page/);
  assert.throws(() => parseCapture('{"x":1}'), /expected a store page feed/);
  assert.throws(() => parseCapture('{"data":{"storepageFeed":null}}'), /no such store/);
  assert.throws(() => parseCapture('{"data":{}}'), /neither menu items nor the store/);
  assert.throws(() => parseCapture('not json'), /neither JSON nor HTML/);
});
