/**
 * `/shortvideo-comments` and `/network-posts` end to end through HAR replay: plan → executor →
 * parse → runner (limit, signed cursors, checkpoints) → store → HTTP, with billing, the cursor
 * resume across pages, and 204 with the reason on Failure. The short-video pages are the real
 * comment list body (page 1) and a constructed page 2 built here; the network pages are the
 * constructed samples of the source folder (no real capture exists).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { replayEntry, usageOf, withReplay } from './support/replay.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import { harEntry, type HarEntry } from '../src/fetch/har.ts';
import { commentPageStep } from '../src/sources/shortvideo-comments/plan.ts';
import { pageStep } from '../src/sources/network-posts/plan.ts';

const BODY = fixturePath('tiktok', 'comment_list_body_2026-02.json');
const VIDEO = '7603296357641735445';
const SHORT = 'https://vm.tiktok.com/ZMconstruct/';
const LANDING = `https://www.tiktok.com/@someone/video/${VIDEO}?_r=1&_t=constructed`;

/** A constructed page 2: six comments after the real page's cursor 20, and no more. */
function page2(): string {
  const comments = Array.from({ length: 6 }, (_, i) => ({
    cid: `76033${String(i).padStart(14, '0')}`, aweme_id: VIDEO, text: `constructed ${i + 1}`, create_time: 1770290000 + i, digg_count: i, reply_comment_total: 0,
    user: { uid: `70000000000000000${i}`, unique_id: `constructed_${i}`, nickname: `Constructed ${i}` },
  }));
  return JSON.stringify({ status_code: 0, comments, cursor: 26, has_more: 0, total: 25 });
}

function redirect(from: string, to: string, status = 302): HarEntry {
  return harEntry({ url: from, method: 'GET', headers: {} }, { status, url: from, headers: { location: to }, setCookie: [], body: '', bytes: 0, replayed: false }, 1, new Date());
}

const ids = (rows: any[]) => rows.map((r) => r.comment_id ?? r.post_id);

test('/shortvideo-comments end to end: two pages billed per comment, cursor resume across pages, short link, 204 with the reason', { skip: fixtureMissing(BODY), timeout: 60_000 }, async () => {
  const real = readFileSync(BODY, 'utf8');
  const entries = [
    replayEntry(commentPageStep({ videoId: VIDEO, cursor: 0 }), real, 'application/json'),
    replayEntry(commentPageStep({ videoId: VIDEO, cursor: 20 }), page2(), 'application/json'),
    redirect(SHORT, LANDING, 301),
    replayEntry({ kind: 'landing', url: LANDING, expect: 'html' }, '<html><body>video</body></html>', 'text/html'),
    // Another video: the site answers an empty body, as it does to unsigned calls.
    replayEntry(commentPageStep({ videoId: '7000000000000000009', cursor: 0 }), '', 'application/json'),
  ];
  await withReplay(entries, async (h) => {
    const all = await h.json(`/shortvideo-comments?query=${VIDEO}&limit_per_query=100&async=false`);
    assert.equal(all.status, 200, JSON.stringify(all.body).slice(0, 300));
    const rows = all.body.data[0];
    assert.equal(rows.length, 25);
    assert.deepEqual([rows[0].comment_id, rows[0].author_username, rows[0].likes, rows[0].created_datetime_utc, rows[0].query], ['7603301260598838032', 'zainjutt.31', 2, '2026-02-05T08:54:53Z', VIDEO]);
    assert.deepEqual([rows[18].comment_id, rows[19].text, rows[24].author_username], ['7603296849801544449', 'constructed 1', 'constructed_5']);
    assert.equal(rows[24].next_page_cursor, null, 'the last comment of the last page');
    assert.equal(await usageOf(h, all.body.id), '25');

    // limit 10, then the cursor: the same 20 comments as one request of 20, across the page break.
    const twenty = (await h.json(`/shortvideo-comments?query=${VIDEO}&limit_per_query=20&async=false`)).body.data[0];
    const first = await h.json(`/shortvideo-comments?query=${VIDEO}&limit_per_query=10&async=false`);
    const a = first.body.data[0];
    assert.equal(a.length, 10);
    assert.equal(await usageOf(h, first.body.id), '10');
    const cursor = a[9].next_page_cursor;
    assert.ok(cursor, 'a cut query carries a cursor');
    const b = (await h.json(`/shortvideo-comments?query=${VIDEO}&limit_per_query=10&cursor=${encodeURIComponent(cursor)}&async=false`)).body.data[0];
    assert.deepEqual(ids([...a, ...b]), ids(twenty));
    assert.deepEqual(ids(b).slice(-1), ['76033' + '00000000000000']);
    // A short link: one redirect step (SSRF-checked), then the comment list of the video it lands on.
    const s = await h.json(`/shortvideo-comments?query=${encodeURIComponent(SHORT)}&limit_per_query=3&async=false`);
    assert.equal(s.status, 200, JSON.stringify(s.body).slice(0, 300));
    assert.deepEqual(ids(s.body.data[0]), ['7603301260598838032', '7603308235172496150', '7603299273505473296']);
    assert.equal(s.body.data[0][0].query, SHORT);
    // The empty answer is a typed block: 204 (interface 4.4) with the reason in X-Request-Error.
    const blocked = await h.get('/shortvideo-comments?query=7000000000000000009&async=false');
    assert.equal(blocked.status, 204);
    assert.match(blocked.headers.get('x-request-error') ?? '', /^blocked: the comment list answered an empty body/);
  });
});

