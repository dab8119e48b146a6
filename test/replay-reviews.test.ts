/**
 * The review endpoints end to end, offline: the real adapters and executor in replay mode, serving
 * HAR archives built at test time from the real captures (never copied into the repository) and the
 * constructed pages of each source folder. Proves plan → executor → parse (paging, stale-hash
 * recovery) → store → HTTP → billing, and that a cursor resumes exactly where a chunk ended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { replayEntry, usageOf, withReplay } from './support/replay.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import type { Step } from '../src/sources/_kit/adapter.ts';
import { adapter as bizdir } from '../src/sources/bizdir-reviews/adapter.ts';
import { adapter as rentals } from '../src/sources/rentals-reviews/adapter.ts';

const yelpEdges = fixturePath('yelp', 'scrapfly_gql_review_edges_2024-02.json');
const airbnbAnswer = fixturePath('airbnb', 'StaysPdpReviewsQuery.response_2026-09.json');
const html = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
const bizPage = html('../src/sources/bizdir-reviews/constructed-biz-page.html');
const listingPage = html('../src/sources/rentals-reviews/constructed-listing-page.html');

/** The step `parse` asks for next after `step` answered `body`. */
const nextOf = (a: typeof bizdir | typeof rentals, step: Step, body: string, query: string, params: object) =>
  (a.parse as any)(step, { status: 200, url: step.url, headers: {}, body }, { query, params }).next[0] as Step;

