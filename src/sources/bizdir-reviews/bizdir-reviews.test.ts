import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { bizdirReviewRecord } from '../../contract/records/bizdir-reviews.ts';
import { adapter as bizdirReviews } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { KNOWN_DOCUMENT_ID, SORT_BY, afterOf } from './plan.ts';
import { readBizQuery } from './query.ts';
import type { BizdirParams, BizdirReview } from './record.ts';

const capture = fixturePath('yelp', 'scrapfly_gql_review_edges_2024-02.json');
const skip = fixtureMissing(capture);
const edges = (): any[] => JSON.parse(readFileSync(capture, 'utf8'));
const pageHtml = readFileSync(new URL('./constructed-biz-page.html', import.meta.url), 'utf8');

const res = (body: string, url = 'https://www.yelp.com/gql/batch'): FetchedResponse => ({ status: 200, url, headers: {}, body });
const ctx = (params: BizdirParams = {}, query = 'vons-1000-spirits-seattle-4') => ({ query, params });
const VONS = { encid: 'Lw7NmZ3j-WEye97ywEmkXQ', alias: 'vons-1000-spirits-seattle-4', name: "Von's 1000 Spirits" };

/** A feed answer as the site batches it, around real edges (the capture holds the edges only). */
const feed = (list: unknown[], o: { hasNextPage?: boolean; reviewCount?: number } = {}) =>
  JSON.stringify([{ data: { business: { ...VONS, reviewCount: o.reviewCount ?? 240, reviews: { edges: list, ...(o.hasNextPage === undefined ? {} : { pageInfo: { hasNextPage: o.hasNextPage } }) } } } }]);

/** The feed step the business page leads to. */
function firstFeedStep(params: BizdirParams): Step {
  const [page] = bizdirReviews.plan(ctx(params));
  const out = bizdirReviews.parse(page, res(pageHtml, page.url), ctx(params));
  return out.next![0];
}
const feedVars = (s: Step) => JSON.parse(s.body!)[0].variables;

const throwsType = (fn: () => unknown, type: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === type, `expected SourceError(${type})`);

test('query items: business links (query strings, m. host, country sites) and ids (alias or encid)', () => {
  assert.deepEqual(readBizQuery('https://www.yelp.com/biz/vons-1000-spirits-seattle-4'), { id: 'vons-1000-spirits-seattle-4', form: 'alias' });
  assert.deepEqual(readBizQuery('https://m.yelp.com/biz/vons-1000-spirits-seattle-4?osq=Bars&hrid=x#reviews'), { id: 'vons-1000-spirits-seattle-4', form: 'alias' });
  assert.deepEqual(readBizQuery('www.yelp.co.uk/biz/caf%C3%A9-de-flore-paris'), { id: 'café-de-flore-paris', form: 'alias' });
  assert.deepEqual(readBizQuery('https://www.yelp.com/biz_photos/vons-1000-spirits-seattle-4?tab=food'), { id: 'vons-1000-spirits-seattle-4', form: 'alias' });
  assert.deepEqual(readBizQuery('Lw7NmZ3j-WEye97ywEmkXQ'), { id: 'Lw7NmZ3j-WEye97ywEmkXQ', form: 'encid' });
  assert.deepEqual(readBizQuery(' vons-1000-spirits-seattle-4 '), { id: 'vons-1000-spirits-seattle-4', form: 'alias' });
  for (const bad of ['', 'coffee near me', 'https://example.com/biz/x', 'https://www.yelp.com/search?find_desc=pizza', 'https://www.yelp.com/biz/']) {
    assert.ok('error' in readBizQuery(bad), bad);
    assert.ok(bizdirReviews.checkQuery!(bad), bad);
  }
  throwsType(() => bizdirReviews.plan(ctx({}, 'https://example.com/biz/x')), 'invalid_query');
});

test('plan: the business page first, on the site\'s main host whatever host the link named', () => {
  const [s] = bizdirReviews.plan(ctx({}, 'https://m.yelp.com/biz/vons-1000-spirits-seattle-4?osq=Bars'));
  assert.equal(s.kind, 'biz-page');
  assert.equal(s.url, 'https://www.yelp.com/biz/vons-1000-spirits-seattle-4');
  assert.equal(s.expect, 'html');
  assert.equal(bizdirReviews.plan(ctx({}, 'Lw7NmZ3j-WEye97ywEmkXQ'))[0].url, 'https://www.yelp.com/biz/Lw7NmZ3j-WEye97ywEmkXQ');
});

