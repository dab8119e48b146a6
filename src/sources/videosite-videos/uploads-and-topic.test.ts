/**
 * Two answers issue 38 found read as nothing: a channel's uploads playlist (browse of `UU...`, its
 * entries `playlistVideoRenderer`) gives its videos with views and age from `videoInfo`, and the
 * owner from the playlist header; a channel tab whose answer has no channel block (a topic channel's
 * carousel or interactive header) takes the channel from its header, else from the id the request browsed.
 * Constructed samples after the renderers' public descriptions (no capture of these cases exists).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseCapture } from './capture.ts';
import { adapter } from './adapter.ts';

const read = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');

test('uploads playlist: every playlistVideoRenderer is a video, never an empty success', () => {
  const recs = parseCapture(read('./constructed-browse-uploads-playlist.json'));
  assert.deepEqual(recs.map((r) => [r.video_id, r.view_count, r.published_text, r.length_seconds]),
    [['dQw4w9WgXcQ', 1200, '3 days ago', 252], ['a1b2c3d4e5F', 987, '2 weeks ago', 605], ['Zy_-9xwvUTs', 15000, '1 year ago', 3753]]);
  assert.ok(recs.every((r) => r.channel_id === 'UCTwECeGqMZee77BjdoYtI2Q' && r.channel_name === 'Creative Commons'));
  assert.match(recs[0]!.next_page_cursor ?? '', /^4qmF/);
});

test('a tab answer without a channel block: the channel from a topic header, else the id the request browsed', () => {
  const d = JSON.parse(read('./constructed-browse-uploads-playlist.json'));
  // The same videos under a channel tab, headed by a topic carousel and no metadata block.
  d.header = { carouselHeaderRenderer: { contents: [{ topicChannelDetailsRenderer: { title: { simpleText: 'Gaming' }, navigationEndpoint: { browseEndpoint: { browseId: 'UCOpNcN46UbXVtpKMrmU4Abg' } } } }] } };
  delete d.metadata;
  d.contents.twoColumnBrowseResultsRenderer.tabs[0].tabRenderer.title = 'Videos';
  assert.deepEqual(parseCapture(JSON.stringify(d)).map((r) => [r.channel_id, r.channel_name])[0], ['UCOpNcN46UbXVtpKMrmU4Abg', 'Gaming']);
  d.header = { interactiveTabbedHeaderRenderer: { title: { simpleText: 'Learning' } } };
  // Through the adapter: the browse step names the channel it asked for.
  const id = 'UCtFRv9O2AHqOZjjynzrv-xg';
  const step = adapter.plan({ query: id, params: {} } as never)[0]!;
  const out = adapter.parse(step, { status: 200, url: step.url, headers: {}, body: JSON.stringify(d) }, { query: id, params: {} } as never);
  assert.ok(out.records.length === 3, JSON.stringify(out.records.length));
  assert.deepEqual([out.records[0]!.channel_id, out.records[0]!.channel_name], [id, 'Learning']);
});
