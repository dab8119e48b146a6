import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { SourceError } from '../_kit/errors.ts';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { launchsiteReviewRecord } from '../../contract/records/launchsite-reviews.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { QUERY } from './plan.ts';
import { readProductQuery } from './query.ts';
import type { LaunchsiteParams } from './record.ts';

const read = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');
const answerText = read('./constructed-reviews-answer.json');
const answer = (): any => JSON.parse(answerText);
const pageHtml = read('./constructed-product-page.html');
const PAGE_HASH = '9f3c1e0d5b7a4c2e8f6d1b3a5c7e9f0d2b4a6c8e0f1d3b5a7c9e1f3d5b7a9c1e';

const res = (body: string, status = 200, url = 'https://www.producthunt.com/frontend/graphql'): FetchedResponse => ({ status, url, headers: {}, body });
const ctx = (params: LaunchsiteParams = {}, query = 'quillmark') => ({ query, params });
const throwsType = (fn: () => unknown, type: string) =>
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === type, `expected SourceError(${type})`);
/** Variables of a reviews step, GET (persisted) or POST (query text). */
const vars = (s: Step) => (s.method === 'GET' ? JSON.parse(new URL(s.url).searchParams.get('variables')!) : JSON.parse(s.body!).variables);

function firstReviewsStep(params: LaunchsiteParams, html = pageHtml, query = 'quillmark'): Step {
  const [page] = adapter.plan(ctx(params, query));
  return adapter.parse(page, res(html, 200, page.url), ctx(params, query)).next![0];
}
function answerWith(edges: unknown[], pageInfo: Record<string, unknown> = { endCursor: 'MjA', hasNextPage: true }): string {
  const a = answer();
  a.data.product.reviews.edges = edges;
  a.data.product.reviews.pageInfo = pageInfo;
  return JSON.stringify(a);
}

test('query items: product links (any tail, query string), /posts/ links, slugs', () => {
  assert.deepEqual(readProductQuery('https://www.producthunt.com/products/quillmark'), { kind: 'product', slug: 'quillmark' });
  assert.deepEqual(readProductQuery('https://www.producthunt.com/products/quillmark/reviews?order=LATEST#r'), { kind: 'product', slug: 'quillmark' });
  assert.deepEqual(readProductQuery('producthunt.com/products/Quillmark/launches/quillmark-2'), { kind: 'product', slug: 'quillmark' });
  assert.deepEqual(readProductQuery('https://producthunt.com/posts/quillmark-2?utm_source=x'), { kind: 'post', slug: 'quillmark-2' });
  assert.deepEqual(readProductQuery(' quillmark '), { kind: 'product', slug: 'quillmark' });
  for (const bad of ['', 'best note app', 'https://example.com/products/x', 'https://www.producthunt.com/topics/ai', 'https://www.producthunt.com/products/']) {
    assert.ok('error' in readProductQuery(bad), bad);
    assert.ok(adapter.checkQuery!(bad), bad);
  }
  throwsType(() => adapter.plan(ctx({}, 'https://example.com/products/x')), 'invalid_query');
});

