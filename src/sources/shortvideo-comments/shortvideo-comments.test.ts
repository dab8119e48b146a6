import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { classifyQuery } from './query.ts';
import { Value } from '@sinclair/typebox/value';
import { shortvideoCommentRecord } from '../../contract/records/shortvideo-comments.ts';

const BODY = fixturePath('tiktok', 'comment_list_body_2026-02.json');
const skip = fixtureMissing(BODY);
const VIDEO = '7603296357641735445';
const ctx = (params: Record<string, unknown> = {}, query = VIDEO) => ({ query, params: { limit_per_query: 100, ...params } });
const res = (body: string, url = 'https://www.tiktok.com/api/comment/list/'): FetchedResponse => ({ status: 200, url, headers: {}, body });
const typeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (isSourceError(e)) return e.type;
    throw e;
  }
  return 'no error';
};
const firstStep = (params = {}, query = VIDEO): Step => adapter.plan(ctx(params, query))[0];

test('query forms: ids, video and photo links, mobile links, short links; garbage is refused', () => {
  assert.deepEqual(classifyQuery(VIDEO), { kind: 'id', videoId: VIDEO });
  for (const q of [
    `https://www.tiktok.com/@scout2015/video/${VIDEO}`,
    `https://www.tiktok.com/@scout2015/video/${VIDEO}?is_from_webapp=1&sender_device=pc`,
    `www.tiktok.com/@a.b/photo/${VIDEO}`,
    `https://m.tiktok.com/v/${VIDEO}.html`,
    `https://www.tiktok.com/embed/v2/${VIDEO}`,
  ]) assert.deepEqual(classifyQuery(q), { kind: 'id', videoId: VIDEO }, q);
  assert.deepEqual(classifyQuery('https://vm.tiktok.com/ZMhvqK1bT/'), { kind: 'short', url: 'https://vm.tiktok.com/ZMhvqK1bT/' });
  assert.deepEqual(classifyQuery('vt.tiktok.com/ZSabc123/'), { kind: 'short', url: 'https://vt.tiktok.com/ZSabc123/' });
  assert.deepEqual(classifyQuery('https://www.tiktok.com/t/ZTRabc/'), { kind: 'short', url: 'https://www.tiktok.com/t/ZTRabc/' });
  for (const q of ['', 'hello world', 'https://www.youtube.com/watch?v=x', 'https://www.tiktok.com/@scout2015', 'https://evil.example/vm.tiktok.com/x']) {
    assert.equal(typeof adapter.checkQuery!(q), 'string', q);
    assert.equal(typeOf(() => adapter.plan(ctx({}, q))), 'invalid_query', q);
  }
});

test('plan: an id goes straight to the comment list; a short link is one redirect step under the SSRF guard', () => {
  const s = firstStep();
  assert.equal(s.kind, 'comments');
  const u = new URL(s.url);
  assert.equal(u.origin + u.pathname, 'https://www.tiktok.com/api/comment/list/');
  assert.equal(u.searchParams.get('aweme_id'), VIDEO);
  assert.equal(u.searchParams.get('cursor'), '0');
  assert.equal(u.searchParams.get('count'), '20');
  assert.equal(u.searchParams.get('aid'), '1988');
  assert.equal(u.searchParams.has('msToken'), false);
  assert.equal(s.userUrl, undefined);
  assert.equal(s.headers?.cookie, undefined);
  const [r] = adapter.plan(ctx({}, 'https://vm.tiktok.com/ZMhvqK1bT/'));
  assert.deepEqual({ kind: r.kind, url: r.url, userUrl: r.userUrl }, { kind: 'resolve', url: 'https://vm.tiktok.com/ZMhvqK1bT/', userUrl: true });
});

