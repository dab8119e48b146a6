import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { deliveryReviewRecord } from '../../contract/records/delivery-reviews.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { QUERY } from './plan.ts';
import { readStoreQuery } from './query.ts';
import { dateOf } from './review.ts';
import type { DeliveryParams } from './record.ts';

const read = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');
const answerText = read('./constructed-reviews-answer.json');
const answer = (): any => JSON.parse(answerText);
const pageHtml = read('./constructed-store-page.html');

const res = (body: string, status = 200, headers: Record<string, string> = {}): FetchedResponse => ({ status, url: 'https://www.doordash.com/graphql/storeReviews?operation=storeReviews', headers, body });
const ctx = (params: DeliveryParams = {}, query = '24687') => ({ query, params });
const first = (params: DeliveryParams = {}, query = '24687') => adapter.plan(ctx(params, query))[0];
const body = (s: Step) => JSON.parse(s.body!);
const throwsType = (fn: () => unknown, type: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === type, `expected SourceError(${type})`);
function answerWith(reviews: unknown[], pageInfo: Record<string, unknown> = { cursor: 'eyJvZmZzZXQiOjEwfQ==', hasNextPage: true }): string {
  const a = answer();
  a.data.storeReviews.reviews = reviews;
  a.data.storeReviews.pageInfo = pageInfo;
  return JSON.stringify(a);
}

test('query items: store links (slug-id, id, locale prefix, query string), menu-item links, store ids', () => {
  assert.deepEqual(readStoreQuery('https://www.doordash.com/store/joes-corner-pizza-san-francisco-24687/'), { id: '24687' });
  assert.deepEqual(readStoreQuery('https://www.doordash.com/store/24687/?pickup=true&item_id=998877'), { id: '24687' });
  assert.deepEqual(readStoreQuery('doordash.com/en-US/store/joes-corner-pizza-24687'), { id: '24687' });
  assert.deepEqual(readStoreQuery('https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998877/?cursor=x'), { id: '24687' });
  assert.deepEqual(readStoreQuery('https://www.doordash.com/store/7-eleven-san-jose-1234567/'), { id: '1234567' });
  assert.deepEqual(readStoreQuery(' 24687 '), { id: '24687' });
  for (const bad of ['', 'pizza near me', 'https://example.com/store/1/', 'https://www.doordash.com/business/joes-pizza-123/', 'https://www.doordash.com/store/joes-pizza/']) {
    assert.ok('error' in readStoreQuery(bad), bad);
    assert.ok(adapter.checkQuery!(bad), bad);
  }
  throwsType(() => adapter.plan(ctx({}, 'https://example.com/store/1/')), 'invalid_query');
});

test('plan: POST /graphql/<operation>?operation=<operation> with the query text and the store\'s id', () => {
  const s = first({}, 'https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998877/');
  assert.equal(s.kind, 'reviews');
  assert.equal(s.method, 'POST');
  assert.equal(s.url, 'https://www.doordash.com/graphql/storeReviews?operation=storeReviews');
  assert.equal(s.headers!['x-channel-id'], 'marketplace');
  assert.equal(s.headers!.referer, 'https://www.doordash.com/store/24687/');
  assert.equal(body(s).operationName, 'storeReviews');
  assert.equal(body(s).query, QUERY);
  assert.deepEqual(body(s).variables, { storeId: '24687', sortBy: 'HIGHEST_RATED', cursor: null, limit: 10 });
});

test('every sort maps to the site\'s order; cutoff forces newest first', () => {
  const expected = { highest_rated: 'HIGHEST_RATED', lowest_rated: 'LOWEST_RATED', newest: 'NEWEST', oldest: 'OLDEST' } as const;
  for (const [sort, site] of Object.entries(expected)) assert.equal(body(first({ sort: sort as keyof typeof expected })).variables.sortBy, site);
  assert.equal(body(first({ sort: 'oldest', cutoff: 1_700_000_000 })).variables.sortBy, 'NEWEST');
});

