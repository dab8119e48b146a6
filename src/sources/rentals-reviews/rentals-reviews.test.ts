import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { rentalsReviewRecord } from '../../contract/records/rentals-reviews.ts';
import { adapter as rentalsReviews } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { KNOWN_API_KEY, KNOWN_HASH } from './plan.ts';
import { readListingQuery } from './query.ts';
import { monthStart } from './review.ts';
import type { RentalsParams } from './record.ts';

const capture = fixturePath('airbnb', 'StaysPdpReviewsQuery.response_2026-09.json');
const skip = fixtureMissing(capture);
const answerText = () => readFileSync(capture, 'utf8');
const answer = (): any => JSON.parse(answerText());
const pageHtml = readFileSync(new URL('./constructed-listing-page.html', import.meta.url), 'utf8');
const PAGE_HASH = 'fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210';
/** The answer the site gave a stale hash in 2026-09 (public capture of mcp-airbnb, shape as served). */
const STALE_200 = JSON.stringify({ errors: [{ message: 'Sorry, something went wrong.', locations: [{ line: 1, column: 131 }], extensions: { classification: 'ValidationError' } }], data: null, extensions: { traceId: 't' } });

const res = (body: string, status = 200, url = 'https://www.airbnb.com/api/v3/x'): FetchedResponse => ({ status, url, headers: {}, body });
const ctx = (params: RentalsParams = {}, query = '38817969') => ({ query, params });
const vars = (s: Step) => JSON.parse(new URL(s.url).searchParams.get('variables')!);
const ext = (s: Step) => JSON.parse(new URL(s.url).searchParams.get('extensions')!);

function firstReviewsStep(params: RentalsParams, html = pageHtml): Step {
  const [page] = rentalsReviews.plan(ctx(params));
  return rentalsReviews.parse(page, res(html, 200, page.url), ctx(params)).next![0];
}
/** The real answer with its reviews replaced (the envelope and metadata stay as served). */
function answerWith(reviews: unknown[], reviewsCount?: number): string {
  const a = answer();
  a.data.presentation.stayProductDetailPage.reviews.reviews = reviews;
  if (reviewsCount !== undefined) a.data.presentation.stayProductDetailPage.reviews.metadata.reviewsCount = reviewsCount;
  return JSON.stringify(a);
}
const throwsType = (fn: () => unknown, type: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === type, `expected SourceError(${type})`);

test('query items: listing links on any country host, /rooms/plus, query strings, ids and relay ids', () => {
  assert.deepEqual(readListingQuery('https://www.airbnb.com/rooms/38817969'), { id: '38817969' });
  assert.deepEqual(readListingQuery('https://www.airbnb.co.uk/rooms/plus/38817969?adults=2&check_in=2026-12-01#reviews'), { id: '38817969' });
  assert.deepEqual(readListingQuery('fr.airbnb.ca/rooms/1257736932578886647?source_impression_id=p3'), { id: '1257736932578886647' });
  assert.deepEqual(readListingQuery('https://airbnb.com.br/rooms/38817969/'), { id: '38817969' });
  assert.deepEqual(readListingQuery(' 1257736932578886647 '), { id: '1257736932578886647' });
  assert.deepEqual(readListingQuery(Buffer.from('StayListing:38817969').toString('base64')), { id: '38817969' });
  for (const bad of ['', 'loft in lyon', 'https://example.com/rooms/1', 'https://www.airbnb.com/s/Lyon/homes', 'https://www.airbnb.com/rooms/abc']) {
    assert.ok('error' in readListingQuery(bad), bad);
    assert.ok(rentalsReviews.checkQuery!(bad), bad);
  }
  throwsType(() => rentalsReviews.plan(ctx({}, 'https://example.com/rooms/1')), 'invalid_query');
});