test('/bizdir-reviews end to end: business page, two feed pages, 15 reviews billed as 15; cursor resumes; nothing found bills 1', { skip: fixtureMissing(yelpEdges), timeout: 60_000 }, async () => {
  const edges = JSON.parse(readFileSync(yelpEdges, 'utf8')).slice(0, 10);
  const VONS = { encid: 'Lw7NmZ3j-WEye97ywEmkXQ', alias: 'vons-1000-spirits-seattle-4', name: "Von's 1000 Spirits" };
  // The capture is one page of edges; the second page serves them in reverse so pages are told apart.
  const answer = (list: unknown[]) => JSON.stringify([{ data: { business: { ...VONS, reviewCount: 20, reviews: { edges: list, pageInfo: { hasNextPage: list.length > 0 } } } } }]);
  const query = 'https://m.yelp.com/biz/vons-1000-spirits-seattle-4?osq=Bars';
  const [page] = bizdir.plan({ query, params: {} });
  const feed0 = nextOf(bizdir, page, bizPage, query, {});
  const feed10 = nextOf(bizdir, feed0, answer(edges), query, {});
  // A business without reviews.
  const emptyQuery = 'quiet-place-springfield';
  const [emptyPageStep] = bizdir.plan({ query: emptyQuery, params: {} });
  const emptyPage = bizPage.replaceAll('Zq9xConstructedBiz0001', 'Zq9xConstructedBiz0002');
  const emptyFeed = nextOf(bizdir, emptyPageStep, emptyPage, emptyQuery, {});
  const entries = [
    replayEntry(page, bizPage, 'text/html'),
    replayEntry(feed0, answer(edges), 'application/json'),
    replayEntry(feed10, answer([...edges].reverse()), 'application/json'),
    replayEntry(emptyPageStep, emptyPage, 'text/html'),
    replayEntry(emptyFeed, JSON.stringify([{ data: { business: { encid: 'Zq9xConstructedBiz0002', alias: emptyQuery, name: 'Quiet', reviewCount: 0, reviews: { edges: [], pageInfo: { hasNextPage: false } } } } }]), 'application/json'),
  ];
  await withReplay(entries, async (h) => {
    const r = await h.json(`/bizdir-reviews?query=${encodeURIComponent(query)}&limit=15&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const reviews = r.body.data[0];
    assert.equal(reviews.length, 15);
    const ids = edges.map((e: any) => e.node.encid);
    assert.deepEqual(reviews.map((x: any) => x.review_id), [...ids, ...[...ids].reverse().slice(0, 5)]);
    assert.equal(reviews[0].query, query);
    assert.equal(reviews[0].business_name, "Von's 1000 Spirits");
    assert.equal(reviews[0].author_title, 'Lizzie G.');
    assert.equal(reviews[0].review_datetime_utc, '2024-02-23T15:10:29Z');
    assert.equal(await usageOf(h, r.body.id), '15');

    // limit 10 + its cursor = the same 20 as limit 20.
    const all = (await h.json(`/bizdir-reviews?query=${encodeURIComponent(query)}&limit=20&async=false`)).body.data[0];
    const first = (await h.json(`/bizdir-reviews?query=${encodeURIComponent(query)}&limit=10&async=false`)).body.data[0];
    const cursor = first[9].next_page_cursor;
    assert.ok(cursor);
    const rest = (await h.json(`/bizdir-reviews?query=${encodeURIComponent(query)}&limit=10&cursor=${encodeURIComponent(cursor)}&async=false`)).body.data[0];
    const strip = (x: any) => ({ ...x, next_page_cursor: undefined });
    assert.deepEqual([...first, ...rest].map(strip), all.map(strip));

    const empty = await h.json(`/bizdir-reviews?query=${emptyQuery}&async=false`);
    assert.equal(empty.status, 200, JSON.stringify(empty.body).slice(0, 300));
    assert.deepEqual(empty.body.data, [[]]);
    assert.equal(await usageOf(h, empty.body.id), '1', 'a query that finds nothing bills one review');
  });
});

test('/rentals-reviews end to end: a stale hash re-reads the listing page, then 30 reviews over two pages billed as 30; an empty listing bills 1', { skip: fixtureMissing(airbnbAnswer), timeout: 60_000 }, async () => {
  const real = readFileSync(airbnbAnswer, 'utf8');
  const STALE = '5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e5a1e';
  const FRESH = 'fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210';
  const stalePage = listingPage.replace(FRESH, STALE);
  const refused = JSON.stringify({ errors: [{ message: 'Sorry, something went wrong.', extensions: { classification: 'ValidationError' } }], data: null });
  const query = 'https://www.airbnb.co.uk/rooms/plus/38817969?adults=2';
  const params = { limit: 30 };
  const [page] = rentals.plan({ query, params });
  const staleReviews = nextOf(rentals, page, stalePage, query, params);
  const reread = nextOf(rentals, staleReviews, refused, query, params);
  const reviews0 = nextOf(rentals, reread, listingPage, query, params);
  const reviews24 = nextOf(rentals, reviews0, real, query, params);
  // A listing without reviews.
  const [emptyPageStep] = rentals.plan({ query: '555', params: {} });
  const emptyReviews = nextOf(rentals, emptyPageStep, listingPage, '555', {});
  const noReviews = JSON.parse(real);
  noReviews.data.presentation.stayProductDetailPage.reviews.reviews = [];
  noReviews.data.presentation.stayProductDetailPage.reviews.metadata.reviewsCount = 0;
  const entries = [
    // The listing page answers with a stale hash first, a fresh one when read again.
    replayEntry(page, stalePage, 'text/html'),
    replayEntry(page, listingPage, 'text/html'),
    replayEntry(staleReviews, refused, 'application/json'),
    replayEntry(reviews0, real, 'application/json'),
    replayEntry(reviews24, real, 'application/json'),
    replayEntry(emptyPageStep, listingPage, 'text/html'),
    replayEntry(emptyReviews, JSON.stringify(noReviews), 'application/json'),
  ];
  assert.equal(new URL(reviews24.url).searchParams.get('variables')!.includes('"offset":"24"'), true);
  await withReplay(entries, async (h) => {
    const r = await h.json(`/rentals-reviews?query=${encodeURIComponent(query)}&limit=30&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const list = r.body.data[0];
    assert.equal(list.length, 30);
    assert.equal(list[0].review_id, '1000001');
    assert.equal(list[0].listing_id, '38817969');
    assert.equal(list[0].author_name, 'Person2');
    assert.equal(list[0].review_datetime_utc, '2026-09-15T14:30:10Z');
    assert.equal(list[24].review_id, '1000001', 'second page (the capture served again)');
    assert.equal(list[29].review_id, '1000018');
    assert.ok(list[29].next_page_cursor, 'more reviews remain');
    assert.equal(await usageOf(h, r.body.id), '30');

    const empty = await h.json('/rentals-reviews?query=555&async=false');
    assert.equal(empty.status, 200, JSON.stringify(empty.body).slice(0, 300));
    assert.deepEqual(empty.body.data, [[]]);
    assert.equal(await usageOf(h, empty.body.id), '1');
  });
});

test('review endpoints refuse at submit (422) query items they cannot read and altered cursors', { timeout: 60_000 }, async () => {
  await withReplay([], async (h) => {
    const a = await h.json('/bizdir-reviews?query=coffee%20near%20me&async=false');
    assert.equal(a.status, 422);
    assert.match(a.body.errorMessage, /business page link/);
    const b = await h.json(`/rentals-reviews?query=${encodeURIComponent('https://example.com/rooms/1')}&async=false`);
    assert.equal(b.status, 422);
    assert.match(b.body.errorMessage, /listing link/);
    const c = await h.json('/rentals-reviews?query=38817969&cursor=c1.AAAA.BBBB&async=false');
    assert.equal(c.status, 422);
  });
});
