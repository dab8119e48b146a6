/**
 * The review adapters under the durable runner: a query interrupted in the middle of its feed
 * resumes at the page that failed (finished pages never fetched again, records once, billed once),
 * and a signed next_page_cursor continues exactly after the records returned. Multi-page feeds are
 * constructed at test time from the real captures (each page's review ids made distinct), and from
 * the constructed samples of the two sources no public capture exists for (launch site, delivery).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { Runner } from '../src/engine/runner.ts';
import { SourceError } from '../src/sources/_kit/errors.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import type { Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { adapter as bizdir } from '../src/sources/bizdir-reviews/adapter.ts';
import { adapter as rentals } from '../src/sources/rentals-reviews/adapter.ts';
import { adapter as launchsite } from '../src/sources/launchsite-reviews/adapter.ts';
import { adapter as delivery } from '../src/sources/delivery-reviews/adapter.ts';

const yelpEdges = fixturePath('yelp', 'scrapfly_gql_review_edges_2024-02.json');
const airbnbAnswer = fixturePath('airbnb', 'StaysPdpReviewsQuery.response_2026-09.json');
const html = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');

/** Feed pages (offset → body) of `pages` pages, every review id suffixed with its page. */
function yelpFeed(pages: number): (offset: number) => string {
  const edges = JSON.parse(readFileSync(yelpEdges, 'utf8')).slice(0, 10);
  return (offset) => {
    const n = offset / 10;
    const list = edges.map((e: any) => ({ node: { ...e.node, encid: `${e.node.encid}-p${n}` } }));
    return JSON.stringify([{ data: { business: { encid: 'Lw7NmZ3j-WEye97ywEmkXQ', alias: 'vons-1000-spirits-seattle-4', name: "Von's 1000 Spirits", reviewCount: pages * 10, reviews: { edges: list } } } }]);
  };
}

function airbnbFeed(pages: number): (offset: number) => string {
  const a = JSON.parse(readFileSync(airbnbAnswer, 'utf8'));
  const reviews = a.data.presentation.stayProductDetailPage.reviews;
  const base = reviews.reviews;
  return (offset) => {
    reviews.reviews = base.map((r: any) => ({ ...r, id: `${r.id}${offset}` }));
    reviews.metadata.reviewsCount = pages * 24;
    return JSON.stringify(a);
  };
}

/** Launch-site pages of 20 (constructed sample, ids made distinct); the site's cursor is `c<page>`. */
function launchFeed(pages: number): (offset: number) => string {
  const a = JSON.parse(html('../src/sources/launchsite-reviews/constructed-reviews-answer.json'));
  const base = a.data.product.reviews.edges;
  return (offset) => {
    const n = offset / 20;
    a.data.product.reviews.edges = Array.from({ length: 20 }, (_, i) => ({ node: { ...base[i % 3].node, id: `${offset + i}` } }));
    a.data.product.reviews.pageInfo = { endCursor: `c${n + 1}`, hasNextPage: n + 1 < pages };
    return JSON.stringify(a);
  };
}

/** Delivery pages of 10 (constructed sample); the site's cursor is `c<page>`. */
function deliveryFeed(pages: number): (offset: number) => string {
  const a = JSON.parse(html('../src/sources/delivery-reviews/constructed-reviews-answer.json'));
  const base = a.data.storeReviews.reviews;
  return (offset) => {
    const n = offset / 10;
    a.data.storeReviews.reviews = Array.from({ length: 10 }, (_, i) => ({ ...base[i % 3], reviewUuid: `r${offset + i}` }));
    a.data.storeReviews.pageInfo = { cursor: `c${n + 1}`, hasNextPage: n + 1 < pages };
    return JSON.stringify(a);
  };
}

/** The offset a feed step asks for: in the step state (offset sources), or page × size from the site's cursor `c<page>`. */
const offsetOf = (step: Step, size: number) => {
  const token = step.state?.after ?? step.state?.cursor;
  return typeof token === 'string' ? Number(token.slice(1)) * size : Number(step.state?.offset ?? 0);
};

type Store = Awaited<ReturnType<typeof openSqliteStore>>;

