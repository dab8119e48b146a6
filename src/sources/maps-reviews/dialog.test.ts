/**
 * The review dialog route (issue 34, item 3) on constructed answers (constructed-dialog.ts: built
 * from public descriptions, no real capture exists): fields, paging, the request's arguments, and the
 * refusal rules (a changed layout is layout_changed, never an empty success).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constructedDialogAnswer } from './constructed-dialog.ts';
import { dialogPageUrl, parseDialogPage } from './dialog.ts';
import { adapter } from './adapter.ts';
import type { Step } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';

const reviews = Array.from({ length: 10 }, (_, k) => ({ id: `rv${k}`, rating: 1 + (k % 5), ts: 1_767_225_600 - k * 3600, text: k === 0 ? 'Great <food> & "coffee"\nagain' : `Text ${k}`, author: `A${k}`, authorId: `10000${k}` }));

test('a constructed dialog answer reads field by field, with its page token', () => {
  const { reviews: got, token } = parseDialogPage(constructedDialogAnswer(reviews, 'tok2'));
  assert.equal(token, 'tok2');
  assert.equal(got.length, 10);
  assert.deepEqual({ ...got[0], review_img_urls: got[0]!.review_img_urls }, {
    review_id: 'rv0', author_id: '100000', author_title: 'A0', author_link: 'https://www.google.com/maps/contrib/100000?hl=en',
    author_image: 'https://example.invalid/photo.png', review_text: 'Great <food> & "coffee"\nagain', review_rating: 1,
    review_timestamp: 1_767_225_600, review_datetime_utc: '2026-01-01T00:00:00Z', review_likes: null, review_link: null, review_img_urls: [],
    owner_answer: null, owner_answer_timestamp: null, owner_answer_timestamp_datetime_utc: null, review_pagination_id: 'dlg:tok2',
    review_translated_text: null, review_language: 'en', review_updated_timestamp: null, owner_answer_translated: null, review_source: null,
  });
  assert.equal(parseDialogPage(constructedDialogAnswer(reviews.slice(0, 3), null)).token, null, 'the last page has no token');
});

test('the request carries the feature id, sort, page size 10, token and language', () => {
  const u = new URL(dialogPageUrl('0x1:0xabc', { sort: 'lowest_rating', token: 'T1', language: 'de', region: 'AT' }));
  assert.equal(u.pathname, '/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy');
  assert.deepEqual([u.searchParams.get('hl'), u.searchParams.get('gl'), u.searchParams.get('msc')], ['de', 'at', 'gwsrpc']);
  const args = (JSON.parse(u.searchParams.get('reqpld')!) as unknown[][])[1]![9] as unknown[];
  assert.deepEqual([args[1], args[9], args[11], args[19], args.length], [4, 10, ['0x1:0xabc'], 'T1', 24]);
});

test('a changed layout is layout_changed, never an empty success', () => {
  const bad = [
    'not json',
    ")]}'\n[null, []]",                                    // no block at [1][10]
    ")]}'\n" + JSON.stringify([null, Object.assign([], { 10: [null, null, 'x'] })]),     // reviews not a list
    ")]}'\n" + JSON.stringify([null, Object.assign([], { 10: [null, null, [[1, 2, 3]]] })]), // entries that are no review
    ")]}'\n" + JSON.stringify([null, Object.assign([], { 10: [null, null, [], null, null, null, 7] })]), // a token that is not text
  ];
  for (const body of bad) {
    assert.throws(() => parseDialogPage(body), (e) => isSourceError(e) && e.type === 'layout_changed', body.slice(0, 60));
  }
  // An empty list is a place without (more) reviews: no error.
  assert.deepEqual(parseDialogPage(")]}'\n" + JSON.stringify([null, Object.assign([], { 10: [null, null, []] })])), { reviews: [], token: null, entries: 0 });
});

test('reviewsRoute=dialog pages ten at a time to reviewsLimit, and a dlg: token resumes in the dialog', () => {
  const ctx = { query: '0x1:0x2', params: { reviewsLimit: 15, reviewsRoute: 'dialog', _knownPlaces: { '0x1:0x2': { place: { engine_id: '0x1:0x2', reviews: 40 } } } } as any };
  const [first] = adapter.plan(ctx) as Step[];
  assert.equal(first!.kind, 'reviews-dialog');
  const one = adapter.parse(first!, { status: 200, url: first!.url, headers: {}, body: constructedDialogAnswer(reviews, 'p2') }, ctx);
  assert.equal(one.records.filter((r: any) => r.item === 'review').length, 10);
  assert.equal(one.next?.[0]?.kind, 'reviews-dialog');
  const two = adapter.parse(one.next![0]!, { status: 200, url: '', headers: {}, body: constructedDialogAnswer(reviews.map((r) => ({ ...r, id: `${r.id}b` })), 'p3') }, ctx);
  assert.equal(two.records.filter((r: any) => r.item === 'review').length, 5);
  assert.equal(two.next?.length ?? 0, 0);
  assert.equal(two.tallies?.[0]?.end, 'enough');
  const resumed = adapter.plan({ query: '0x1:0x2', params: { ...ctx.params, reviewsRoute: 'auto', lastPaginationId: 'dlg:p2' } }) as Step[];
  assert.equal(resumed[0]!.kind, 'reviews-dialog');
  assert.equal((JSON.parse(new URL(resumed[0]!.url).searchParams.get('reqpld')!) as any)[1][9][19], 'p2');
});
