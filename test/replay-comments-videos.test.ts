/**
 * `/forum-comments` and `/videosite-videos` end to end, offline: the real adapters and executor in
 * replay mode, serving HAR archives built at test time from the real captures (never copied into
 * the repository). Proves plan → executor → parse → store → HTTP → billing on real data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { replayEntry, usageOf, withReplay } from './support/replay.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import type { HarEntry } from '../src/fetch/har.ts';
import type { QueryContext, Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { adapter as forum } from '../src/sources/forum-comments/adapter.ts';
import { adapter as videos } from '../src/sources/videosite-videos/adapter.ts';

const reddit = (f: string) => fixturePath('reddit', f);
const youtube = (f: string) => fixturePath('youtube', f);
const THREAD = reddit('post_comments_3hahrw_2016-03.json');
const MORE = reddit('morechildren_3hahrw_2016-03.json');
const V1 = youtube('browse_channel_videos_tab_initial_2026-05.json');
const V2 = youtube('browse_channel_videos_tab_continuation_2026-05.json');
const RES = youtube('navigation_resolve_url_handle_2026-05.json');
const read = (p: string) => readFileSync(p, 'utf8');

/** The HAR entries of one query: every step the adapter asks for, answered by `answer`. */
function recordQuery(a: WebAdapter<any, any>, c: QueryContext<any>, answer: (s: Step) => string): HarEntry[] {
  const entries: HarEntry[] = [];
  const pending = a.plan(c);
  while (pending.length) {
    const s = pending.shift()!;
    const body = answer(s);
    entries.push(replayEntry(s, body, 'application/json'));
    pending.push(...(a.parse(s, { status: 200, url: s.url, headers: {}, body }, c).next ?? []));
  }
  return entries;
}

test('/forum-comments end to end: the 2016 thread with its real morechildren answer, 487 comments billed as 487', { skip: fixtureMissing(THREAD) || fixtureMissing(MORE), timeout: 60_000 }, async () => {
  const query = 'https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/';
  const empty = JSON.stringify({ json: { errors: [], data: { things: [] } } });
  const entries = recordQuery(forum, { query, params: { sort: 'best' } }, (s) => {
    if (s.kind === 'thread') return read(THREAD);
    if (s.kind === 'more') return (s.state as any).stub.ids.join(',') === 'cu5pg2h' ? read(MORE) : empty;
    // "continue this thread" pages: the focused comment without further replies.
    return JSON.stringify([{ data: { children: [] } }, { data: { children: [{ kind: 't1', data: { id: (s.state as any).stub.parent } }] } }]);
  });
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
  const byId = recordQuery(videos, { query: 'UCTwECeGqMZee77BjdoYtI2Q', params: { shorts: false, limit: 45 } }, (s) => (s.kind === 'browse' ? read(V1) : read(V2)));
  // The resolve capture names @Gronkh's channel; its browse is answered with the Videos capture too.
  const byHandle = recordQuery(videos, { query: '@Gronkh', params: { shorts: false, limit: 30 } }, (s) => (s.kind === 'resolve' ? read(RES) : read(V1)));
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
  });
});