async function request(store: Store, id: string, endpoint: string, query: string, params: Record<string, unknown>) {
  await store.createRequest({ id, accountId: 'a', endpoint, params, queries: [query], webhook: null, product: 'p', unit: 'review', unitPriceMicros: 1_000_000,
    emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
}

async function resultsOf(store: Store, id: string) {
  const out: any[] = [];
  for await (const q of store.readResults(id)) out.push(...JSON.parse(q.recordsJson));
  return out;
}

const cases = [
  { name: '/bizdir-reviews', adapter: bizdir, query: 'vons-1000-spirits-seattle-4', page: html('../src/sources/bizdir-reviews/constructed-biz-page.html'), feed: yelpFeed, size: 10, idOf: (r: any) => r.review_id, skip: fixtureMissing(yelpEdges) },
  { name: '/rentals-reviews', adapter: rentals, query: '38817969', page: html('../src/sources/rentals-reviews/constructed-listing-page.html'), feed: airbnbFeed, size: 24, idOf: (r: any) => r.review_id, skip: fixtureMissing(airbnbAnswer) },
  { name: '/launchsite-reviews', adapter: launchsite, query: 'quillmark', page: html('../src/sources/launchsite-reviews/constructed-product-page.html'), feed: launchFeed, size: 20, idOf: (r: any) => r.review_id, skip: false },
  { name: '/delivery-reviews', adapter: delivery, query: '24687', page: null, feed: deliveryFeed, size: 10, idOf: (r: any) => r.review_id, skip: false },
];

for (const c of cases) {
  test(`${c.name}: interrupted on page 3, the retry resumes there; records once, billed once; the cursor continues after them`, { skip: c.skip, timeout: 60_000 }, async () => {
    const limit = c.size * 3 + 5;
    const store = await openSqliteStore(':memory:');
    await store.createAccount({ id: 'a', name: 'a', balanceMicros: 1_000_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    await request(store, 'r', c.name, c.query, { limit });
    const feed = c.feed(5);
    const fetched: string[] = [];
    let failOnce = true;
    const runner = new Runner({
      store, queue: new EmbeddedQueue(store), adapterFor: () => c.adapter as WebAdapter, owner: 'w', backoffBaseMs: 1, paged: () => true,
      fetchStep: async (step) => {
        const page = step.kind === 'biz-page' || step.kind === 'listing' || step.kind === 'page';
        const offset = offsetOf(step, c.size);
        if (!page && offset === c.size * 2 && failOnce) { failOnce = false; throw new SourceError('network', 'connection reset'); }
        fetched.push(page ? 'page' : `feed@${offset}`);
        return { status: 200, url: step.url, headers: {}, body: page ? c.page! : feed(offset) };
      },
    });
    await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
    assert.equal((await store.getRequest('r'))?.status, 'Pending', 'the first attempt failed retryably');
    await runner.run((await store.claimItems('w', 1, 60_000, Date.now() + 60_000))[0]);
    assert.deepEqual(fetched, [...(c.page ? ['page'] : []), 'feed@0', `feed@${c.size}`, `feed@${c.size * 2}`, `feed@${c.size * 3}`], 'no page fetched twice');
    const r = await store.getRequest('r');
    assert.equal(r?.status, 'Success');
    assert.equal(r?.usage, limit);
    const records = await resultsOf(store, 'r');
    assert.equal(records.length, limit);
    assert.equal(new Set(records.map(c.idOf)).size, limit, 'every review once');
    // The cursor of the last record continues after it, inside the fourth page.
    const cursor = records[limit - 1].next_page_cursor;
    assert.match(cursor, /^c1\./);
    assert.equal(records[limit - 2].next_page_cursor, cursor, 'one cursor per chunk');

    // A second request resumes from that cursor: the rest of page 4, then page 5, nothing before.
    await request(store, 'r2', c.name, c.query, { limit: 100, cursor });
    fetched.length = 0;
    await runner.run((await store.claimItems('w', 1, 60_000, Date.now() + 120_000))[0]);
    assert.deepEqual(fetched, [`feed@${c.size * 3}`, `feed@${c.size * 4}`]);
    const rest = await resultsOf(store, 'r2');
    assert.equal(rest.length, c.size * 5 - limit);
    assert.equal(new Set([...records, ...rest].map(c.idOf)).size, c.size * 5, 'the two parts together: every review of the feed once');
    assert.equal(rest[rest.length - 1].next_page_cursor, null, 'the end of the feed');
    await store.close();
  });
}
