/**
 * `trawl canary` on replayed answers, never the internet: the `/videosite-videos` canary (the
 * @creativecommons channel's Videos tab) answered by the real capture of that very request
 * (youtube/browse_channel_videos_tab_initial_2026-05.json, the InnerTube answer verbatim per its
 * SOURCES.md), and by that capture altered: a renamed key, a cut list, a wall in its place. Each is
 * a HAR archive built at test time (never copied into the repository) that the service the command
 * starts replays through its executor (REPLAY_HAR). Also: the forum canary on its thread's real
 * captures, six more sources' canaries on their own samples, a timeout, the command line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canaryCommand } from '../src/cli/canary.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import { SOURCES } from '../src/sources/registry.ts';
import { adapter as videos } from '../src/sources/videosite-videos/adapter.ts';
import { adapter as forum } from '../src/sources/forum-comments/adapter.ts';
import { recordQuery, replayEntry, threadAnswers } from './support/replay.ts';
import type { HarEntry } from '../src/fetch/har.ts';
import { defineSource, type SourceRow } from '../src/sources/_kit/source.ts';
import { bodyOf, samplePath } from '../src/sources/_kit/samples.ts';
import { endpointFor } from '../src/contract/endpoints/index.ts';
import { parseQueryString, readParams } from '../src/contract/params.ts';
import type { WebAdapter } from '../src/sources/_kit/adapter.ts';
import type { LocalAdapter } from '../src/sources/_kit/adapter.ts';

const V1 = fixturePath('youtube', 'browse_channel_videos_tab_initial_2026-05.json');
const THREAD = fixturePath('reddit', 'post_comments_3hahrw_2016-03.json');
const MORE = fixturePath('reddit', 'morechildren_3hahrw_2016-03.json');
const skip = fixtureMissing(V1);
const row = SOURCES.find((r) => r.endpoint === '/videosite-videos')!;
const forumRow = SOURCES.find((r) => r.endpoint === '/forum-comments')!;

/** The canary's first request, answered with `body` (status and type as given). */
function entryFor(body: string, status = 200, type = 'application/json'): HarEntry {
  const c = row.canary!;
  const [step] = videos.plan({ query: c.query, params: { shorts: false, limit: 20, ...c.params } });
  return replayEntry(step, body, type, status);
}

