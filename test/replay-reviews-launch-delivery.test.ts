/**
 * `/launchsite-reviews` and `/delivery-reviews` end to end, offline: the real adapters and executor
 * in replay mode, serving HAR archives built at test time from the constructed samples of each
 * source folder (no real capture of these sites exists). Proves plan → executor → parse (paging by
 * the site's cursor, a forgotten persisted hash) → store → HTTP → billing; that `limit` 10 plus its
 * cursor gives the same 20 reviews as `limit` 20; that a query finding nothing bills one review;
 * and that a Cloudflare challenge fails the query typed, never as an empty success.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { replayEntry, usageOf, withReplay } from './support/replay.ts';
import type { Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { adapter as launchsite } from '../src/sources/launchsite-reviews/adapter.ts';
import { adapter as delivery } from '../src/sources/delivery-reviews/adapter.ts';

const read = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
const productPage = read('../src/sources/launchsite-reviews/constructed-product-page.html');
const launchAnswer = JSON.parse(read('../src/sources/launchsite-reviews/constructed-reviews-answer.json'));
const deliveryAnswer = JSON.parse(read('../src/sources/delivery-reviews/constructed-reviews-answer.json'));

/** The step `parse` asks for next after `step` answered `body`. */
const nextOf = (a: WebAdapter<any, any>, step: Step, body: string, query: string, params: object = {}) =>
  a.parse(step, { status: 200, url: step.url, headers: {}, body }, { query, params }).next![0];

/** Launch-site page `n` of `pages`: 20 reviews (the constructed ones, ids made distinct), the site's cursor. */
function launchPage(n: number, pages: number): string {
  const a = structuredClone(launchAnswer);
  const base = a.data.product.reviews.edges;
  a.data.product.reviews.edges = Array.from({ length: 20 }, (_, i) => ({ ...base[i % 3], node: { ...base[i % 3].node, id: `${n}${String(i).padStart(2, '0')}` } }));
  a.data.product.reviews.pageInfo = { endCursor: n + 1 < pages ? `c${n + 1}` : null, hasNextPage: n + 1 < pages };
  return JSON.stringify(a);
}

/** Delivery page `n` of `pages`: 10 cards, the site's cursor. */
function deliveryPage(n: number, pages: number): string {
  const a = structuredClone(deliveryAnswer);
  const base = a.data.storeReviews.reviews;
  a.data.storeReviews.reviews = Array.from({ length: 10 }, (_, i) => ({ ...base[i % 3], reviewUuid: `r${n}-${i}` }));
  a.data.storeReviews.pageInfo = { cursor: n + 1 < pages ? `k${n + 1}` : null, hasNextPage: n + 1 < pages };
  return JSON.stringify(a);
}

const strip = (x: any) => ({ ...x, next_page_cursor: undefined });