test('plan: the listing page first (main host), then reviews with the page\'s API key and hash', () => {
  const [page] = rentalsReviews.plan(ctx({}, 'https://www.airbnb.fr/rooms/plus/38817969?guests=2'));
  assert.equal(page.kind, 'listing');
  assert.equal(page.url, 'https://www.airbnb.com/rooms/38817969');
  const s = firstReviewsStep({});
  assert.equal(s.kind, 'reviews');
  assert.equal(s.expect, 'json');
  const u = new URL(s.url);
  assert.equal(u.pathname, `/api/v3/StaysPdpReviewsQuery/${PAGE_HASH}`);
  assert.equal(u.searchParams.get('operationName'), 'StaysPdpReviewsQuery');
  assert.equal(u.searchParams.get('locale'), 'en');
  assert.deepEqual(ext(s), { persistedQuery: { version: 1, sha256Hash: PAGE_HASH } });
  assert.equal(s.headers!['x-airbnb-api-key'], 'c0nstructedapikey000000000000000');
  const v = vars(s);
  assert.equal(v.id, Buffer.from('StayListing:38817969').toString('base64'));
  assert.equal(v.pdpReviewsRequest.offset, '0');
  assert.equal(v.pdpReviewsRequest.limit, 24);
  // A page naming neither: the last known key and hash (never a page-less guess: the page is read first).
  const bare = firstReviewsStep({}, '<html><script id="data-deferred-state-0" type="application/json">{"niobeClientData":[]}</script></html>');
  assert.equal(bare.headers!['x-airbnb-api-key'], KNOWN_API_KEY);
  assert.equal(ext(bare).persistedQuery.sha256Hash, KNOWN_HASH);
  // Not a listing page at all (no app state, no key): layout changed.
  const [p2] = rentalsReviews.plan(ctx());
  throwsType(() => rentalsReviews.parse(p2, res('<html><body>Oops</body></html>', 200, p2.url), ctx()), 'layout_changed');
});

test('plan: every sort is the site\'s sortingPreference; cutoff forces MOST_RECENT', () => {
  for (const sort of ['MOST_RECENT', 'RATING_DESC', 'RATING_ASC'] as const) assert.equal(vars(firstReviewsStep({ sort })).pdpReviewsRequest.sortingPreference, sort);
  assert.equal(vars(firstReviewsStep({})).pdpReviewsRequest.sortingPreference, 'MOST_RECENT');
  assert.equal(vars(firstReviewsStep({ sort: 'RATING_ASC', cutoff: 1_700_000_000 })).pdpReviewsRequest.sortingPreference, 'MOST_RECENT');
});

test('the real answer, field by field (reviews 0, 2, 4, 19)', { skip }, () => {
  const out = rentalsReviews.parse(firstReviewsStep({}), res(answerText()), ctx());
  assert.equal(out.records.length, 24);
  assert.deepEqual(out.records[0], {
    query: '38817969', listing_id: '38817969', review_id: '1000001',
    review_text: 'Placeholder text 1.<br/>Placeholder text 1.<br/>Placeholder text 1.<br/>Placeholder text 1.',
    review_rating: 5, author_name: 'Person2', author_id: '1000004', review_timestamp: 1789482610, review_datetime_utc: '2026-09-15T14:30:10Z',
    language: 'en', host_response: null, host_response_timestamp: null, next_page_cursor: null,
    host_response_datetime_utc: null, host_response_date_text: null, review_date_text: '1 week ago', review_text_translated: null,
    author_image: 'https://example.com/fixture-image/39.jpg', author_location: 'Placeholder text 2.', host_name: 'Person1', host_id: '1000002',
    review_highlight: 'LENGTH_OF_STAY', review_photos: [],
  });
  const r2 = out.records[2];
  assert.equal(r2.review_id, '1000009');
  assert.equal(r2.language, 'fr');
  assert.equal(r2.review_text, 'Placeholder text 9.');
  assert.equal(r2.review_text_translated, 'Placeholder text 11.');
  assert.equal(r2.review_datetime_utc, '2026-09-25T08:40:19Z');
  assert.equal(r2.review_date_text, '3 days ago');
  assert.equal(r2.author_id, '1000010');
  const r4 = out.records[4];
  assert.equal(r4.review_rating, 4);
  assert.equal(r4.language, 'de');
  assert.equal(r4.review_timestamp, Date.parse('2026-09-12T14:28:51Z') / 1000);
  const r19 = out.records[19];
  assert.equal(r19.review_id, '1000060');
  assert.equal(r19.review_datetime_utc, '2022-06-01T13:47:11Z');
  assert.equal(r19.review_date_text, 'June 2022');
  for (const r of out.records) assert.ok(Value.Check(rentalsReviewRecord, r), JSON.stringify([...Value.Errors(rentalsReviewRecord, r)].slice(0, 2)));
  // 490 reviews: the next page asks from offset 24.
  assert.equal(out.next!.length, 1);
  assert.equal(vars(out.next![0]).pdpReviewsRequest.offset, '24');
  assert.equal(out.next![0].headers!['x-airbnb-api-key'], 'c0nstructedapikey000000000000000');
});

