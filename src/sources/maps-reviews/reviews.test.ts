import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { adapter as mapsReviews, billableUnits } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { reviewOf } from './review.ts';
import { parse, finish, type ReviewsParseItem } from './parse.ts';
import { KNOWN_PLACES, plan, reviewsPageUrl } from './plan.ts';
import { constructedEntry, constructedPage, type ConstructedReview } from './constructed-page.ts';
import type { ReviewsParams, ReviewsElement } from './record.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';

const FIX = fixturePath('google-maps');
const skip = fixtureMissing(FIX);
const fx = (name: string) => readFileSync(resolve(FIX, name), 'utf8');
const res = (body: string, url = 'https://www.google.com/'): FetchedResponse => ({ status: 200, url, headers: {}, body });
const ctx = (params: ReviewsParams = {}, query = 'q') => ({ query, params });

test('real capture: native review with owner reply, field by field', { skip }, () => {
  const r = parseCapture(fx('reviews_listugcposts_review_native_with_reply.json'));
  assert.equal(r.length, 1);
  const v = r[0] as any;
  assert.equal(v.review_id, 'Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB');
  assert.equal(v.author_id, '116111130377271376564');
  assert.equal(v.author_title, 'E. Ö.');
  assert.equal(v.author_link, 'https://www.google.com/maps/contrib/116111130377271376564?hl=en');
  assert.match(v.author_image, /^https:\/\/lh3\.googleusercontent\.com\/a\/ACg8ocIiIJCE1n/);
  assert.equal(v.review_rating, 1);
  assert.equal(v.review_timestamp, 1772186522);
  assert.equal(v.review_datetime_utc, '2026-02-27T10:02:02Z');
  assert.ok(v.review_text.startsWith('Ich bin sehr enttäuscht vom Verhalten der Rezeption'));
  assert.ok(v.review_translated_text.startsWith('I am very disappointed with the reception staff'));
  assert.equal(v.review_language, 'de');
  assert.ok(v.owner_answer.startsWith('Es tut uns sehr leid'));
  assert.ok(v.owner_answer_translated.startsWith('We are very sorry'));
  assert.equal(v.owner_answer_timestamp, 1772266947);
  assert.equal(v.owner_answer_timestamp_datetime_utc, '2026-02-28T08:22:27Z');
  assert.equal(v.review_likes, 0);
  assert.match(v.review_link, /^https:\/\/www\.google\.com\/maps\/reviews\/data=.*1sCi9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB/);
  assert.deepEqual(v.review_img_urls, []);
  assert.equal(v.review_source, 'Google');
  assert.equal(v.review_pagination_id, null); // a bare entry list carries no page token
});

test('real capture: review without translation block', { skip }, () => {
  const v = parseCapture(fx('reviews_listugcposts_review_native_no_translation.json'))[0] as any;
  assert.equal(v.review_id, 'ChZDSUhNMG9nS0VJQ0FnSUNZemVhOFpREAE');
  assert.equal(v.author_title, 'Olena Kuzhel');
  assert.equal(v.author_id, '110617501430675678911');
  assert.equal(v.review_rating, 5);
  assert.equal(v.review_timestamp, 1555494891);
  assert.equal(v.review_datetime_utc, '2019-04-17T09:54:51Z');
  assert.ok(v.review_text.startsWith('I had been recently in gynecologist'));
  assert.equal(v.review_translated_text, null);
  assert.equal(v.review_language, 'en');
  assert.equal(v.review_likes, 5);
  // The reply slot holds only owner-side links, no reply.
  assert.equal(v.owner_answer, null);
  assert.equal(v.owner_answer_timestamp, null);
  assert.equal(v.owner_answer_timestamp_datetime_utc, null);
});

test('real capture: rating-only review', { skip }, () => {
  const v = parseCapture(fx('reviews_listugcposts_review_native_no_text.json'))[0] as any;
  assert.equal(v.review_id, 'Ci9DQUlRQUNvZENodHljRjlvT21jMmJ6UnpkemN6Y0dscE9YRndaUzFuVVhCSVprRRAB');
  assert.equal(v.author_title, 'Lysann Lieblang');
  assert.equal(v.author_id, '118210304700470843945');
  assert.equal(v.review_rating, 5);
  assert.equal(v.review_text, null);
  assert.equal(v.review_language, null);
  assert.equal(v.review_timestamp, 1770906476);
  assert.equal(v.owner_answer, null);
  assert.deepEqual(v.review_img_urls, []);
});