test('plan: the product\'s reviews page (or the launch page), then the persisted reviews operation with the page\'s hash', () => {
  const [page] = adapter.plan(ctx({ language: 'de', region: 'AT' }, 'https://www.producthunt.com/products/quillmark'));
  assert.equal(page.url, 'https://www.producthunt.com/products/quillmark/reviews');
  assert.equal(page.headers!['accept-language'], 'de-AT,de;q=0.9');
  assert.equal(adapter.plan(ctx({}, 'https://www.producthunt.com/posts/quillmark-2'))[0].url, 'https://www.producthunt.com/posts/quillmark-2');
  const s = firstReviewsStep({});
  assert.equal(s.kind, 'reviews');
  assert.equal(s.method, 'GET');
  const u = new URL(s.url);
  assert.equal(u.origin + u.pathname, 'https://www.producthunt.com/frontend/graphql');
  assert.equal(u.searchParams.get('operationName'), 'ProductReviewsPage');
  assert.deepEqual(JSON.parse(u.searchParams.get('extensions')!), { persistedQuery: { version: 1, sha256Hash: PAGE_HASH } });
  assert.deepEqual(vars(s), { slug: 'quillmark', order: 'BEST', first: 20, after: null });
  // A page naming no hash: POST with the query text.
  const bare = firstReviewsStep({}, pageHtml.replaceAll(PAGE_HASH, 'none'));
  assert.equal(bare.method, 'POST');
  assert.equal(JSON.parse(bare.body!).query, QUERY);
  assert.equal(JSON.parse(bare.body!).operationName, 'ProductReviewsPage');
  // A launch page names the product the reviews belong to.
  const launch = '<html><script id="__NEXT_DATA__" type="application/json">{"props":{"apolloState":{"Post:1":{"__typename":"Post","id":"1","slug":"quillmark-2","product":{"__ref":"Product:604112"}},"Product:604112":{"__typename":"Product","id":"604112","slug":"quillmark","name":"Quillmark"},"Product:9":{"__typename":"Product","id":"9","slug":"other","name":"Other"}}}}</script></html>';
  const viaPost = firstReviewsStep({}, launch, 'https://www.producthunt.com/posts/quillmark-2');
  assert.equal(vars(viaPost).slug, 'quillmark');
  assert.equal(viaPost.state!.productId, '604112');
  // A launch without a product: nothing to review, an empty success.
  const [lp] = adapter.plan(ctx({}, 'https://www.producthunt.com/posts/old-launch'));
  assert.deepEqual(adapter.parse(lp, res('<html><script id="__NEXT_DATA__" type="application/json">{"props":{"apolloState":{"Post:2":{"__typename":"Post","id":"2","product":null}}}}</script></html>', 200, lp.url), ctx({}, 'old-launch')), { records: [], next: [] });
  // Not an app page at all, and a 404.
  const [p] = adapter.plan(ctx());
  throwsType(() => adapter.parse(p, res('<html><body>Oops</body></html>', 200, p.url), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(p, res('<html>Not found</html>', 404, p.url), ctx()), 'not_found');
});

test('every sort is the site\'s own order; cutoff forces LATEST', () => {
  for (const sort of ['BEST', 'LATEST', 'FAVORABLE', 'CRITICAL'] as const) assert.equal(vars(firstReviewsStep({ sort })).order, sort);
  assert.equal(vars(firstReviewsStep({ sort: 'CRITICAL', cutoff: 1_700_000_000 })).order, 'LATEST');
});

test('a reviews answer field by field (constructed sample)', () => {
  const s = firstReviewsStep({});
  const out = adapter.parse(s, res(answerText), ctx({}, 'https://www.producthunt.com/products/quillmark'));
  assert.equal(out.records.length, 3);
  const [a, b, c] = out.records;
  assert.deepEqual(a, {
    query: 'https://www.producthunt.com/products/quillmark', product_id: '604112', product_name: 'Quillmark', review_id: '2210457', review_rating: 5,
    review_text: '<p>Fast, tidy and the keyboard shortcuts are great.</p><p>Sync &amp; search just work.</p>', sentiment: null,
    author_name: 'Ana Lima', author_username: 'analima', author_id: '3381021', review_timestamp: Date.parse('2026-09-14T15:12:33Z') / 1000,
    review_datetime_utc: '2026-09-14T15:12:33Z', votes_count: 12, review_link: 'https://www.producthunt.com/products/quillmark/reviews?review=2210457',
    next_page_cursor: null, product_slug: 'quillmark', product_rating: 4.62, product_reviews_count: 57, review_pros: null, review_cons: null,
    comments_count: 1, author_headline: 'Product manager', author_image: 'https://ph-avatars.imgix.net/3381021/constructed.png', author_link: 'https://www.producthunt.com/@analima',
  });
  assert.equal(b.review_link, 'https://www.producthunt.com/products/quillmark/reviews?review=2209113', 'built when the answer has no url');
  assert.equal(b.author_headline, null);
  assert.equal(c.review_rating, null);
  assert.equal(c.sentiment, 'positive');
  assert.equal(c.review_pros, 'Clean UI, fast search');
  assert.equal(c.review_cons, 'No offline mode');
  assert.equal(c.review_datetime_utc, '2019-03-05T10:00:00Z');
  for (const r of out.records) assert.ok(Value.Check(launchsiteReviewRecord, r));
  const next = out.next![0];
  assert.equal(vars(next).after, 'MjA');
  assert.equal(next.state!.productName, 'Quillmark');
});

test('variants: reordered keys, nodes instead of edges, a moved wrapper, truncated, empty, errors', () => {
  const s = firstReviewsStep({});
  // Reordered reviews and keys.
  const a = answer();
  const edges = a.data.product.reviews.edges.reverse().map((e: any) => ({ node: Object.fromEntries(Object.entries(e.node).reverse()) }));
  assert.deepEqual(adapter.parse(s, res(answerWith(edges)), ctx()).records.map((r) => r.review_id), ['118734', '2209113', '2210457']);
  // `nodes` instead of edges, under a newer wrapper (productBySlug inside viewer).
  const moved = { data: { viewer: { productBySlug: { __typename: 'Product', id: '604112', slug: 'quillmark', name: 'Quillmark', reviews: { nodes: answer().data.product.reviews.edges.map((e: any) => e.node), pageInfo: { hasNextPage: false, endCursor: null } } } } } };
  const m = adapter.parse(s, res(JSON.stringify(moved)), ctx());
  assert.equal(m.records.length, 3);
  assert.equal(m.records[0].product_name, 'Quillmark');
  assert.deepEqual(m.next, []);
  // A review missing most of its fields: nulls, never a throw.
  const thin = adapter.parse(s, res(answerWith([{ node: { __typename: 'Review', id: '5' } }], { hasNextPage: false })), ctx());
  assert.equal(thin.records[0].review_id, '5');
  assert.equal(thin.records[0].author_name, null);
  assert.equal(thin.records[0].review_timestamp, null);
  assert.ok(Value.Check(launchsiteReviewRecord, thin.records[0]));
  // No reviews: an empty page, no next step; the list ends at 0 of the 57 the product states (the
  // runner makes that `incomplete`).
  assert.deepEqual(adapter.parse(s, res(answerWith([], { endCursor: null, hasNextPage: false })), ctx()), { records: [], next: [], tallies: [{ key: 'quillmark', stated: 57, read: 0, end: 'end' }] });
  // An empty page that claims more ends the query (no loop).
  assert.deepEqual(adapter.parse(s, res(answerWith([], { endCursor: 'x', hasNextPage: true })), ctx()).next, []);
  // Truncated JSON, unknown product, a refusal, a rate limit, a layout without reviews.
  throwsType(() => adapter.parse(s, res(answerText.slice(0, 200)), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(s, res('{"data":{"product":null}}'), ctx()), 'not_found');
  throwsType(() => adapter.parse(s, res('{"data":{"product":{"id":"1","name":"X"}}}'), ctx()), 'layout_changed');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Too many requests"}],"data":null}'), ctx()), 'rate_limited');
  throwsType(() => adapter.parse(s, res('{"errors":[{"message":"Unauthorized"}]}', 403), ctx()), 'blocked');
  throwsType(() => adapter.parse(s, res('<html><title>Just a moment...</title></html>', 200), ctx()), 'blocked');
  throwsType(() => adapter.parse(s, res('oops', 500), ctx()), 'layout_changed');
});

test('a forgotten persisted hash resends the page with the query text, once', () => {
  const s = firstReviewsStep({});
  const refused = '{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}';
  const o = adapter.parse(s, res(refused), ctx());
  assert.deepEqual(o.records, []);
  const full = o.next![0];
  assert.equal(full.method, 'POST');
  assert.equal(JSON.parse(full.body!).query, QUERY);
  assert.deepEqual(vars(full), vars(s));
  throwsType(() => adapter.parse(full, res(refused), ctx()), 'stale_request');
  // The query text refused by the schema: stale, retryable, never "no reviews".
  throwsType(() => adapter.parse(full, res('{"errors":[{"message":"Cannot query field \\"pros\\" on type \\"Review\\""}]}'), ctx()), 'stale_request');
});

test('cutoff: newest first, stops at the first older review', () => {
  const cutoff = Date.parse('2026-09-10T00:00:00Z') / 1000;
  const s = firstReviewsStep({ cutoff });
  const o = adapter.parse(s, res(answerText), ctx({ cutoff }));
  assert.deepEqual(o.records.map((r) => r.review_id), ['2210457']);
  assert.deepEqual(o.next, []);
});

test('trawl parse: an answer, a batch, a review list, edges, the page with its Apollo state', () => {
  assert.equal(parseCapture(answerText).length, 3);
  assert.deepEqual(parseCapture(`[${answerText},${answerWith([answer().data.product.reviews.edges[0]])}]`).map((r) => r.review_id), ['2210457', '2209113', '118734', '2210457']);
  assert.equal(parseCapture(JSON.stringify(answer().data.product.reviews.edges)).length, 3);
  assert.equal(parseCapture(JSON.stringify(answer().data.product.reviews.edges.map((e: any) => e.node)))[2].sentiment, 'positive');
  const page = parseCapture(pageHtml);
  assert.deepEqual(page.map((r) => [r.review_id, r.author_name, r.product_name, r.product_id]), [['2210457', 'Ana Lima', 'Quillmark', '604112'], ['118734', 'Mia Chen', 'Quillmark', '604112']]);
  for (const r of page) assert.ok(Value.Check(launchsiteReviewRecord, r));
  // The app router's Apollo transport form.
  const transport = `<html><script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({"rehydrate":{},"events":[{"type":"next","value":${answerText}}]})</script></html>`;
  assert.equal(parseCapture(transport).length, 3);
  assert.throws(() => parseCapture('{"x":1}'), /expected a ProductReviewsPage answer/);
  assert.throws(() => parseCapture('<html>Just a moment...</html>'), /not a product page/);
  assert.throws(() => parseCapture('nope'), /neither JSON nor HTML/);
});
