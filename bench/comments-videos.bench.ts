/**
 * Parser throughput of `/forum-comments` and `/videosite-videos` on their largest real captures:
 * the adapter's `parse` of one answer (text → records and the next step) against bare `JSON.parse`
 * of the same body (the floor: the parser parses the JSON too), in the same run. Each row is the
 * median of 3 runs of ~1.5 s, interleaved; MB/s by CPU time (wall time in brackets).
 *
 *   node bin/run-ts.js bench/comments-videos.bench.ts
 *
 * Needs FIXTURES_DIR (default ../shared/fixtures) with reddit/ and youtube/. With --write, writes
 * docs/performance/comments-videos.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { assignedJson } from '../src/sources/_kit/embedded.ts';
import type { FetchedResponse, Step } from '../src/sources/_kit/adapter.ts';
import { adapter as forum } from '../src/sources/forum-comments/adapter.ts';
import { adapter as videos } from '../src/sources/videosite-videos/adapter.ts';
import { parseCapture as videosCapture } from '../src/sources/videosite-videos/capture.ts';
import { parserTable, sink, writeSection, type ParserRow } from './lib.ts';

const files = {
  thread: fixturePath('reddit', 'post_comments_3hahrw_2016-03.json'),
  more: fixturePath('reddit', 'morechildren_3hahrw_2016-03.json'),
  shortsNext: fixturePath('youtube', 'browse_channel_shorts_tab_continuation_2026-01.json'),
  videos: fixturePath('youtube', 'browse_channel_videos_tab_initial_2026-05.json'),
  legacy: fixturePath('youtube', 'legacy_channel_videos_page_2021-05.html'),
};
for (const f of Object.values(files)) {
  if (!existsSync(f)) {
    console.error(`fixtures not found: ${f} (set FIXTURES_DIR)`);
    process.exit(1);
  }
}
const body = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, readFileSync(f, 'utf8')])) as Record<keyof typeof files, string>;
const res = (b: string): FetchedResponse => ({ status: 200, url: 'https://example.invalid/', headers: {}, body: b });
const bytes = (s: string) => Buffer.byteLength(s);
const jsonBase = (s: string) => () => (JSON.parse(s) ? 1 : 0);

const fctx = { query: '3hahrw', params: {} };
const [threadStep] = forum.plan(fctx);
const moreStep: Step = { kind: 'more', url: 'https://www.reddit.com/api/morechildren.json', expect: 'json', state: { post: { id: '3hahrw', title: 'Ba Dum Tsss', community: 'funny', author: null, permalink: '/r/funny/comments/3hahrw/ba_dum_tsss/' }, got: 0, rest: [], stub: { parent: 'cu5p1hh', depth: 1, ids: ['cu5pg2h'], count: 12 } } };
const vctx = { query: 'UCTwECeGqMZee77BjdoYtI2Q', params: { shorts: false, limit: 100_000 } };
const [browse] = videos.plan(vctx);
const sctx = { query: 'UCh8gHdtzO2tXd593_bjErWg', params: { shorts: true, limit: 100_000 } };
const contStep = videos.parse(videos.plan(sctx)[0], res(readFileSync(fixturePath('youtube', 'browse_channel_shorts_tab_initial_2026-01.json'), 'utf8')), sctx).next![0];

// The thread page is emitted up to its first stub; the count of records + waiting entries is the work done.
const threadWork = () => { const o = forum.parse(threadStep, res(body.thread), fctx); return o.records.length + ((o.next?.[0]?.state as any)?.rest?.length ?? 0); };

const rows: ParserRow[] = [
  { name: 'forum: thread page 2016 (476 comments, 18 stubs) → records + queue', bytes: bytes(body.thread), base: 'JSON.parse', baseFn: jsonBase(body.thread), fn: threadWork },
  { name: 'forum: morechildren answer (11 comments) → records', bytes: bytes(body.more), base: 'JSON.parse', baseFn: jsonBase(body.more), fn: () => forum.parse(moreStep, res(body.more), fctx).records.length },
  { name: 'videos: Shorts continuation 2026 (48 shorts) → records', bytes: bytes(body.shortsNext), base: 'JSON.parse', baseFn: jsonBase(body.shortsNext), fn: () => videos.parse(contStep, res(body.shortsNext), sctx).records.length },
  { name: 'videos: Videos tab browse 2026 (30 videos) → records', bytes: bytes(body.videos), base: 'JSON.parse', baseFn: jsonBase(body.videos), fn: () => videos.parse(browse, res(body.videos), vctx).records.length },
  { name: 'videos: legacy channel page HTML 2021 (30 videos) → records', bytes: bytes(body.legacy), base: 'ytInitialData cut + JSON.parse', baseFn: () => (assignedJson(body.legacy, 'ytInitialData') ? 1 : 0), fn: () => videosCapture(body.legacy).length },
];

const RUN_MS = Number(process.env.RUN_MS ?? 1500);
const out = [
  '# Comment and video parsers (forum-comments, videosite-videos)',
  '',
  'Parser throughput on the largest real captures of each endpoint (`../shared/fixtures/reddit`, `../shared/fixtures/youtube`):',
  'the adapter\'s `parse` of one answer, text to records, against a bare `JSON.parse` of the same body in the same run.',
  'Target (issue 10): at least 0.5x of `JSON.parse`. Run: `node bin/run-ts.js bench/comments-videos.bench.ts`.',
  '',
  `node ${process.version}, ${RUN_MS} ms per run, median of 3 interleaved runs; MB/s by CPU time (wall time in brackets).`,
  '',
  ...parserTable(rows, RUN_MS),
];
console.log(out.join('\n'));
writeSection('docs/performance/comments-videos.md', out.join('\n'));
if (sink === 0.5) console.log(sink);