test('plan: every sort of the declaration becomes the site\'s sortBy; cutoff forces DATE_DESC', () => {
  const expected: Record<string, string> = { relevance_desc: 'RELEVANCE_DESC', date_desc: 'DATE_DESC', date_asc: 'DATE_ASC', rating_desc: 'RATING_DESC', rating_asc: 'RATING_ASC', elites_desc: 'ELITES_DESC' };
  assert.deepEqual(SORT_BY, expected);
  for (const [sort, sortBy] of Object.entries(expected)) assert.equal(feedVars(firstFeedStep({ sort: sort as any })).sortBy, sortBy, sort);
  assert.equal(feedVars(firstFeedStep({})).sortBy, 'RELEVANCE_DESC', 'default relevance_desc');
  assert.equal(feedVars(firstFeedStep({ sort: 'rating_asc', cutoff: 1_700_000_000 })).sortBy, 'DATE_DESC');
});

test('business page → the feed request: encid and document id from the page, batch POST with the operation', () => {
  const s = firstFeedStep({});
  assert.equal(s.kind, 'review-feed');
  assert.equal(s.url, 'https://www.yelp.com/gql/batch');
  assert.equal(s.method, 'POST');
  assert.equal(s.headers!['x-apollo-operation-name'], 'GetBusinessReviewFeed');
  assert.equal(s.headers!.referer, 'https://www.yelp.com/biz/constructed-diner-springfield-2');
  const [op] = JSON.parse(s.body!);
  assert.equal(op.operationName, 'GetBusinessReviewFeed');
  assert.deepEqual(op.extensions, { operationType: 'query', documentId: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' });
  assert.equal(op.variables.encBizId, 'Zq9xConstructedBiz0001');
  assert.equal(op.variables.reviewsPerPage, 10);
  assert.equal(op.variables.after, null, 'first page: no after');
  // A page whose scripts do not name the id: the last known one.
  const [page] = bizdirReviews.plan(ctx());
  const bare = '<html><head><meta name="yelp-biz-id" content="Lw7NmZ3j-WEye97ywEmkXQ"></head><body></body></html>';
  const s2 = bizdirReviews.parse(page, res(bare, page.url), ctx()).next![0];
  assert.equal(JSON.parse(s2.body!)[0].extensions.documentId, KNOWN_DOCUMENT_ID);
  assert.equal(feedVars(s2).encBizId, 'Lw7NmZ3j-WEye97ywEmkXQ');
  // A page with no business id at all: the layout changed (never an empty success).
  throwsType(() => bizdirReviews.parse(page, res('<html><body>Welcome</body></html>', page.url), ctx()), 'layout_changed');
});

test('the real capture, field by field (review 0, 2 and 6 of the 2024-02 feed)', { skip }, () => {
  const all = edges();
  const out = bizdirReviews.parse(firstFeedStep({ limit: 100 }), res(feed(all.slice(0, 10), { hasNextPage: true })), ctx({ limit: 100 }));
  assert.equal(out.records.length, 10);
  const [r0, , r2] = out.records;
  const r6 = out.records[6];
  assert.deepEqual(r0, {
    query: 'vons-1000-spirits-seattle-4', business_name: "Von's 1000 Spirits", review_rating: 4,
    review_text: all[0].node.text.full,
    review_photos: ['https://s3-media0.fl.yelpcdn.com/bphoto/eQ1pmGqBL4mdlbESpEDVsA/o.jpg'], review_tags: [], owner_replies: [],
    review_id: 'NhoqrEH2ZzyI_8z-mTya5w', business_id: 'Lw7NmZ3j-WEye97ywEmkXQ', author_id: '3uyKeqB-TROSHkljr2Oz-A', author_title: 'Lizzie G.',
    author_link: 'https://www.yelp.com/user_details?userid=3uyKeqB-TROSHkljr2Oz-A', review_timestamp: 1708701029, review_datetime_utc: '2024-02-23T15:10:29Z',
    review_likes: 0, language: 'en', next_page_cursor: null,
    business_alias: 'vons-1000-spirits-seattle-4', review_link: 'https://www.yelp.com/biz/vons-1000-spirits-seattle-4?hrid=NhoqrEH2ZzyI_8z-mTya5w',
    review_local_datetime: '2024-02-23T07:10:29-08:00', review_reactions: { helpful: 0, thanks: 0, love_this: 0, oh_no: 0 },
    review_feedback: { useful: 0, funny: 0, cool: 0 }, author_image: 'https://s3-media0.fl.yelpcdn.com/photo/4r-53Ax2LbsxmNWod3kiYQ/60s.jpg',
    author_location: 'Seattle, WA', author_reviews_count: 6, author_friends_count: 0, author_photos_count: 6, author_elite_year: null,
  });
  // The text is the site's, untouched: its own line breaks are kept.
  assert.ok(r0.review_text!.startsWith("Only come to Vons if you're starving!! I had this massive burger and plate of fries & left FULL. \nWe came around dinner time"));
  assert.equal(r2.review_id, '0c0ASru2cWdP3XkaPBaJpQ');
  assert.equal(r2.review_rating, 5);
  assert.equal(r2.author_title, 'Faith B.');
  assert.equal(r2.author_id, '9qQypRSJ6SYbTwblOT6YMw');
  assert.equal(r2.author_elite_year, '24');
  assert.deepEqual(r2.review_tags, ['Elite 24', '1 check-in']);
  assert.equal(r2.review_photos.length, 10);
  assert.equal(r2.review_photos[0], 'https://s3-media0.fl.yelpcdn.com/bphoto/t7a29I8nLiovtAlmpoFgkA/o.jpg');
  assert.equal(r2.review_datetime_utc, '2024-02-22T21:16:42Z');
  assert.equal(r2.review_timestamp, 1708636602);
  assert.equal(r2.author_reviews_count, 34);
  assert.equal(r2.author_friends_count, 3);
  assert.equal(r2.author_photos_count, 294);
  assert.equal(r6.review_id, 'MQh7revPZJfJ1HDiGvBsZw');
  assert.deepEqual(r6.review_reactions, { helpful: 0, thanks: 1, love_this: 0, oh_no: 0 });
  assert.equal(r6.review_likes, 0, 'likes count the Helpful reaction, not thanks');
  assert.equal(out.records[3].review_rating, 1);
  assert.equal(out.records[3].author_location, "Land O Lakes, Land O' Lakes, FL");
  for (const r of out.records) assert.ok(Value.Check(bizdirReviewRecord, r), JSON.stringify([...Value.Errors(bizdirReviewRecord, r)].slice(0, 2)));
  // More pages: the next feed step asks from offset 10.
  assert.equal(out.next!.length, 1);
  assert.equal(feedVars(out.next![0]).after, afterOf(10));
  assert.deepEqual(JSON.parse(Buffer.from(feedVars(out.next![0]).after, 'base64').toString()), { version: 1, type: 'offset', offset: 10 });
});

test('trawl parse: bare edges list (the capture as served), one answer, a batch, the business page', { skip }, () => {
  const recs = parseCapture(readFileSync(capture, 'utf8'));
  assert.equal(recs.length, 30);
  assert.equal(recs[0].review_id, 'NhoqrEH2ZzyI_8z-mTya5w');
  assert.equal(recs[0].business_name, "Von's 1000 Spirits");
  assert.equal(recs[9].review_id, 'pLvp0HpR-SMereDXQveygg');
  assert.equal(recs[9].review_datetime_utc, '2024-02-18T06:41:19Z');
  assert.ok(recs.every((r) => r.next_page_cursor === null));
  const one = JSON.stringify(JSON.parse(feed(edges().slice(0, 3)))[0]);
  assert.deepEqual(parseCapture(one).map((r) => r.review_id), ['NhoqrEH2ZzyI_8z-mTya5w', '9RkXwgvHJic-LTrTqZDtew', '0c0ASru2cWdP3XkaPBaJpQ']);
  const batch = JSON.stringify([{ data: { other: 1 } }, ...JSON.parse(feed(edges().slice(3, 5)))]);
  assert.deepEqual(parseCapture(batch).map((r) => r.review_rating), [1, 4]);
  assert.throws(() => parseCapture('{"hello": 1}'), /expected a GetBusinessReviewFeed answer/);
  assert.throws(() => parseCapture('not json'), /neither JSON nor HTML/);
});

test('the business page with its embedded state: references resolved, text kept as served (<br>, entities)', () => {
  const [r] = parseCapture(pageHtml);
  assert.deepEqual(r, {
    query: 'constructed-diner-springfield-2', business_name: 'Constructed Diner & Bar', review_rating: 3,
    review_text: 'Good pie.<br>Coffee was cold &amp; bitter.', review_photos: [], review_tags: ['Elite 25', '2 check-ins', 'First to Review'],
    owner_replies: [{ reply_text: 'Thanks Pat &mdash; we fixed the machine.', reply_timestamp: 1772528400, reply_datetime_utc: '2026-03-03T09:00:00Z', replier_name: 'Sam O.' }],
    review_id: 'Rc0nstructedReview00001', business_id: 'Zq9xConstructedBiz0001', author_id: 'Uc0nstructedAuthor00001', author_title: 'Pat Q.',
    author_link: 'https://www.yelp.com/user_details?userid=Uc0nstructedAuthor00001', review_timestamp: 1772389800, review_datetime_utc: '2026-03-01T18:30:00Z',
    review_likes: 2, language: 'en', business_alias: 'constructed-diner-springfield-2',
    review_link: 'https://www.yelp.com/biz/constructed-diner-springfield-2?hrid=Rc0nstructedReview00001', review_local_datetime: '2026-03-01T12:30:00-06:00',
    review_reactions: null, review_feedback: { useful: 2, funny: 0, cool: 1 }, author_image: null, author_location: 'Springfield, IL',
    author_reviews_count: 12, author_friends_count: 3, author_photos_count: 4, author_elite_year: '25', next_page_cursor: null,
  });
  assert.ok(Value.Check(bizdirReviewRecord, r));
  // Its Review objects there but none reading as one (the id renamed): the layout changed, not "no reviews".
  assert.throws(() => parseCapture(pageHtml.replace('"encid":"Rc0nstructedReview00001"', '"reviewEncid":"Rc0nstructedReview00001"')), /1 Review objects and none reads/);
});

/** Keys of every object in reverse order. */
const reorder = (v: any): any => (Array.isArray(v) ? v.map(reorder) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reorder(x)])) : v);