test('a stale hash (200 + ValidationError) re-reads the listing page once, then uses the fresh hash; refused again → typed error', { skip }, () => {
  const s1 = firstReviewsStep({});
  const o1 = rentalsReviews.parse(s1, res(STALE_200), ctx());
  assert.deepEqual(o1.records, [], 'never served as reviews');
  assert.equal(o1.next!.length, 1);
  assert.equal(o1.next![0].kind, 'listing', 'back to the listing page');
  assert.equal(o1.next![0].url, 'https://www.airbnb.com/rooms/38817969');
  // The page now names a fresh hash.
  const fresh = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const o2 = rentalsReviews.parse(o1.next![0], res(pageHtml.replace(PAGE_HASH, fresh), 200, o1.next![0].url), ctx());
  const s3 = o2.next![0];
  assert.equal(ext(s3).persistedQuery.sha256Hash, fresh);
  assert.equal(rentalsReviews.parse(s3, res(answerText()), ctx()).records.length, 24);
  // The page still names the refused hash: the last known one is tried instead.
  const o2b = rentalsReviews.parse(o1.next![0], res(pageHtml, 200, o1.next![0].url), ctx());
  assert.equal(ext(o2b.next![0]).persistedQuery.sha256Hash, KNOWN_HASH);
  // Refused a second time: the query fails with a reason, not with zero reviews.
  throwsType(() => rentalsReviews.parse(o2b.next![0], res(STALE_200), ctx()), 'stale_request');
  // Other forms of the same refusal.
  for (const body of ['{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}', '{"error_code":400,"error_type":"persisted_query_not_found","error_message":"x"}']) {
    const o = rentalsReviews.parse(s1, res(body, body.includes('error_code') ? 400 : 200), ctx());
    assert.equal(o.next![0].kind, 'listing', body);
  }
});

/** Keys of every object in reverse order. */
const reorder = (v: any): any => (Array.isArray(v) ? v.map(reorder) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reorder(x)])) : v);

test('an entry of the reviews list without a numeric review id (wrapped, renamed, another kind) is layout_changed, never a record', { skip }, () => {
  const s = firstReviewsStep({});
  const list = () => answer().data.presentation.stayProductDetailPage.reviews.reviews;
  for (const change of [
    (l: any[]) => { l[3] = { data: l[3] }; },
    (l: any[]) => { l[3].reviewId = l[3].id; delete l[3].id; },
    (l: any[]) => { l.splice(2, 0, { ...l[2], __typename: 'SponsoredPdpReviewForP3', id: 'AD 1000009' }); },
  ]) {
    const l = list();
    change(l);
    assert.throws(() => rentalsReviews.parse(s, res(answerWith(l)), ctx()), (e) => e instanceof SourceError && e.type === 'layout_changed' && /entry \d of the reviews list/.test(e.message));
    assert.throws(() => parseCapture(answerWith(l)), /has no numeric review id/);
  }
});