/** Runs the command in this process against a HAR of `entries`; returns its exit code and JSON. */
async function canary(entries: HarEntry[], source: string | null = 'videosite-videos', env: Record<string, string> = {}): Promise<{ code: number; out: any }> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-canary-test-'));
  try {
    const har = join(dir, 'run.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries } }));
    let text = '';
    const rows = source ? SOURCES : [forumRow, row];
    const code = await canaryCommand({ source: source ?? undefined, json: true }, { REPLAY_HAR: har, ...env }, rows, (s) => { text += s; });
    return { code, out: JSON.parse(text) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The grid's item list in the capture (richGridRenderer.contents). */
function gridOf(doc: any): any[] {
  const seen = [doc];
  while (seen.length) {
    const v = seen.pop();
    if (v && typeof v === 'object') {
      if (Array.isArray(v.richGridRenderer?.contents)) return v.richGridRenderer.contents;
      seen.push(...Object.values(v));
    }
  }
  throw new Error('no richGridRenderer in the capture');
}

test('a healthy replay: ok, 20 records, exit 0', { skip, timeout: 60_000 }, async () => {
  const { code, out } = await canary([entryFor(readFileSync(V1, 'utf8'))]);
  assert.equal(code, 0, JSON.stringify(out));
  assert.equal(out.mode, 'replay');
  assert.equal(out.status, 'ok');
  assert.deepEqual(out.sources.map((s: any) => [s.source, s.status, s.records, s.min, s.reason]), [['/videosite-videos', 'ok', 20, 20, null]]);
});

test('a renamed key (the video title block): layout_changed naming the empty field, exit 5', { skip, timeout: 60_000 }, async () => {
  const renamed = readFileSync(V1, 'utf8').replaceAll('"lockupMetadataViewModel"', '"lockupMetadataViewModelV2"');
  const { code, out } = await canary([entryFor(renamed)]);
  assert.equal(code, 5, JSON.stringify(out));
  assert.equal(out.sources[0].status, 'layout_changed');
  assert.match(out.sources[0].reason, /^fields left empty: title \(20 of 20 records\)/);
});

test('an answer with no video in it at all: layout_changed from the parser, exit 5', { skip, timeout: 60_000 }, async () => {
  const gone = readFileSync(V1, 'utf8').replaceAll('"lockupViewModel"', '"lockupViewModelV2"');
  const { code, out } = await canary([entryFor(gone)]);
  assert.equal(code, 5, JSON.stringify(out));
  assert.equal(out.sources[0].status, 'layout_changed');
  assert.match(out.sources[0].reason, /^layout_changed: /);
});

test('RECORD_HAR keeps the answers behind a verdict, and replaying them gives the same verdict', { skip, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-canary-rec-'));
  try {
    const renamed = readFileSync(V1, 'utf8').replaceAll('"lockupMetadataViewModel"', '"lockupMetadataViewModelV2"');
    const first = await canary([entryFor(renamed)], 'videosite-videos', { RECORD_HAR: join(dir, 'kept.har') });
    assert.equal(first.code, 5);
    const kept = JSON.parse(readFileSync(join(dir, 'kept.har'), 'utf8')).log.entries;
    assert.equal(kept.length, 1);
    assert.equal(kept[0].response.content.text, renamed);
    const again = await canary(kept);
    assert.equal(again.code, 5);
    assert.deepEqual(again.out.sources[0].reason, first.out.sources[0].reason);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fewer videos than the minimum: degraded, exit 3', { skip, timeout: 60_000 }, async () => {
  const doc = JSON.parse(readFileSync(V1, 'utf8'));
  const grid = gridOf(doc);
  grid.splice(5); // five videos, and no continuation
  const { code, out } = await canary([entryFor(JSON.stringify(doc))]);
  assert.equal(code, 3, JSON.stringify(out));
  assert.deepEqual([out.sources[0].status, out.sources[0].records, out.sources[0].reason], ['degraded', 5, '5 records, at least 20 expected']);
});

test('a block page instead of the answer: blocked with the detection verdict, exit 4', { skip, timeout: 60_000 }, async () => {
  const page = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';
  const { code, out } = await canary([entryFor(page, 429, 'text/html')]);
  assert.equal(code, 4, JSON.stringify(out));
  assert.equal(out.sources[0].status, 'blocked');
  assert.match(out.sources[0].reason, /^captcha: HTTP 429 from www\.youtube\.com \(rule unusual-traffic\)/);
});

test('two sources in one run: each judged on its own, the exit code the worst; the deployment\'s store and queue are not read', { skip: skip || fixtureMissing(THREAD) || fixtureMissing(MORE), timeout: 60_000 }, async () => {
  // The forum canary (an archived thread) answered by the real captures of that thread (its page and
  // its morechildren answer; the adapter expands the whole thread before the limit applies).
  const c = forumRow.canary!;
  const thread = recordQuery(forum, { query: c.query, params: { sort: 'best', ...c.params } }, threadAnswers(readFileSync(THREAD, 'utf8'), readFileSync(MORE, 'utf8')));
  const wall = entryFor('<html><body>Our systems have detected unusual traffic from your computer network.</body></html>', 429, 'text/html');
  const unreachable = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };
  const { code, out } = await canary([...thread, wall], null, unreachable);
  assert.equal(code, 4, JSON.stringify(out));
  assert.deepEqual(out.sources.map((s: any) => [s.source, s.status, s.records]), [['/forum-comments', 'ok', 50], ['/videosite-videos', 'blocked', 0]], JSON.stringify(out.sources));
  assert.equal(out.status, 'blocked');
  assert.equal(out.exit_code, 4);
});

/** The sources whose every canary step one of their own samples answers: real captures for the map
 *  search (tbm=map JSON) and hotel search (AtySUc answer), constructed samples for the rest. (The
 *  others ask differently shaped steps in turn, page then API, and their own replay tests answer each
 *  kind; the short-video capture holds another video's comments, which the adapter rightly leaves out.) */
const ONE_SAMPLE = ['/maps/search', '/hotels-search', '/engine-maps-autocomplete', '/delivery-reviews', '/network-posts', '/lodging-prices'];

/** The HAR of a row's canary with every step (at most 3) answered by the row's first sample. */
async function sampleReplay(row: SourceRow): Promise<HarEntry[]> {
  const s = row.samples![0];
  const body = bodyOf(readFileSync(samplePath(row, s), 'utf8'), s);
  const decl = endpointFor(row.endpoint)!;
  const qs = new URLSearchParams(Object.entries(row.canary!.params ?? {}).map(([k, v]) => [k, String(v)]));
  const params = readParams(decl.params, parseQueryString(qs.toString()), decl.required);
  return recordQuery(await row.adapter() as WebAdapter, { query: row.canary!.query, params }, () => body, 3);
}

test('healthy replays of six more sources in one run: each canary\'s fields and minimum hold on its source\'s own answers, exit 0', { timeout: 60_000 }, async (t) => {
  const rows = ONE_SAMPLE.map((e) => SOURCES.find((r) => r.endpoint === e)!);
  const absent = rows.flatMap((r) => r.samples!.slice(0, 1).filter((s) => s.fixture).map((s) => fixtureMissing(samplePath(r, s)))).find(Boolean);
  if (absent) return t.skip(absent);
  const entries = (await Promise.all(rows.map(sampleReplay))).flat();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-canary-test-'));
  try {
    const har = join(dir, 'run.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries } }));
    let text = '';
    const code = await canaryCommand({ json: true }, { REPLAY_HAR: har }, rows, (x) => { text += x; });
    const out = JSON.parse(text);
    assert.deepEqual(out.sources.map((x: any) => [x.source, x.status, x.reason]), ONE_SAMPLE.map((e) => [e, 'ok', null]));
    assert.ok(out.sources.every((x: any) => x.records >= x.min), text);
    assert.equal(code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a source that does not answer within --timeout: degraded saying so, and the command still ends', { timeout: 30_000 }, async () => {
  // A test row on a declared endpoint whose lookup never ends by itself (only when its request is cancelled).
  const hanging: LocalAdapter = { kind: 'local', endpoint: '/forum-comments',
    lookup: (_c, l) => new Promise((_r, reject) => l.signal?.addEventListener('abort', () => reject(new Error('cancelled')))) };
  const slow = defineSource({ endpoint: '/forum-comments', adapter: async () => hanging, verifiedBy: 'test adapter', canary: { query: 'q', min: 1, fields: ['comment_id'] } });
  let text = '';
  const t0 = Date.now();
  const code = await canaryCommand({ json: true, timeout: '0.5' }, {}, [slow], (s) => { text += s; });
  const out = JSON.parse(text);
  assert.equal(code, 3, text);
  assert.equal(out.mode, 'live');
  assert.deepEqual([out.sources[0].status, out.sources[0].reason], ['degraded', 'timeout: no answer within 0.5 s']);
  assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
});

/** Runs `npx trawl canary` as an operator (or cron) does. */
function trawl(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 120_000 }, (e, out, err) => {
      resolve({ code: e ? Number((e as { code?: number }).code) : 0, out, err });
    });
  });
}

test('the command line: lines per source and the exit code; --help, an unknown source and a bad timeout exit 2 or 0 without running', { skip, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-canary-cli-'));
  try {
    const har = join(dir, 'run.har');
    const renamed = readFileSync(V1, 'utf8').replaceAll('"lockupMetadataViewModel"', '"lockupMetadataViewModelV2"');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries: [entryFor(renamed)] } }));
    const r = await trawl(['canary', '--source', '/videosite-videos'], { REPLAY_HAR: har });
    assert.equal(r.code, 5, r.err);
    assert.match(r.out, /^layout_changed +\/videosite-videos +20 records \(min 20\) .*fields left empty: title/m);
    assert.match(r.out, /^worst: layout_changed \(1 source, replay\)$/m);

    const help = await trawl(['canary', '--help'], { REPLAY_HAR: har });
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, /^usage: trawl canary/);
    assert.match(help.out, /Exit codes: 0 every source ok, 3 degraded/);
    assert.match(help.out, /sources: .*videosite-videos/);
    const unknown = await trawl(['canary', '--source', 'nope'], { REPLAY_HAR: har });
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /no canary for "nope"; sources: maps\/search, /);
    const bad = await trawl(['canary', '--timeout', 'soon'], { REPLAY_HAR: har });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--timeout must be a positive number of seconds/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