test('a reviews answer field by field (constructed sample), and the next page by the site\'s cursor', () => {
  const s = first();
  const out = adapter.parse(s, res(answerText), ctx({}, 'https://www.doordash.com/store/24687/'));
  const [a, b, c] = out.records;
  assert.deepEqual(a, {
    query: 'https://www.doordash.com/store/24687/', store_id: '24687', store_name: "Joe's Corner Pizza", review_id: '7c0e4a52-1f0b-4d8e-9a31-5b2d0c6e1a01',
    author_name: 'Dana R', review_rating: 5, review_text: 'Crust was perfect &amp; still hot.', review_timestamp: Date.parse('2026-09-20T19:05:11Z') / 1000,
    review_datetime_utc: '2026-09-20T19:05:11Z', ordered_items: ['Large Margherita', 'Garlic Knots'], next_page_cursor: null, author_id: '918273',
    author_reviews_count: 14, review_date_text: '9/20/26', review_experience: 'DoorDash order', review_verified: true, merchant_response: 'Thanks Dana!',
    store_rating: 4.6, store_ratings_count: 2310,
  });
  assert.equal(b.review_datetime_utc, '2026-09-12T00:00:00Z', 'the shown date when there is no timestamp');
  assert.equal(b.author_id, null);
  assert.equal(b.merchant_response, null);
  assert.deepEqual(c.ordered_items, []);
  assert.equal(c.review_verified, null);
  for (const r of out.records) assert.ok(Value.Check(deliveryReviewRecord, r));
  const next = out.next![0];
  assert.deepEqual(body(next).variables, { storeId: '24687', sortBy: 'HIGHEST_RATED', cursor: 'eyJvZmZzZXQiOjEwfQ==', limit: 10 });
  assert.equal(next.state!.storeName, "Joe's Corner Pizza");
  // Relative and US dates.
  assert.equal(dateOf('10/24/26'), Date.UTC(2026, 9, 24) / 1000);
  assert.equal(dateOf('1/2/2025'), Date.UTC(2025, 0, 2) / 1000);
  assert.equal(dateOf('2 days ago', 1_790_000_000), 1_790_000_000 - 2 * 86400);
  const rel = adapter.parse(s, res(answerWith([{ __typename: 'ConsumerReview', reviewUuid: 'r', starRating: 4, reviewDate: '2 days ago' }]), 200, { date: 'Tue, 06 Oct 2026 10:00:00 GMT' }), ctx());
  assert.equal(rel.records[0].review_datetime_utc, '2026-10-04T10:00:00Z');
  // A timestamp there that does not read is unknown: not the shown date's day in its place.
  const bad = adapter.parse(s, res(answerWith([{ __typename: 'ConsumerReview', reviewUuid: 'r', starRating: 4, reviewedAt: '', reviewDate: '2 days ago' }]), 200, { date: 'Tue, 06 Oct 2026 10:00:00 GMT' }), ctx());
  assert.equal(bad.records[0].review_datetime_utc, null);
});

test('variants: reordered, nested under another wrapper, items as text, thin cards, empty, truncated, errors', () => {
  const s = first();
  const reordered = answer().data.storeReviews.reviews.reverse().map((r: any) => Object.fromEntries(Object.entries(r).reverse()));
  assert.deepEqual(adapter.parse(s, res(answerWith(reordered)), ctx()).records.map((r) => r.review_id!.slice(-2)), ['03', '02', '01']);
  // An older layout: the cards under the store page feed, store header beside them, hasMore/nextCursor paging.
  const older = { data: { storepageFeed: { storeHeader: { id: '24687', name: "Joe's Corner Pizza" }, reviewPreview: { reviews: answer().data.storeReviews.reviews.map(({ __typename, ...r }: any) => r), nextCursor: 'n2', hasMore: false } } } };
  const o = adapter.parse(s, res(JSON.stringify(older)), ctx());
  assert.equal(o.records.length, 3);
  assert.equal(o.records[0].store_name, "Joe's Corner Pizza");
  assert.deepEqual(o.next, [], 'hasMore false ends the feed');
  const items = adapter.parse(s, res(answerWith([{ reviewUuid: 'x', starRating: 3, reviewText: 'ok', orderedItems: 'Soup • Bread' }])), ctx());
  assert.deepEqual(items.records[0].ordered_items, ['Soup', 'Bread']);
  const thin = adapter.parse(s, res(answerWith([{ __typename: 'ConsumerReview', starRating: 1 }], { hasNextPage: false })), ctx()).records[0];
  assert.equal(thin.review_id, null);
  assert.equal(thin.review_text, null);
  assert.ok(Value.Check(deliveryReviewRecord, thin));
  // A store without reviews: empty, no next page.
  assert.deepEqual(adapter.parse(s, res(answerWith([], { cursor: null, hasNextPage: false })), ctx()), { records: [], next: [] });
  // An empty page that claims more, or more without a cursor, ends (no loop).
  assert.deepEqual(adapter.parse(s, res(answerWith([], { cursor: 'c', hasNextPage: true })), ctx()).next, []);
  assert.deepEqual(adapter.parse(s, res(answerWith(answer().data.storeReviews.reviews, { hasNextPage: true })), ctx()).next, []);
  throwsType(() => adapter.parse(s, res('{"data":{"storeReviews":null}}'), ctx()), 'not_found');
  throwsType(() => adapter.parse(s, res('{"data":{"somethingElse":{"a":1}}}'), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(s, res(answerText.slice(0, 300)), ctx()), 'layout_changed');
  // A challenge page served with 200 (not typed by the executor): blocked, retried with a fresh session.
  throwsType(() => adapter.parse(s, res('<!DOCTYPE html><title>Just a moment...</title>', 200), ctx()), 'blocked');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Rate limit exceeded"}],"data":null}'), ctx()), 'rate_limited');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Cannot query field \\"storeReviews\\" on type \\"Query\\"."}],"data":null}'), ctx()), 'stale_request');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"UNAUTHENTICATED"}],"data":null}', 401), ctx()), 'blocked');
});