test('variants: reordered keys and reviews, truncated branches, empty, missing and error answers', { skip }, () => {
  const s = firstReviewsStep({});
  const base = rentalsReviews.parse(s, res(answerText()), ctx()).records;
  assert.deepEqual(rentalsReviews.parse(s, res(JSON.stringify(reorder(answer()))), ctx()).records, base);
  const reversed = answer().data.presentation.stayProductDetailPage.reviews.reviews.reverse();
  assert.deepEqual(rentalsReviews.parse(s, res(answerWith(reversed)), ctx()).records.map((r) => r.review_id), base.map((r) => r.review_id).reverse());
  // Truncated: a review without reviewer, reviewee, dates, text.
  const one = answer().data.presentation.stayProductDetailPage.reviews.reviews[0];
  for (const k of ['reviewer', 'reviewee', 'createdAt', 'comments', 'commentV2', 'language', 'localizedDate', 'localizedReviewerLocation']) delete one[k];
  const [t] = rentalsReviews.parse(s, res(answerWith([one], 1)), ctx()).records;
  assert.equal(t.review_id, '1000001');
  assert.equal(t.review_rating, 5);
  for (const k of ['author_name', 'author_id', 'author_image', 'host_name', 'host_id', 'review_timestamp', 'review_datetime_utc', 'review_text', 'language', 'review_date_text', 'author_location'] as const) assert.equal(t[k], null, k);
  assert.equal(t.next_page_cursor, null, 'last page');
  assert.ok(Value.Check(rentalsReviewRecord, t));
  // Empty: a listing without reviews: no records, no next page.
  const empty = rentalsReviews.parse(s, res(answerWith([], 0)), ctx());
  assert.deepEqual(empty.records, []);
  assert.deepEqual(empty.next, []);
  // Missing everything: typed errors.
  const a = answer();
  delete a.data.presentation;
  throwsType(() => rentalsReviews.parse(s, res(JSON.stringify(a)), ctx()), 'layout_changed');
  const b = answer();
  delete b.data.presentation.stayProductDetailPage.reviews.reviews;
  throwsType(() => rentalsReviews.parse(s, res(JSON.stringify(b)), ctx()), 'layout_changed');
  const c = answer();
  c.data.presentation.stayProductDetailPage.reviews = null;
  throwsType(() => rentalsReviews.parse(s, res(JSON.stringify(c)), ctx()), 'not_found');
  throwsType(() => rentalsReviews.parse(s, res('{}'), ctx()), 'layout_changed');
  throwsType(() => rentalsReviews.parse(s, res('<html>Access denied</html>'), ctx()), 'layout_changed');
  throwsType(() => rentalsReviews.parse(s, res('{"errors":[{"message":"Rate limit exceeded"}],"data":null}'), ctx()), 'rate_limited');
  throwsType(() => rentalsReviews.parse(s, res('{"error":"oops"}', 500), ctx()), 'layout_changed');
});