test('real comment list body (2026-02) → records field by field', { skip }, () => {
  const step = firstStep();
  const out = adapter.parse(step, res(readFileSync(BODY, 'utf8')), ctx());
  assert.equal(out.records.length, 19);
  const [a, b] = out.records;
  assert.deepEqual(a, {
    query: VIDEO,
    video_id: VIDEO,
    comment_id: '7603301260598838032',
    text: '',
    author_id: '7253829545996370949',
    author_username: 'zainjutt.31',
    author_nickname: '☠️زین وینس',
    likes: 2,
    replies_count: 0,
    created_timestamp: 1770281693,
    created_datetime_utc: '2026-02-05T08:54:53Z',
    next_page_cursor: null,
    author_sec_uid: 'MS4wLjABAAAAX8-9O5L2x0V2bBXh7waHKhHwd2gM4Wvh_LsioC0A5-_yJJS76sofDbLhRL6Rrzkg',
    author_avatar: a.author_avatar,
    language: 'un',
    pinned_by_author: false,
    liked_by_author: false,
    images: a.images,
    comment_url: null,
    video_comments_total: 227,
  });
  assert.match(a.author_avatar!, /^https:\/\/p19-common-sign\.tiktokcdn-us\.com\/tos-alisg-avt-0068\/3f02fb327e744a17c5e458b055651ed7~tplv-tiktokx-cropcenter:100:100\.jpg\?/);
  assert.equal(a.images.length, 1);
  assert.match(a.images[0], /^https:\/\/p16-comment-sg-sign\.tiktokcdn-us\.com\/tos-alisg-i-zt8igodiya-sg\/1c08f992d6254427a6d345d8fca2b65c~tplv-jj85edgx6n-image-origin\.image\?/);
  // An image entry flagged as an ad is none of the comment's; a first link that is no link gives no image.
  const withAd = JSON.parse(readFileSync(BODY, 'utf8'));
  const withImage = withAd.comments.find((c: any) => Array.isArray(c.image_list) && c.image_list.length);
  withImage.image_list.unshift({ ...withImage.image_list[0], isSponsored: true });
  const again = adapter.parse(firstStep(), res(JSON.stringify(withAd)), ctx()).records.find((r) => r.comment_id === withImage.cid)!;
  assert.deepEqual(again.images, out.records.find((r) => r.comment_id === withImage.cid)!.images);
  withImage.image_list = [{ origin_url: { url_list: ['not a link'] } }];
  assert.deepEqual(adapter.parse(firstStep(), res(JSON.stringify(withAd)), ctx()).records.find((r) => r.comment_id === withImage.cid)!.images, []);
  assert.equal(b.comment_id, '7603308235172496150');
  assert.equal(b.text, 'Hi oyyyyyyyyy ❤️🥀😁');
  assert.equal(b.author_username, 'shanu3_007');
  assert.equal(b.author_nickname, '🦋Dua editor 🐝');
  assert.equal(b.author_id, '7569944830936384534');
  assert.equal(b.created_timestamp, 1770283175);
  assert.equal(b.language, 'en');
  assert.deepEqual(b.images, []);
  assert.match(b.comment_url!, /^https:\/\/m\.tiktok\.com\/v\/7603296357641735445\.html\?.*share_comment_id=7603308235172496150/);
  const multiLine = out.records.find((r) => r.comment_id === '7603304371027280658')!;
  assert.equal(multiLine.text, 'دکھ سنائے ک\n🥰\nسے سنائے اپنے🥰');
  assert.equal(multiLine.author_username, 'don_of_multan');
  const liked = out.records.find((r) => r.comment_id === '7603328008933442324')!;
  assert.equal(liked.likes, 1);
  assert.equal(liked.text, 'Nice ❤🥰');
  const last = out.records[18];
  assert.equal(last.comment_id, '7603296849801544449');
  assert.equal(last.author_username, 'muzaffarghr7');
  // The query goes on to page 2 at the site's cursor (next_page_cursor is the runner's to write).
  assert.equal(out.cursor, '20');
  assert.equal(out.next!.length, 1);
  assert.equal(new URL(out.next![0].url).searchParams.get('cursor'), '20');
  assert.deepEqual(out.next![0].state, { videoId: VIDEO, cursor: 20 });
  for (const r of out.records) assert.ok(Value.Check(shortvideoCommentRecord, r), JSON.stringify([...Value.Errors(shortvideoCommentRecord, r)][0]));
  // Every record id is distinct and every cursor points right after its own record.
  assert.equal(new Set(out.records.map((r) => r.comment_id)).size, 19);
});