test('real captures wrapped in a page: the page token becomes review_pagination_id and the cursor', { skip }, () => {
  const entries = ['with_reply', 'no_translation', 'no_text'].flatMap((n) => JSON.parse(fx(`reviews_listugcposts_review_native_${n}.json`)));
  const body = ")]}'\n" + JSON.stringify([null, 'TOKEN-2', entries]);
  const step: Step = { kind: 'reviews-page', url: reviewsPageUrl('0x1:0x2', { sort: 'most_relevant' }), expect: 'xssi-json', state: { key: 'K', engineId: '0x1:0x2', got: 0, page: 0, token: null } };
  const out = parse(step, res(body), ctx({ reviewsLimit: 0, ignoreEmpty: true }));
  assert.equal(out.records.length, 2); // ignoreEmpty drops the rating-only one
  assert.equal(out.cursor, 'TOKEN-2');
  assert.equal((out.records[0] as any).review.review_pagination_id, 'TOKEN-2');
  assert.equal(out.next?.length, 1);
  assert.match(out.next![0].url, /!2sTOKEN-2!/);
});

test('real place page (HTML) → place item and first reviews page of its feature id', { skip }, () => {
  const [step] = plan(ctx({ sort: 'newest', language: 'de', region: 'CY' }, '0x14de1786bd2659b9:0xb7f6e65826fa9ddb'));
  assert.equal(step.kind, 'place');
  assert.equal(step.url, 'https://www.google.com/maps?cid=13256035819497102811&hl=de&gl=CY');
  const out = parse(step, res(fx('place_page_tipsy-sticks_2023-04.html')), ctx({ sort: 'newest' }));
  const place = (out.records[0] as any).place;
  assert.equal(place.name, 'Tipsy Sticks');
  assert.equal(place.engine_id, '0x14de1786bd2659b9:0xb7f6e65826fa9ddb');
  assert.equal(place.place_id, 'ChIJuVkmvYYX3hQR2536Jljm9rc');
  assert.equal(place.reviews, 20);
  assert.equal(place.rating, 4.7);
  assert.deepEqual(place.reviews_per_score, { '1': 1, '2': 0, '3': 0, '4': 2, '5': 17 });
  assert.equal(out.next?.length, 1);
  assert.equal(out.next![0].kind, 'reviews-page');
  assert.match(out.next![0].url, /^https:\/\/www\.google\.com\/maps\/rpc\/listugcposts\?authuser=0&hl=en&pb=!1m6!1s0x14de1786bd2659b9%3A0xb7f6e65826fa9ddb!/);
  assert.match(out.next![0].url, /!13m1!1e2$/);
});

test('real place body: place fields of the reviews element', { skip }, () => {
  const out = parse({ kind: 'place', url: 'u', expect: 'html' }, res(fx('place_kipriakon_en_2023-09.json')), ctx());
  const el = finish(out.records, ctx({}, 'ChIJDdnwdv0y5xQRRytw1ihZQeU'))[0] as ReviewsElement;
  assert.equal(el.query, 'ChIJDdnwdv0y5xQRRytw1ihZQeU');
  assert.equal(el.name, 'Kipriakon');
  assert.equal(el.full_address, 'Old port, Limassol 3042');
  assert.equal(el.engine_id, '0x14e732fd76f0d90d:0xe5415928d6702b47');
  assert.equal(el.place_id, 'ChIJDdnwdv0y5xQRRytw1ihZQeU');
  assert.equal(el.rating, 4.2);
  assert.equal(el.reviews, 396);
  assert.equal(el.reviews_id, '-1927161133606622393');
  assert.match(el.reviews_link!, /^https:\/\/search\.google\.com\/local\/reviews\?placeid=ChIJDdnwdv0y5xQRRytw1ihZQeU/);
  assert.match(el.location_link!, /0x14e732fd76f0d90d:0xe5415928d6702b47/);
  assert.deepEqual(el.reviews_per_score, { '1': 37, '2': 16, '3': 27, '4': 60, '5': 256 });
  assert.deepEqual(el.reviews_data, []);
});