test('/launchsite-reviews end to end: product page, persisted pages, 30 reviews billed 30; a forgotten hash falls back to the query text; cursor resumes; nothing found bills 1', { timeout: 60_000 }, async () => {
  const query = 'https://www.producthunt.com/products/quillmark/reviews';
  const [page] = launchsite.plan({ query, params: {} });
  const p0 = nextOf(launchsite, page, productPage, query);
  const p1 = nextOf(launchsite, p0, launchPage(0, 3), query);
  const p2 = nextOf(launchsite, p1, launchPage(1, 3), query);
  assert.equal(p0.method, 'GET', 'the page named a persisted hash');
  // A launch link whose product has no reviews, served after the site forgot the hash.
  const emptyQuery = 'https://www.producthunt.com/posts/inkpad-launch';
  const [launchStep] = launchsite.plan({ query: emptyQuery, params: {} });
  const launchHtml = productPage.replace('"ROOT_QUERY"', '"Post:9":{"__typename":"Post","id":"9","slug":"inkpad-launch","product":{"__ref":"Product:700"}},"Product:700":{"__typename":"Product","id":"700","slug":"inkpad","name":"Inkpad"},"ROOT_QUERY"');
  const persisted = nextOf(launchsite, launchStep, launchHtml, emptyQuery);
  const refused = '{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}';
  const withText = nextOf(launchsite, persisted, refused, emptyQuery);
  assert.equal(withText.method, 'POST');
  assert.equal(JSON.parse(withText.body!).variables.slug, 'inkpad', 'the launch\'s product');
  const none = structuredClone(launchAnswer);
  none.data.product.reviews = { edges: [], pageInfo: { endCursor: null, hasNextPage: false }, totalCount: 0 };
  const entries = [
    replayEntry(page, productPage, 'text/html'),
    replayEntry(p0, launchPage(0, 3), 'application/json'),
    replayEntry(p1, launchPage(1, 3), 'application/json'),
    replayEntry(p2, launchPage(2, 3), 'application/json'),
    replayEntry(launchStep, launchHtml, 'text/html'),
    replayEntry(persisted, refused, 'application/json'),
    replayEntry(withText, JSON.stringify(none), 'application/json'),
  ];
  await withReplay(entries, async (h) => {
    const r = await h.json(`/launchsite-reviews?query=${encodeURIComponent(query)}&limit=30&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const list = r.body.data[0];
    assert.equal(list.length, 30);
    assert.equal(list[0].review_id, '000');
    assert.equal(list[20].review_id, '100');
    assert.equal(list[0].product_name, 'Quillmark');
    assert.equal(list[0].author_username, 'analima');
    assert.equal(list[0].query, query);
    assert.ok(list[29].next_page_cursor, 'more reviews remain');
    assert.equal(await usageOf(h, r.body.id), '30');

    const all = (await h.json(`/launchsite-reviews?query=${encodeURIComponent(query)}&limit=20&async=false`)).body.data[0];
    const head = (await h.json(`/launchsite-reviews?query=${encodeURIComponent(query)}&limit=10&async=false`)).body.data[0];
    const rest = (await h.json(`/launchsite-reviews?query=${encodeURIComponent(query)}&limit=10&cursor=${encodeURIComponent(head[9].next_page_cursor)}&async=false`)).body.data[0];
    assert.deepEqual([...head, ...rest].map(strip), all.map(strip));
    const tail = (await h.json(`/launchsite-reviews?query=${encodeURIComponent(query)}&limit=100&cursor=${encodeURIComponent(all[19].next_page_cursor)}&async=false`)).body.data[0];
    assert.equal(tail.length, 40);
    assert.equal(tail[39].next_page_cursor, null, 'the end of the feed');

    const empty = await h.json(`/launchsite-reviews?query=${encodeURIComponent(emptyQuery)}&async=false`);
    assert.equal(empty.status, 200, JSON.stringify(empty.body).slice(0, 300));
    assert.deepEqual(empty.body.data, [[]]);
    assert.equal(await usageOf(h, empty.body.id), '1', 'a query that finds nothing bills one review');
  });
});

test('/delivery-reviews end to end: a menu-item link, 25 reviews over three pages billed 25; cursor resumes; an empty store bills 1; a Cloudflare challenge fails typed', { timeout: 60_000 }, async () => {
  const query = 'https://www.doordash.com/store/joes-corner-pizza-24687/31337/item/998877/';
  const [s0] = delivery.plan({ query, params: {} });
  const s1 = nextOf(delivery, s0, deliveryPage(0, 4), query);
  const s2 = nextOf(delivery, s1, deliveryPage(1, 4), query);
  const s3 = nextOf(delivery, s2, deliveryPage(2, 4), query);
  const [emptyStep] = delivery.plan({ query: '55555', params: {} });
  const noReviews = structuredClone(deliveryAnswer);
  noReviews.data.storeReviews.reviews = [];
  noReviews.data.storeReviews.pageInfo = { cursor: null, hasNextPage: false };
  const [blockedStep] = delivery.plan({ query: '77777', params: {} });
  const challenge = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:"managed"}</script><script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script></body></html>';
  const entries = [
    replayEntry(s0, deliveryPage(0, 4), 'application/json'),
    replayEntry(s1, deliveryPage(1, 4), 'application/json'),
    replayEntry(s2, deliveryPage(2, 4), 'application/json'),
    replayEntry(s3, deliveryPage(3, 4), 'application/json'),
    replayEntry(emptyStep, JSON.stringify(noReviews), 'application/json'),
    replayEntry(blockedStep, challenge, 'text/html', 403),
  ];
  await withReplay(entries, async (h) => {
    const r = await h.json(`/delivery-reviews?query=${encodeURIComponent(query)}&limit=25&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const list = r.body.data[0];
    assert.equal(list.length, 25);
    assert.deepEqual([list[0].review_id, list[10].review_id, list[24].review_id], ['r0-0', 'r1-0', 'r2-4']);
    assert.equal(list[0].store_id, '24687');
    assert.equal(list[0].store_name, "Joe's Corner Pizza");
    assert.deepEqual(list[0].ordered_items, ['Large Margherita', 'Garlic Knots']);
    assert.equal(await usageOf(h, r.body.id), '25');

    const all = (await h.json(`/delivery-reviews?query=${encodeURIComponent(query)}&limit=20&async=false`)).body.data[0];
    const head = (await h.json(`/delivery-reviews?query=${encodeURIComponent(query)}&limit=10&async=false`)).body.data[0];
    const rest = (await h.json(`/delivery-reviews?query=${encodeURIComponent(query)}&limit=10&cursor=${encodeURIComponent(head[9].next_page_cursor)}&async=false`)).body.data[0];
    assert.deepEqual([...head, ...rest].map(strip), all.map(strip));

    const empty = await h.json('/delivery-reviews?query=55555&async=false');
    assert.equal(empty.status, 200, JSON.stringify(empty.body).slice(0, 300));
    assert.deepEqual(empty.body.data, [[]]);
    assert.equal(await usageOf(h, empty.body.id), '1');

    const blocked = await h.json('/delivery-reviews?query=77777&async=false');
    assert.equal(blocked.body.status, 'Failure', JSON.stringify(blocked.body).slice(0, 300));
    assert.deepEqual(blocked.body.errors.map((e: any) => [e.query, e.error.type]), [['77777', 'captcha']]);
  });
});

test('/launchsite-reviews and /delivery-reviews refuse at submit (422) query items they cannot read', { timeout: 60_000 }, async () => {
  await withReplay([], async (h) => {
    const a = await h.json(`/launchsite-reviews?query=${encodeURIComponent('https://example.com/products/x')}&async=false`);
    assert.equal(a.status, 422);
    assert.match(a.body.errorMessage, /product-launch site link/);
    const b = await h.json(`/delivery-reviews?query=${encodeURIComponent('pizza near me')}&async=false`);
    assert.equal(b.status, 422);
    assert.match(b.body.errorMessage, /store or menu-item link/);
  });
});