test('truncated and reordered variants: a missing branch is a null field', { skip }, () => {
  const body = JSON.parse(readFileSync(BODY, 'utf8'));
  const c = body.comments[1];
  delete c.user;
  delete c.create_time;
  delete c.share_info;
  c.digg_count = 'many';
  // Reordered keys (and the body's members reversed) change nothing.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const out = adapter.parse(firstStep(), res(JSON.stringify(reordered)), ctx());
  const r = out.records[1];
  assert.equal(r.comment_id, '7603308235172496150');
  assert.equal(r.text, 'Hi oyyyyyyyyy ❤️🥀😁');
  assert.deepEqual([r.author_id, r.author_username, r.author_nickname, r.author_avatar], [null, null, null, null]);
  assert.deepEqual([r.created_timestamp, r.created_datetime_utc, r.comment_url, r.likes], [null, null, null, null]);
  assert.equal(out.records[0].author_username, 'zainjutt.31');
  // A node without cid is no comment: skipped, the others stay.
  body.comments[0] = { text: 'no id' };
  assert.equal(adapter.parse(firstStep(), res(JSON.stringify(body)), ctx()).records.length, 18);
  // An entry with an id not of the site's form, or naming another video (not this video's comment): skipped too.
  const withOthers = JSON.parse(readFileSync(BODY, 'utf8'));
  const copy = withOthers.comments[2];
  withOthers.comments.splice(2, 0, { ...copy, cid: 'AD 7603299273505473296' }, { ...copy, cid: '7603299273505400000', aweme_id: '7000000000000000001' });
  const kept = adapter.parse(firstStep(), res(JSON.stringify(withOthers)), ctx()).records;
  assert.equal(kept.length, 19);
  assert.ok(kept.every((r) => /^\d+$/.test(r.comment_id) && r.video_id === VIDEO));
  assert.deepEqual(parseCapture(JSON.stringify(withOthers)).map((r) => r.comment_id), kept.map((r) => r.comment_id));
  // Cut in the middle: not JSON any more.
  const text = readFileSync(BODY, 'utf8');
  assert.equal(typeOf(() => adapter.parse(firstStep(), res(text.slice(0, text.length / 2)), ctx())), 'layout_changed');
});

test('empty, refused and strange answers are typed errors, never an empty success', () => {
  const step = firstStep();
  const p = (body: string) => adapter.parse(step, res(body), ctx());
  assert.equal(typeOf(() => p('')), 'blocked');
  assert.equal(typeOf(() => p('   \n')), 'blocked');
  assert.equal(typeOf(() => p('{}')), 'layout_changed');
  assert.equal(typeOf(() => p('[1,2]')), 'layout_changed');
  assert.equal(typeOf(() => p('{"comments":[{"x":1}],"has_more":0,"status_code":0}')), 'layout_changed');
  assert.equal(typeOf(() => p('{"status_code":0,"comments":null,"has_more":0,"total":227,"cursor":0}')), 'blocked');
  assert.equal(typeOf(() => p('{"status_code":5,"status_msg":"Item doesn\'t exist"}')), 'not_found');
  assert.equal(typeOf(() => p('{"status_code":4,"status_msg":"Server is currently unavailable"}')), 'blocked');
  assert.equal(typeOf(() => p('{"status_code":10201,"status_msg":"login required"}')), 'blocked');
  assert.equal(typeOf(() => p('<html><body>Please verify you are human (captcha)</body></html>')), 'captcha');
  assert.equal(typeOf(() => p('<!doctype html><html><body>hi</body></html>')), 'blocked');
  // A video that really has no comments: an honest empty answer.
  const none = p('{"status_code":0,"comments":null,"has_more":0,"total":0,"cursor":0}');
  assert.deepEqual([none.records, none.next, none.cursor], [[], [], null]);
  // has_more without progress does not loop.
  const stuck = adapter.parse({ ...step, state: { videoId: VIDEO, cursor: 40 } }, res('{"status_code":0,"comments":[],"has_more":1,"cursor":40,"total":50}'), ctx());
  assert.deepEqual([stuck.records, stuck.next], [[], []]);
});