test('real map search: limit places, each with its reviews step', { skip }, () => {
  const [step] = plan(ctx({ limit: 3 }, 'coffee athens'));
  assert.equal(step.kind, 'search');
  const out = parse(step, res(fx('search_tbm-map_coffee_2024-12.json')), ctx({ limit: 3 }, 'coffee athens'));
  assert.equal(out.records.length, 3);
  assert.equal(out.next?.filter((s) => s.kind === 'reviews-page').length, 3);
  assert.equal((out.records[0] as any).place.name, 'Dream Coffee');
  // 25 places wanted, 20 on the page: the next search page is asked for.
  const more = parse(step, res(fx('search_tbm-map_coffee_2024-12.json')), ctx({ limit: 25 }, 'coffee athens'));
  const nextSearch = more.next!.filter((s) => s.kind === 'search');
  assert.equal(nextSearch.length, 1);
  assert.equal((nextSearch[0].state as any).offset, 20);
});

// ---- constructed pages: paging and filters ----

const DAY = 86400;
const T0 = 1_700_000_000;
function mk(n: number, opts: Partial<ConstructedReview> & { from?: number } = {}): ConstructedReview[] {
  return Array.from({ length: n }, (_, i) => ({ id: `r${(opts.from ?? 0) + i}`, rating: 5 - (i % 5), ts: T0 - ((opts.from ?? 0) + i) * DAY, text: `text ${i}`, ...opts }));
}

/** Runs the reviews pages of one place against a fake site holding `pages`; returns kept reviews. */
function runPages(pages: string[], params: ReviewsParams) {
  let step: Step | undefined = plan(ctx(params, '0xaa:0xbb'))[0];
  const placeBody = JSON.stringify([null, null, null, null, null, null, (() => { const n: unknown[] = []; n[10] = '0xaa:0xbb'; n[11] = 'Constructed Place'; n[4] = [null, null, null, null, null, null, null, 4.5, 999]; return n; })()]);
  const items: ReviewsParseItem[] = [];
  const urls: string[] = [];
  let out = parse(step, res(placeBody), ctx(params));
  items.push(...out.records);
  let i = 0;
  while ((step = out.next?.[0])) {
    urls.push(step.url);
    assert.ok(i < pages.length, 'asked for a page past the last one');
    out = parse(step, res(pages[i++]), ctx(params));
    items.push(...out.records);
  }
  const el = finish(items, ctx(params, '0xaa:0xbb'))[0] as ReviewsElement;
  return { el, urls, pagesFetched: i };
}

test('constructed: reviewsLimit=0 pages until the page has no token', () => {
  const pages = [constructedPage(mk(20), 'T1'), constructedPage(mk(20, { from: 20 }), 'T2'), constructedPage(mk(7, { from: 40 }), null)];
  const { el, urls, pagesFetched } = runPages(pages, { reviewsLimit: 0 });
  assert.equal(pagesFetched, 3);
  assert.equal(el.reviews_data.length, 47);
  assert.match(urls[1], /!2sT1!/);
  assert.match(urls[2], /!2sT2!/);
  assert.equal(el.reviews_data[0].review_pagination_id, 'T1');
  assert.equal(el.reviews_data[46].review_pagination_id, null);
  assert.equal(el.name, 'Constructed Place');
  assert.equal(billableUnits([el]), 47);
});

test('constructed: default reviewsLimit is 100 and page size shrinks to what is still wanted', () => {
  const pages = Array.from({ length: 10 }, (_, p) => constructedPage(mk(20, { from: p * 20 }), `T${p + 1}`));
  const { el, pagesFetched } = runPages(pages, {});
  assert.equal(el.reviews_data.length, 100);
  assert.equal(pagesFetched, 5);
  const small = runPages(pages, { reviewsLimit: 25 });
  assert.equal(small.el.reviews_data.length, 25);
  assert.match(small.urls[0], /!2m2!1i20!/);
  assert.match(small.urls[1], /!2m2!1i5!/);
});

test('constructed: cutoff forces newest and stops at the first older review', () => {
  const pages = [constructedPage(mk(20), 'T1'), constructedPage(mk(20, { from: 20 }), 'T2'), constructedPage(mk(20, { from: 40 }), 'T3')];
  const cutoff = T0 - 25 * DAY; // reviews r0..r25 are at or after it
  const { el, urls, pagesFetched } = runPages(pages, { cutoff, sort: 'highest_rating', reviewsLimit: 0 });
  assert.equal(el.reviews_data.length, 26);
  assert.equal(pagesFetched, 2);
  assert.ok(urls.every((u) => u.endsWith('!13m1!1e2')), 'cutoff must ask for newest first');
  assert.ok(el.reviews_data.every((r) => r.review_timestamp! >= cutoff));
});

