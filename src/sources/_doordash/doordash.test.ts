import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalStoreId } from './links.ts';
import { isStoreHeader, readSiteAnswer, storeOf } from './site.ts';
import { SourceError } from '../_kit/errors.ts';

test('store header: every branch optional; shown counts as lower bounds; address from parts', () => {
  assert.deepEqual(storeOf({ id: 24687, name: 'X', phoneNumber: '+1 415', ratings: { averageRating: 4.6, numRatings: 2310 }, address: { displayAddress: '1 Main St', lat: 1.5, lng: -2 } }), {
    id: '24687', name: 'X', rating: 4.6, count: 2310, address: '1 Main St', phone: '+1 415', latitude: 1.5, longitude: -2,
  });
  assert.equal(storeOf({ ratings: { numRatingsDisplayString: '2,300+ ratings' } }).count, 2300);
  assert.equal(storeOf({ ratings: { numRatingsDisplayString: '4.6k+ ratings' } }).count, 4600);
  assert.equal(storeOf({ address: { street: '1 Main St', city: 'SF', state: 'CA', zipCode: '94110' } }).address, '1 Main St, SF, CA 94110');
  assert.deepEqual(storeOf(null), { id: null, name: null, rating: null, count: null, address: null, phone: null, latitude: null, longitude: null });
  assert.ok(isStoreHeader(null)({ __typename: 'StoreHeader', name: 'X' }));
  assert.ok(isStoreHeader('5')({ id: 5, name: 'X' }));
  assert.ok(!isStoreHeader('5')({ id: 6, name: 'X' }));
});

test('canonical store id of a saved page; site answers typed', () => {
  assert.equal(canonicalStoreId('<link rel="canonical" href="https://www.doordash.com/store/x-24687/">'), '24687');
  assert.equal(canonicalStoreId('<meta property="og:url" content="https://www.doordash.com/store/24687/">'), '24687');
  assert.equal(canonicalStoreId('<link rel="canonical" href="https://example.com/store/1/">'), null);
  const res = (body: string, status = 200) => ({ status, url: 'https://www.doordash.com/graphql/x', headers: {}, body });
  assert.deepEqual(readSiteAnswer(res('{"data":{"x":{"a":1}}}'), 'x'), { x: { a: 1 } });
  const type = (body: string, status = 200) => { try { readSiteAnswer(res(body, status), 'x'); return 'ok'; } catch (e) { return (e as SourceError).type; } };
  assert.equal(type('{"data":{"x":null}}'), 'not_found');
  assert.equal(type('<html><title>Just a moment...</title></html>'), 'blocked');
  assert.equal(type('{"nothing":1}'), 'layout_changed');
});