test('pages follow by offset (limit and cursor are the runner\'s); cutoff stops at the first older review', { skip }, () => {
  const p = { limit: 30 };
  const s1 = firstReviewsStep(p);
  const o1 = rentalsReviews.parse(s1, res(answerText()), ctx(p));
  assert.equal(o1.records.length, 24);
  const s2 = o1.next![0];
  assert.equal(vars(s2).pdpReviewsRequest.offset, '24');
  const o2 = rentalsReviews.parse(s2, res(answerText()), ctx(p));
  assert.equal(o2.records.length, 24, 'the runner cuts to the limit');
  assert.equal(vars(o2.next![0]).pdpReviewsRequest.offset, '48');
  assert.equal(o2.next![0].headers!['x-airbnb-api-key'], s1.headers!['x-airbnb-api-key'], 'the key and hash travel with the steps');
  // The last page (offset + page reaches reviewsCount 490) has no next step.
  const last = { ...s2, state: { ...s2.state, offset: 480 } };
  assert.deepEqual(rentalsReviews.parse(last, res(answerText()), ctx(p)).next, []);
  // cutoff 2026-09-01: the answer's first three reviews are newer, the fourth (2026-09-04) too, the fifth
  // (2026-09-12) too, the sixth (2026-08-02) is older: paging stops there.
  const cutoff = Date.parse('2026-09-01T00:00:00Z') / 1000;
  const o3 = rentalsReviews.parse(firstReviewsStep({ cutoff }), res(answerText()), ctx({ cutoff }));
  assert.deepEqual(o3.records.map((r) => r.review_id), ['1000001', '1000006', '1000009', '1000012', '1000015']);
  assert.deepEqual(o3.next, []);
  assert.ok(o3.records.every((r) => r.next_page_cursor === null));
});

test('trawl parse: the answer as served, an array of answers, a bare review list, the listing page with its state', { skip }, () => {
  const recs = parseCapture(answerText());
  assert.equal(recs.length, 24);
  assert.equal(recs[23].review_id, '1000072');
  assert.equal(recs[23].review_datetime_utc, '2024-08-04T11:19:05Z');
  assert.equal(parseCapture(`[${answerText()}]`).length, 24);
  assert.deepEqual(parseCapture(JSON.stringify(answer().data.presentation.stayProductDetailPage.reviews.reviews.slice(0, 2))).map((r) => r.review_id), ['1000001', '1000006']);
  assert.throws(() => parseCapture(STALE_200), /stale persisted-query hash/);
  assert.throws(() => parseCapture('{"x":1}'), /expected a StaysPdpReviewsQuery answer/);
  // The listing's own answer (StaysPdpSections, real sibling capture) holds the reviews section's
  // ratings and sort options but no review: not a reviews answer.
  const sections = fixturePath('airbnb', 'StaysPdpSections.hotel.response.json');
  if (!fixtureMissing(sections)) assert.throws(() => parseCapture(readFileSync(sections, 'utf8')), /expected a StaysPdpReviewsQuery answer/);
  // Sections that do embed reviews (older layouts) give them.
  const embedded = { data: { presentation: { stayProductDetailPage: { sections: { sections: [{ section: { __typename: 'StayPdpReviewsSection', reviews: answer().data.presentation.stayProductDetailPage.reviews.reviews.slice(0, 2) } }] } } } } };
  assert.deepEqual(parseCapture(JSON.stringify(embedded)).map((r) => r.review_id), ['1000001', '1000006']);
});

test('the listing page\'s embedded reviews, and month-precision host response dates', () => {
  const [a, b] = parseCapture(pageHtml);
  assert.equal(a.listing_id, '38817969');
  assert.equal(a.review_text, 'Lovely loft.<br/>Quiet &amp; bright.', 'kept as served');
  assert.equal(a.host_response, 'Merci Alex!<br/>Come back soon.');
  assert.equal(a.host_response_date_text, 'May 2026');
  assert.equal(a.host_response_timestamp, Date.UTC(2026, 4, 1) / 1000);
  assert.equal(a.host_response_datetime_utc, '2026-05-01T00:00:00Z');
  assert.equal(b.host_response, null);
  assert.equal(b.host_response_timestamp, null);
  assert.equal(b.review_text_translated, 'Well located.');
  assert.equal(monthStart('Response from host: January 2025'), Date.UTC(2025, 0, 1) / 1000);
  assert.equal(monthStart('2 weeks ago'), null);
  for (const r of [a, b]) assert.ok(Value.Check(rentalsReviewRecord, r));
  // An entry of the page's reviews without a numeric id is no review of the listing: left out.
  assert.deepEqual(parseCapture(pageHtml.replace('"id":"900000001"', '"id":"AD 900000001"')).map((r) => r.review_id), [b.review_id]);
});