test('variants: reordered keys and edges, truncated branches (null fields), empty and missing answers', { skip }, () => {
  const step = firstFeedStep({});
  const page = (list: unknown[], o = {}) => bizdirReviews.parse(step, res(feed(list, o)), ctx()).records;
  const base = page(edges().slice(0, 10), { hasNextPage: true });
  assert.deepEqual(bizdirReviews.parse(step, res(JSON.stringify(reorder(JSON.parse(feed(edges().slice(0, 10), { hasNextPage: true }))))), ctx()).records, base);
  assert.deepEqual(page(edges().slice(0, 10).reverse(), { hasNextPage: true }).map((r) => r.review_id), base.map((r) => r.review_id).reverse());
  // Truncated: a node without author, business, text, dates or photos.
  const cut = edges().slice(0, 1);
  for (const k of ['author', 'business', 'text', 'createdAt', 'businessPhotos', 'feedback', 'availableReactionsContainer', 'tags']) delete cut[0].node[k];
  const [t] = page(cut, { hasNextPage: false });
  assert.equal(t.review_id, 'NhoqrEH2ZzyI_8z-mTya5w');
  assert.equal(t.review_rating, 4);
  for (const k of ['author_id', 'author_title', 'author_link', 'author_image', 'author_location', 'author_reviews_count', 'review_text', 'language', 'review_timestamp', 'review_datetime_utc', 'review_likes', 'review_reactions', 'review_feedback'] as const) assert.equal(t[k], null, k);
  assert.deepEqual(t.review_photos, []);
  assert.deepEqual(t.review_tags, []);
  // A photo without its lightbox link: the sized link, brought back to the original size (not a thumbnail).
  const sized = edges().slice(0, 1);
  delete sized[0].node.businessPhotos[0].photoUrl.lightboxMediaItemUrl;
  sized[0].node.businessPhotos[0].photoUrl.url = 'https://s3-media0.fl.yelpcdn.com/bphoto/eQ1pmGqBL4mdlbESpEDVsA/348s.jpg';
  assert.deepEqual(page(sized)[0].review_photos, ['https://s3-media0.fl.yelpcdn.com/bphoto/eQ1pmGqBL4mdlbESpEDVsA/o.jpg']);
  // A photo entry flagged as an ad, or one whose link is no link: none of the review's photos.
  const ad = edges().slice(0, 1);
  ad[0].node.businessPhotos.unshift({ ...ad[0].node.businessPhotos[0], isSponsored: true }, { photoUrl: { lightboxMediaItemUrl: 'AD https://x/o.jpg' } });
  assert.deepEqual(page(ad)[0].review_photos, ['https://s3-media0.fl.yelpcdn.com/bphoto/eQ1pmGqBL4mdlbESpEDVsA/o.jpg']);
  // The business comes from the answer's business (the node lost its own).
  assert.equal(t.business_name, "Von's 1000 Spirits");
  assert.equal(t.next_page_cursor, null, 'last page');
  assert.ok(Value.Check(bizdirReviewRecord, t));
  // Empty: a business without reviews is an empty page, no next step.
  const empty = bizdirReviews.parse(step, res(feed([], { hasNextPage: false, reviewCount: 0 })), ctx());
  assert.deepEqual(empty.records, []);
  assert.deepEqual(empty.next, []);
  // Missing everything: typed errors, never "no reviews".
  throwsType(() => bizdirReviews.parse(step, res('{}'), ctx()), 'layout_changed');
  throwsType(() => bizdirReviews.parse(step, res('[{"data":{}}]'), ctx()), 'layout_changed');
  throwsType(() => bizdirReviews.parse(step, res('[{"data":{"business":{"encid":"x"}}}]'), ctx()), 'layout_changed');
  throwsType(() => bizdirReviews.parse(step, res('<html>Forbidden</html>'), ctx()), 'layout_changed');
  throwsType(() => bizdirReviews.parse(step, res('[{"data":{"business":null}}]'), ctx()), 'not_found');
  throwsType(() => bizdirReviews.parse(step, res('[{"data":null,"errors":[{"message":"Too many requests","extensions":{"code":"RATE_LIMITED"}}]}]'), ctx()), 'rate_limited');
  throwsType(() => bizdirReviews.parse(step, res('[{"errors":[{"message":"Unknown documentId"}]}]'), ctx()), 'layout_changed');
});

