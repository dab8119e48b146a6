/**
 * Two places a real answer puts what the constructed first samples did not: the store's phone in the
 * feed's merchant information block (`mxInfo.phoneno`) when its header has none, and an item
 * page's choices under keys the walker did not know (`itemCustomizations.sections[].choices`,
 * `pairings`): a "+$3.00" side is an option of the item, never a $3 menu item.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { isMenuItem } from './menu.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { FEED_QUERY } from './plan.ts';

const read = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');
const res = (body: string): FetchedResponse => ({ status: 200, url: 'https://www.doordash.com/graphql/storepageFeed?operation=storepageFeed', headers: {}, body });

test("store phone: the merchant information block fills a header without one; the header's own wins", () => {
  const recs = parseCapture(read('./constructed-store-feed-merchant-info.json'));
  assert.equal(recs.length, 4);
  for (const r of recs) assert.equal(r.store_phone, '(415) 555-0188');
  // Through the adapter, as the feed step reads it.
  const step = adapter.plan({ query: 'https://www.doordash.com/store/joes-corner-pizza-24687/', params: {} })[0]!;
  const viaAdapter = adapter.parse(step, res(read('./constructed-store-feed-merchant-info.json')), { query: '24687', params: {} }).records;
  assert.equal(viaAdapter[0]!.store_phone, '(415) 555-0188');
  // A header with its own phone keeps it.
  const both = JSON.parse(read('./constructed-store-feed-merchant-info.json'));
  both.data.storepageFeed.storeHeader.phoneNumber = '+14155550123';
  assert.equal(parseCapture(JSON.stringify(both))[0]!.store_phone, '+14155550123');
  // The feed asks for the block.
  assert.match(FEED_QUERY, /mxInfo \{ phoneno \}/);
});

test('item page: choices with a surcharge, an option typename or selection bounds are not menu items', () => {
  const recs = parseCapture(read('./constructed-item-page-choices.json'));
  assert.deepEqual(recs.map((r) => [r.item_name, r.price]), [['Secret Calzone', 14.5]]);
  assert.equal(isMenuItem({ id: 'c1', name: 'Garlic Bread', displayPrice: '+$3.00' }), false);
  assert.equal(isMenuItem({ id: 'c1', name: 'Garlic Bread', price: { unitAmount: 300, displayString: '+$3.00' } }), false);
  assert.equal(isMenuItem({ __typename: 'ItemOption', id: 'c1', name: 'Garlic Bread', unitAmount: 300 }), false);
  assert.equal(isMenuItem({ __typename: 'MenuPageItem', id: '1', name: 'Garlic Knots', displayPrice: '$6.50' }), true);
  // An item link's item page through the adapter: the calzone, not its sides.
  const step = { kind: 'item', url: '', expect: 'json' as const, state: { storeId: '24687', menuId: '31337', itemId: '998899', store: null } };
  const viaAdapter = adapter.parse(step, res(read('./constructed-item-page-choices.json')), { query: 'x', params: {} }).records;
  assert.deepEqual(viaAdapter.map((r) => r.item_name), ['Secret Calzone']);
});

test('the item page as the site answers it (itemHeader, optionLists, presetCarousels): one item, its price, its choices as options', () => {
  // Constructed after the field lists public clients of the site ask (itemHeader with displayString and
  // minor units, optionLists with isOptional and surcharges, presetCarousels with items of their own).
  const recs = parseCapture(read('./constructed-item-page-options.json'));
  assert.equal(recs.length, 1, 'the carousel\'s item is not the page\'s item');
  const r = recs[0]!;
  assert.deepEqual([r.item_id, r.item_name, r.price, r.currency, r.price_text, r.menu_id], ['546936015', 'Chicken Burrito', 11.49, 'USD', '$11.49', '3349912']);
  assert.deepEqual(r.options, [
    { list: 'Choose your salsa', name: 'Mild', price: 0, required: true },
    { list: 'Choose your salsa', name: 'Hot', price: 0, required: true },
    { list: 'Add extras', name: 'Guacamole', price: 2.5, required: false },
  ]);
  // Through the adapter's item step, as an item link the feed does not list reaches it.
  const step = { kind: 'item', url: 'https://www.doordash.com/graphql/itemPage?operation=itemPage', state: { storeId: '1721744', menuId: null, itemId: '546936015', store: null } } as never;
  const viaAdapter = adapter.parse(step, { ...res(read('./constructed-item-page-options.json')), url: 'https://www.doordash.com/graphql/itemPage?operation=itemPage' }, { query: 'q', params: {} }).records;
  assert.deepEqual(viaAdapter.map((x) => [x.item_id, x.options?.length]), [['546936015', 3]]);
  // A feed's items do not list their choices: null, not an empty list.
  assert.equal(parseCapture(read('./constructed-store-feed.json'))[0]!.options, null);
});