test('/network-posts end to end: the logged-out company page billed per post, cursor resume, authwall as 204 with the reason', { timeout: 60_000 }, async () => {
  const page = readFileSync(new URL('../src/sources/network-posts/constructed-company-page.html', import.meta.url), 'utf8');
  const wallUrl = 'https://www.linkedin.com/authwall?trk=bf&trkInfo=x&original_referer=&sessionRedirect=https%3A%2F%2Fwww.linkedin.com%2Fcompany%2Fwalled%2F';
  const entries = [
    replayEntry(pageStep({ key: 'constructed-robotics', section: 'company' }, { resolveOnly: false }), page, 'text/html'),
    redirect('https://www.linkedin.com/company/walled/', wallUrl),
    replayEntry({ kind: 'wall', url: wallUrl, expect: 'html' }, '<html><head><title>Sign Up | LinkedIn</title></head><body>Join now</body></html>', 'text/html'),
  ];
  await withReplay(entries, async (h) => {
    const q = encodeURIComponent('https://uk.linkedin.com/company/constructed-robotics/posts/?feedView=all');
    const r = await h.json(`/network-posts?query=${q}&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.deepEqual(ids(rows), ['7265743553410330624', '7263001234567890123', '7250000000000000000']);
    assert.deepEqual([rows[0].company_name, rows[0].company_id, rows[0].reactions, rows[0].comments, rows[0].posted_ago, rows[0].posted_timestamp], ['Constructed Robotics', '4242424', 1284, 56, '1w', 1732288254]);
    assert.equal(rows[2].next_page_cursor, null);
    assert.equal(await usageOf(h, r.body.id), '3');
    const two = await h.json(`/network-posts?query=${q}&limit=2&async=false`);
    assert.deepEqual(ids(two.body.data[0]), ['7265743553410330624', '7263001234567890123']);
    assert.equal(await usageOf(h, two.body.id), '2');
    const rest = await h.json(`/network-posts?query=${q}&limit=2&cursor=${encodeURIComponent(two.body.data[0][1].next_page_cursor)}&async=false`);
    assert.deepEqual(ids(rest.body.data[0]), ['7250000000000000000']);
    const wall = await h.get('/network-posts?query=walled&async=false');
    assert.equal(wall.status, 204);
    assert.match(wall.headers.get('x-request-error') ?? '', /^blocked: authwall: the site sent the request to its sign-in wall \(\/authwall\); configure NETWORK_POSTS_COOKIES/);
  });
});