test('pages follow one another by offset; limit and next_page_cursor are the runner\'s (every review of a page kept, next page asked)', { skip }, () => {
  const p = { limit: 5 };
  const s1 = firstFeedStep(p);
  const o1 = bizdirReviews.parse(s1, res(feed(edges().slice(0, 10), { hasNextPage: true })), ctx(p));
  assert.equal(o1.records.length, 10, 'the runner cuts to the limit, so the cut point can resume inside this page');
  assert.ok(o1.records.every((r) => r.next_page_cursor === null), 'the runner signs the cursor');
  const s2 = o1.next![0];
  assert.equal(feedVars(s2).after, afterOf(10));
  assert.equal(feedVars(s2).encBizId, feedVars(s1).encBizId);
  const o2 = bizdirReviews.parse(s2, res(feed(edges().slice(10, 20), { hasNextPage: true })), ctx(p));
  assert.equal(feedVars(o2.next![0]).after, afterOf(20));
});

test('cutoff: newest first, paging stops at the first older review, its cursor is null', { skip }, () => {
  const cutoff = Date.parse('2024-02-20T00:00:00Z') / 1000;
  const p = { cutoff };
  const s = firstFeedStep(p);
  assert.equal(feedVars(s).sortBy, 'DATE_DESC');
  const o = bizdirReviews.parse(s, res(feed(edges().slice(0, 10), { hasNextPage: true })), ctx(p));
  assert.deepEqual(o.records.map((r) => r.review_datetime_utc), ['2024-02-23T15:10:29Z', '2024-02-23T09:41:51Z', '2024-02-22T21:16:42Z', '2024-02-21T04:44:19Z', '2024-02-20T04:19:01Z']);
  assert.deepEqual(o.next, []);
  assert.ok(o.records.every((r) => r.next_page_cursor === null));
});

test('no more pages when the answer says so, or (without pageInfo) when the review count is reached', { skip }, () => {
  const s = firstFeedStep({});
  assert.deepEqual(bizdirReviews.parse(s, res(feed(edges().slice(0, 10), { hasNextPage: false })), ctx()).next, []);
  assert.deepEqual(bizdirReviews.parse(s, res(feed(edges().slice(0, 10), { reviewCount: 10 })), ctx()).next, []);
  assert.equal(bizdirReviews.parse(s, res(feed(edges().slice(0, 10), { reviewCount: 11 })), ctx()).next!.length, 1);
});

// Keeps the record type honest: the declared schema accepts what the parser builds.
test('records match the declared schema', { skip }, () => {
  const recs: BizdirReview[] = parseCapture(readFileSync(capture, 'utf8'));
  for (const r of recs) assert.ok(Value.Check(bizdirReviewRecord, r));
});