test('constructed: cutoffRating stops at a rating beyond it (highest and lowest order)', () => {
  const desc = [5, 5, 4, 4, 3, 2, 1].map((rating, i) => ({ id: `h${i}`, rating, ts: T0 - i, text: 'x' }));
  const hi = runPages([constructedPage(desc, 'T1')], { sort: 'highest_rating', cutoffRating: 4, reviewsLimit: 0 });
  assert.deepEqual(hi.el.reviews_data.map((r) => r.review_rating), [5, 5, 4, 4]);
  assert.equal(hi.pagesFetched, 1);
  assert.match(hi.urls[0], /!13m1!1e3$/);
  const asc = [...desc].reverse().map((r, i) => ({ ...r, id: `l${i}` }));
  const lo = runPages([constructedPage(asc, 'T1')], { sort: 'lowest_rating', cutoffRating: 2, reviewsLimit: 0 });
  assert.deepEqual(lo.el.reviews_data.map((r) => r.review_rating), [1, 2]);
  assert.match(lo.urls[0], /!13m1!1e4$/);
});

test('constructed: ignoreEmpty drops rating-only reviews but keeps paging', () => {
  const p1 = [...mk(3), { id: 'empty1', rating: 3, ts: T0, text: null }];
  const p2 = [{ id: 'empty2', rating: 1, ts: T0, text: null }, ...mk(2, { from: 10 })];
  const { el, pagesFetched } = runPages([constructedPage(p1, 'T1'), constructedPage(p2, null)], { ignoreEmpty: true });
  assert.equal(pagesFetched, 2);
  assert.deepEqual(el.reviews_data.map((r) => r.review_id), ['r0', 'r1', 'r2', 'r10', 'r11']);
});

test('constructed: owner reply, likes and photos are read', () => {
  const e = constructedEntry({ id: 'x', rating: 4, ts: T0, text: 'ok', likes: 7, images: ['https://example.invalid/a.jpg'], reply: { text: 'thanks', ts: T0 + 60 } });
  const r = reviewOf(e, 'P')!;
  assert.equal(r.review_likes, 7);
  assert.deepEqual(r.review_img_urls, ['https://example.invalid/a.jpg']);
  assert.equal(r.owner_answer, 'thanks');
  assert.equal(r.owner_answer_timestamp, T0 + 60);
  assert.equal(r.review_pagination_id, 'P');
});

test('sort, language, region and lastPaginationId reach the RPC URL', () => {
  for (const [sort, code] of [['most_relevant', 1], ['newest', 2], ['highest_rating', 3], ['lowest_rating', 4]] as const) {
    assert.ok(reviewsPageUrl('0x1:0x2', { sort }).endsWith(`!13m1!1e${code}`));
  }
  const u = reviewsPageUrl('0x1:0x2', { sort: 'newest', token: 'a=b', language: 'fr', region: 'FR' });
  assert.match(u, /\?authuser=0&hl=fr&gl=fr&pb=!1m6!1s0x1%3A0x2!6m4!4m1!1e1!4m1!1e3!2m2!1i20!2sa%3Db!5m2!1s[A-Za-z0-9_-]{21}!7e81/);
  const resumed = runPages([constructedPage(mk(2), null)], { lastPaginationId: 'RESUME' });
  assert.match(resumed.urls[0], /!2sRESUME!/);
});

test('a page token equal to the one just used ends paging (no loop)', () => {
  const { pagesFetched, el } = runPages([constructedPage(mk(3), 'SAME'), constructedPage(mk(3, { from: 3 }), 'SAME')], { reviewsLimit: 0 });
  assert.equal(pagesFetched, 2);
  assert.equal(el.reviews_data.length, 6);
});

test('finish: dedupes reviews, keeps places in order, marks a query without a place', () => {
  const place = (key: string) => ({ item: 'place' as const, key, place: { name: key, full_address: null, engine_id: key, place_id: null, location_link: null, rating: null, reviews: null, reviews_id: null, reviews_link: null, reviews_per_score: null } });
  const rv = (key: string, id: string) => ({ item: 'review' as const, key, review: reviewOf(constructedEntry({ id, rating: 5, ts: T0 }), null)! });
  const out = finish([place('A'), place('B'), rv('A', '1'), rv('B', '2'), rv('A', '1'), rv('A', '3')], ctx({}, 'q')) as ReviewsElement[];
  assert.deepEqual(out.map((e) => [e.name, e.reviews_data.map((r) => r.review_id)]), [['A', ['1', '3']], ['B', ['2']]]);
  assert.deepEqual(finish([{ item: 'none' }], ctx({}, 'nowhere')), [{ query: 'nowhere', no_result: true }]);
  assert.equal(billableUnits([{ query: 'nowhere', no_result: true }]), 1);
});

