/**
 * `/forum-comments` and `/videosite-videos` end to end, offline: the real adapters and executor in
 * replay mode, serving HAR archives built at test time from the real captures (never copied into
 * the repository). Proves plan → executor → parse → store → HTTP → billing on real data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { recordQuery, threadAnswers, usageOf, withReplay } from './support/replay.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import { adapter as forum } from '../src/sources/forum-comments/adapter.ts';
import { adapter as videos } from '../src/sources/videosite-videos/adapter.ts';
import { parseCapture } from '../src/sources/videosite-videos/capture.ts';

const reddit = (f: string) => fixturePath('reddit', f);
const youtube = (f: string) => fixturePath('youtube', f);
const THREAD = reddit('post_comments_3hahrw_2016-03.json');
const MORE = reddit('morechildren_3hahrw_2016-03.json');
const V1 = youtube('browse_channel_videos_tab_initial_2026-05.json');
const V2 = youtube('browse_channel_videos_tab_continuation_2026-05.json');
const RES = youtube('navigation_resolve_url_handle_2026-05.json');
const read = (p: string) => readFileSync(p, 'utf8');

test('/forum-comments end to end: the 2016 thread with its real morechildren answer, 487 comments billed as 487', { skip: fixtureMissing(THREAD) || fixtureMissing(MORE), timeout: 60_000 }, async () => {
  const query = 'https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/';
  const entries = recordQuery(forum, { query, params: { sort: 'best' } }, threadAnswers(read(THREAD), read(MORE)));
  assert.equal(entries.length, 1 + 12 + 6);
  await withReplay(entries, async (h) => {
    const r = await h.json(`/forum-comments?query=${encodeURIComponent(query)}&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.status, 'Success');
    const rows = r.body.data[0];
    assert.equal(rows.length, 476 + 11);
    assert.deepEqual([rows[0].comment_id, rows[0].author, rows[0].query, rows[0].post_title, rows[0].community], ['cu5pebp', 'johnnwho', query, 'Ba Dum Tsss', 'funny']);
    const i = rows.findIndex((x: any) => x.comment_id === 'cu5pg2h');
    assert.deepEqual([rows[i].author, rows[i].depth, rows[i].parent_id, rows[i + 1].comment_id], ['Nak4000', 1, 'cu5p1hh', 'cu5pjjs']);
    assert.equal(new Set(rows.map((x: any) => x.comment_id)).size, rows.length);
    assert.equal(await usageOf(h, r.body.id), String(476 + 11));
    // `limit` (extension) cuts the thread and the bill.
    const l = await h.json(`/forum-comments?query=${encodeURIComponent(query)}&limit=10&async=false`);
    assert.equal(l.body.data[0].length, 10);
    assert.equal(await usageOf(h, l.body.id), '10');
    // A post with nothing recorded fails (no network in replay); the answer says why.
    const miss = await h.json('/forum-comments?query=abc123&async=false');
    assert.equal(miss.body.status, 'Failure');
  });
});

test('/videosite-videos end to end: channel id → Videos tab → continuation, 45 videos billed as 45; handle via resolve; 204 on failure', { skip: [V1, V2, RES].map(fixtureMissing).find(Boolean) ?? false, timeout: 60_000 }, async () => {
  const byId = recordQuery(videos, { query: 'UCTwECeGqMZee77BjdoYtI2Q', params: { shorts: false, limit: 45 } }, (s) => (s.kind === 'browse' ? read(V1) : read(V2)), 2);
  // The resolve capture names @Gronkh's channel; its browse is answered with the Videos capture too.
  const byHandle = recordQuery(videos, { query: '@Gronkh', params: { shorts: false, limit: 30 } }, (s) => (s.kind === 'resolve' ? read(RES) : read(V1)), 2);
  assert.deepEqual(byHandle.map((e) => JSON.parse(e.request.postData!.text).browseId ?? 'resolve'), ['resolve', 'UCYJ61XIK64sp6ZFFS8sctxw']);
  await withReplay([...byId, ...byHandle], async (h) => {
    const r = await h.json('/videosite-videos?query=UCTwECeGqMZee77BjdoYtI2Q&shorts=false&limit=45&async=false');
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.equal(rows.length, 45);
    assert.deepEqual([rows[0].video_id, rows[0].channel_handle, rows[0].view_count, rows[0].length_seconds, rows[0].query], ['BD-LB23rRBE', '@creativecommons', 28, 4054, 'UCTwECeGqMZee77BjdoYtI2Q']);
    assert.deepEqual([rows[30].video_id, rows[30].channel_name], ['CIFHx7_z3Vc', 'Creative Commons']);
    assert.equal(await usageOf(h, r.body.id), '45');
    const g = await h.json('/videosite-videos?query=%40Gronkh&shorts=false&limit=30&async=false');
    assert.equal(g.status, 200);
    assert.equal(g.body.data[0].length, 30);
    assert.equal(await usageOf(h, g.body.id), '30');
    // Nothing recorded for this channel: Failure answers 204 (interface 4.4).
    const miss = await h.get('/videosite-videos?query=%40nobody&shorts=true&async=false');
    assert.equal(miss.status, 204);
    // Replay answers the unknown handle with the nearest recorded POSTs, which are no channel: a typed reason.
    assert.match(miss.headers.get('x-request-error') ?? '', /^(network|layout_changed|not_found): /);
  });
});

const S1 = youtube('browse_channel_shorts_tab_initial_2026-01.json');
const S2 = youtube('browse_channel_shorts_tab_continuation_2026-01.json');

test('/videosite-videos cursor (decision 23) on the real Shorts pages: limit 30 + its cursor = limit 60', { skip: fixtureMissing(S1) || fixtureMissing(S2), timeout: 60_000 }, async () => {
  const q = 'UCh8gHdtzO2tXd593_bjErWg';
  const entries = recordQuery(videos, { query: q, params: { shorts: true, limit: 60 } }, (s) => (s.kind === 'browse' ? read(S1) : read(S2)), 2);
  await withReplay(entries, async (h) => {
    const whole = (await h.json(`/videosite-videos?query=${q}&shorts=true&limit=60&async=false`)).body.data[0];
    assert.equal(whole.length, 60);
    const first = (await h.json(`/videosite-videos?query=${q}&shorts=true&limit=30&async=false`)).body.data[0];
    assert.equal(first.length, 30);
    const cursor = first[29].next_page_cursor;
    assert.match(cursor, /^c1\./, 'the runner signs the resume point');
    const second = await h.json(`/videosite-videos?query=${q}&shorts=true&limit=30&cursor=${cursor}&async=false`);
    assert.equal(second.status, 200, JSON.stringify(second.body).slice(0, 300));
    const ids = (rows: any[]) => rows.map((r) => r.video_id);
    assert.deepEqual([...ids(first), ...ids(second.body.data[0])], ids(whole));
    assert.deepEqual(ids(second.body.data[0]).slice(17, 19), ['QwxXxlvoKZk', 'R8ydpPnC6vI'], 'the resumed chunk runs from page one into page two');
    // A cursor inside page two carries the site's continuation token: long, still accepted.
    const deep = whole[59].next_page_cursor;
    assert.ok(deep.length > 4096, `a continuation token makes a long cursor (${deep.length})`);
    const third = await h.json(`/videosite-videos?query=${q}&shorts=true&limit=5&cursor=${deep}&async=false`);
    assert.equal(third.status, 200, JSON.stringify(third.body).slice(0, 300));
    assert.deepEqual(ids(third.body.data[0]), parseCapture(read(S2)).slice(12, 17).map((r) => r.video_id));
    const bad = await h.json(`/videosite-videos?query=${q}&shorts=true&cursor=${cursor.slice(0, -3)}xyz&async=false`);
    assert.equal(bad.status, 422);
  });
});

test('/forum-comments checkpointed resume on real data: a throttled stub fails the attempt, the retry resumes there without fetching the thread again', { skip: fixtureMissing(THREAD) || fixtureMissing(MORE), timeout: 60_000 }, async () => {
  const query = '3hahrw';
  const empty = JSON.stringify({ json: { errors: [], data: { things: [] } } });
  const entries = recordQuery(forum, { query, params: {} }, (s) =>
    s.kind === 'thread' ? read(THREAD) : s.kind === 'more' ? ((s.state as any).stub.ids.join(',') === 'cu5pg2h' ? read(MORE) : empty)
      : JSON.stringify([{ data: { children: [] } }, { data: { children: [] } }]));
  const at = entries.findIndex((e) => e.request.url.includes('children=cu5pg2h'));
  const [thread] = entries;
  // The stub's first answer is a 429 (the attempt fails: no executor retries), the second the real one.
  // A second fetch of the thread page would get a 500 and fail the query: success proves the resume.
  const throttled = { ...entries[at], response: { ...entries[at].response, status: 429, content: { ...entries[at].response.content, text: 'slow down' } } };
  const broken = { ...thread, response: { ...thread.response, status: 500, content: { ...thread.response.content, text: 'no' } } };
  const har = [thread, broken, ...entries.slice(1, at), throttled, ...entries.slice(at)];
  await withReplay(har, async (h) => {
    const r = await h.json(`/forum-comments?query=${query}&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(r.body.status, 'Success', JSON.stringify(r.body.errors ?? r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.equal(rows.length, 476 + 11);
    assert.equal(new Set(rows.map((x: any) => x.comment_id)).size, rows.length, 'every comment once');
    const i = rows.findIndex((x: any) => x.comment_id === 'cu5pg2h');
    assert.deepEqual([rows[i - 1].depth >= 1, rows[i].parent_id, rows[i + 1].comment_id], [true, 'cu5p1hh', 'cu5pjjs']);
    assert.equal(await usageOf(h, r.body.id), String(476 + 11), 'billed once');
  }, { settings: { maxAttempts: 2 }, env: { RETRIES: '0' } });
});