test('short link: the landing URL or page names the video; a page naming none is not_found', () => {
  const [r] = adapter.plan(ctx({}, 'https://vm.tiktok.com/ZMhvqK1bT/'));
  const viaUrl = adapter.parse(r, res('<html></html>', `https://www.tiktok.com/@someone/video/${VIDEO}?_r=1`), ctx({}, 'https://vm.tiktok.com/ZMhvqK1bT/'));
  assert.deepEqual(viaUrl.records, []);
  assert.equal(new URL(viaUrl.next![0].url).searchParams.get('aweme_id'), VIDEO);
  const page = readFileSync(fileURLToPath(new URL('./constructed-video-page.html', import.meta.url)), 'utf8');
  const viaPage = adapter.parse(r, res(page, 'https://www.tiktok.com/'), ctx());
  assert.equal(new URL(viaPage.next![0].url).searchParams.get('aweme_id'), '7000000000000000001');
  assert.equal(typeOf(() => adapter.parse(r, res('<html><body>home</body></html>', 'https://www.tiktok.com/'), ctx())), 'not_found');
});

test('capture parser: the real body and the video page, as served', { skip }, () => {
  const recs = parseCapture(readFileSync(BODY, 'utf8'));
  assert.equal(recs.length, 19);
  assert.equal(recs[0].comment_id, '7603301260598838032');
  assert.equal(recs[0].video_id, VIDEO);
  assert.deepEqual(parseCapture(readFileSync(fileURLToPath(new URL('./constructed-video-page.html', import.meta.url)), 'utf8')), []);
  assert.throws(() => parseCapture('<html><body>nothing</body></html>'), /names no video/);
  assert.throws(() => parseCapture('{"a":1}'), /neither comments nor has_more/);
});

test('field names agree with the 2026-01 reduced comments (reshaped: the user object flattened; names only)', { skip: fixtureMissing(fixturePath('tiktok', 'scrapfly_comments_reduced_2026-01.json')) }, () => {
  const reduced = JSON.parse(readFileSync(fixturePath('tiktok', 'scrapfly_comments_reduced_2026-01.json'), 'utf8')) as Array<Record<string, unknown>>;
  // Put the flattened user fields back where the site serves them, then parse as one body.
  const comments = reduced.map(({ nickname, unique_id, ...c }) => ({ ...c, user: { nickname, unique_id } }));
  const out = adapter.parse(firstStep({}, '7198206283571285294'), res(JSON.stringify({ status_code: 0, comments, cursor: 20, has_more: 1, total: 5000 })), ctx({}, '7198206283571285294'));
  assert.equal(out.records.length, reduced.length);
  const a = out.records[0];
  assert.deepEqual(
    [a.comment_id, a.video_id, a.text, a.likes, a.replies_count, a.created_timestamp, a.author_username, a.author_nickname, a.language, a.pinned_by_author],
    ['7198708872234664710', '7198206283571285294', 'Why do u have them', 3252, 10, 1676080038, 'jordan.wav', 'jordan.wav', 'en', false],
  );
  assert.deepEqual([out.records[1].author_username, out.records[1].author_nickname, out.records[1].likes], ['matthewfredericks.26', 'Matthew fredericks', 111]);
});
