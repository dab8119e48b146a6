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