// ---- query forms ----

test('query forms: ids become place steps, phrases a map search, junk a 422 message', () => {
  assert.equal(plan(ctx({}, '0x14e732fd76f0d90d:0xe5415928d6702b47'))[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.equal(plan(ctx({}, '16519582940102929223'))[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.match(plan(ctx({ language: 'de', region: 'CY' }, 'ChIJDdnwdv0y5xQRRytw1ihZQeU'))[0].url, /\/maps\/place\/\?q=place_id:ChIJDdnwdv0y5xQRRytw1ihZQeU&hl=de&gl=CY$/);
  const url = plan(ctx({}, 'https://www.google.com/maps/place/Joe/@40.7,-73.9,17z/data=!4m7!3m6!1s0x89c259ab3c1ef289:0x3b67a41175949f55!8m2'))[0];
  assert.equal(url.kind, 'place');
  const s = plan(ctx({ limit: 3 }, 'pizza in Brooklyn'))[0];
  assert.equal(s.kind, 'search');
  assert.match(s.url, /^https:\/\/www\.google\.com\/search\?tbm=map&.*q=pizza%20in%20Brooklyn/);
  assert.equal(plan(ctx({}, 'https://maps.app.goo.gl/abc'))[0].kind, 'resolve');
  assert.equal(mapsReviews.checkQuery!('   '), 'query is empty');
  assert.match(mapsReviews.checkQuery!('https://example.com/menu')!, /another site/);
  assert.throws(() => plan(ctx({}, ' ')), (e) => isSourceError(e) && e.type === 'invalid_query');
});

// ---- robustness: truncated, reordered, empty ----

function expectLayout(fn: () => unknown) {
  assert.throws(fn, (e) => isSourceError(e) && e.type === 'layout_changed');
}

test('reviews page: truncated, empty and foreign bodies are layout_changed; empty list is zero reviews', () => {
  const step: Step = { kind: 'reviews-page', url: 'u', expect: 'xssi-json', state: { key: 'K', engineId: '0x1:0x2', got: 0, page: 0, token: null } };
  const page = constructedPage(mk(5), 'T');
  expectLayout(() => parse(step, res(page.slice(0, page.length / 2)), ctx()));
  expectLayout(() => parse(step, res(''), ctx()));
  expectLayout(() => parse(step, res('<html>consent</html>'), ctx()));
  expectLayout(() => parse(step, res('{"a":1}'), ctx()));
  expectLayout(() => parse(step, res('[]'), ctx()));
  expectLayout(() => parse(step, res('[null, 5, "x"]'), ctx()));
  const none = parse(step, res(")]}'\n[null,null,null]"), ctx());
  assert.deepEqual(none.records, []);
  assert.deepEqual(none.next, []);
});

test('place and search steps: foreign bodies are layout_changed, a page without a place is no_result', () => {
  expectLayout(() => parse({ kind: 'place', url: 'u', expect: 'html' }, res('<html><body>nothing</body></html>'), ctx()));
  const empty = parse({ kind: 'place', url: 'u', expect: 'html' }, res('<script>window.APP_INITIALIZATION_STATE=[[1],null,null,[null,null,null,null,null,null,null]];</script>'), ctx());
  assert.deepEqual(empty.records, [{ item: 'none' }]);
  expectLayout(() => parse({ kind: 'search', url: 'https://www.google.com/search?q=x', expect: 'xssi-json', state: plan(ctx({}, 'x'))[0].state }, res('<html>'), ctx()));
  const searchState = plan(ctx({}, 'x'))[0].state;
  const noHits = parse({ kind: 'search', url: 'https://www.google.com/search?q=x', expect: 'xssi-json', state: searchState }, res(")]}'\n[[\"x\",[[null]]]]"), ctx());
  assert.deepEqual(noHits.records, [{ item: 'none' }]);
});

/** Deterministic pseudo-random mutations of a real or constructed entry. */
function* mutations(root: unknown, seed: number): Generator<unknown> {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let k = 0; k < 200; k++) {
    const copy = JSON.parse(JSON.stringify(root));
    // walk to a random array node and damage it: truncate, reorder, null out, or change a type
    let node: any = copy;
    for (let d = 0; d < 1 + Math.floor(rnd() * 5) && Array.isArray(node) && node.length; d++) {
      const next = node[Math.floor(rnd() * node.length)];
      if (!Array.isArray(next)) break;
      node = next;
    }
    if (!Array.isArray(node) || !node.length) continue;
    const op = Math.floor(rnd() * 4);
    if (op === 0) node.length = Math.floor(rnd() * node.length);
    else if (op === 1) node.reverse();
    else if (op === 2) node[Math.floor(rnd() * node.length)] = null;
    else node[Math.floor(rnd() * node.length)] = 'unexpected';
    yield copy;
  }
}

test('mutated entries (truncated/reordered/nulled/retyped) never throw', () => {
  const sources: unknown[] = [constructedEntry({ id: 'x', rating: 4, ts: T0, text: 'ok', likes: 2, images: ['u'], reply: { text: 'r', ts: T0 } })];
  if (!skip) for (const n of ['with_reply', 'no_translation', 'no_text']) sources.push(JSON.parse(fx(`reviews_listugcposts_review_native_${n}.json`))[0]);
  const step: Step = { kind: 'reviews-page', url: 'u', expect: 'xssi-json', state: { key: 'K', engineId: '0x1:0x2', got: 0, page: 0, token: null } };
  let n = 0;
  for (const [i, src] of sources.entries()) {
    for (const m of mutations(src, i + 1)) {
      reviewOf(m, null);
      parse(step, res(JSON.stringify([null, 'T', [m]])), ctx());
      n++;
    }
  }
  assert.ok(n >= 150);
});

test('parseCapture refuses files it does not understand', () => {
  assert.throws(() => parseCapture('hello'), /neither JSON nor a map place page/);
  assert.throws(() => parseCapture('{"x":1}'), /neither JSON/);
  assert.throws(() => parseCapture('[1,2]'), /expected a listugcposts reviews page/);
  const recs = parseCapture(constructedPage(mk(2), 'NEXT'));
  assert.equal(recs.length, 2);
  assert.equal((recs[0] as any).review_pagination_id, 'NEXT');
});

test('a place the caller knows (a monitor\'s listing): no place page, its own cutoff, the place from the listing', () => {
  const place = { name: 'Listed Place', full_address: null, engine_id: '0xaa:0xbb', place_id: null, location_link: null, rating: 4.5, reviews: 60, reviews_id: null, reviews_link: null, reviews_per_score: null };
  const cutoff = T0 - 25 * DAY;
  const params = { reviewsLimit: 0, cutoff: T0 - 50 * DAY, [KNOWN_PLACES]: { '0xaa:0xbb': { place, cutoff } } } as ReviewsParams;
  const c = ctx(params, '0xaa:0xbb');
  const [first] = plan(c);
  assert.equal(first!.kind, 'reviews-page', 'no place page');
  const pages = [constructedPage(mk(20), 'T1'), constructedPage(mk(20, { from: 20 }), 'T2'), constructedPage(mk(20, { from: 40 }), 'T3')];
  const items: ReviewsParseItem[] = [];
  let step: Step | undefined = first;
  let i = 0;
  while (step) {
    const out = parse(step, res(pages[i++]!), c);
    items.push(...out.records);
    step = out.next?.[0];
  }
  const el = finish(items, c)[0] as ReviewsElement;
  assert.deepEqual([el.name, el.reviews, el.reviews_data.length, i], ['Listed Place', 60, 26, 2], 'the place\'s own cutoff, not the request\'s older one');
  assert.equal(plan(ctx({ [KNOWN_PLACES]: { other: { place } } } as ReviewsParams, '0xaa:0xbb'))[0]!.kind, 'place', 'another query\'s knowledge is not used');
  const own = ctx({ reviewsLimit: 0, [KNOWN_PLACES]: { '0xaa:0xbb': { place, cutoff: 0, limit: 5 } } } as ReviewsParams, '0xaa:0xbb');
  const limited = plan(own)[0]!;
  assert.match(limited.url, /!2m2!1i5!/, 'its own reviewsLimit sizes the page');
  const got = parse(limited, res(pages[0]!), own);
  assert.deepEqual([got.records.filter((r) => r.item === 'review').length, got.next ?? []], [5, []]);
});