test('paid placements are left out (cards and ordered items); an entry that is no review card is layout_changed, never "no reviews"', () => {
  const base = adapter.parse(first(), res(answerText), ctx()).records;
  const withAds = answer();
  const list = withAds.data.storeReviews.reviews;
  list.splice(1, 0, { ...list[1], __typename: 'SponsoredConsumerReview', reviewUuid: 'ad-1', isSponsored: true });
  list[0].orderedItems.unshift({ __typename: 'ReviewOrderedItem', name: 'Promo Combo', isSponsored: true });
  assert.deepEqual(adapter.parse(first(), res(JSON.stringify(withAds)), ctx()).records, base);
  assert.deepEqual(parseCapture(JSON.stringify(withAds)).map((r) => r.review_id), base.map((r) => r.review_id));
  const wrapped = answer();
  wrapped.data.storeReviews.reviews[0] = { data: wrapped.data.storeReviews.reviews[0] };
  throwsType(() => adapter.parse(first(), res(JSON.stringify(wrapped)), ctx()), 'layout_changed');
  assert.throws(() => parseCapture(JSON.stringify(wrapped)), /entry 0 of the reviews list is no review card/);
});

test('cutoff: newest first, stops at the first older review', () => {
  const cutoff = Date.parse('2026-09-15T00:00:00Z') / 1000;
  const o = adapter.parse(first({ cutoff }), res(answerText), ctx({ cutoff }));
  assert.deepEqual(o.records.map((r) => r.author_name), ['Dana R']);
  assert.deepEqual(o.next, []);
});

test('trawl parse: an answer, a batch, a card list, the store page with its Apollo state', () => {
  const recs = parseCapture(answerText);
  assert.equal(recs.length, 3);
  assert.equal(recs[0].store_id, '24687');
  assert.equal(parseCapture(`[${answerText},${answerText}]`).length, 6);
  assert.equal(parseCapture(JSON.stringify(answer().data.storeReviews.reviews)).length, 3);
  const page = parseCapture(pageHtml);
  assert.deepEqual(page.map((r) => [r.store_id, r.store_name, r.author_name, r.review_datetime_utc]), [
    ['24687', "Joe's Corner Pizza", 'Dana R', '2026-09-20T00:00:00Z'],
    ['24687', "Joe's Corner Pizza", 'Priya', '2026-10-02T00:00:00Z'],
  ]);
  assert.deepEqual(page[1].ordered_items, ['Cheese Slice', 'Soda']);
  for (const r of [...recs, ...page]) assert.ok(Value.Check(deliveryReviewRecord, r));
  assert.throws(() => parseCapture('<!DOCTYPE html><title>Just a moment...</title><script>window._cf_chl_opt={}</script>'), /Cloudflare challenge page/);
  assert.throws(() => parseCapture('{"x":1}'), /expected a reviews answer/);
  assert.throws(() => parseCapture('{"data":{"storeReviews":null}}'), /no such store/);
});
