/**
 * `/videosite-videos` on what real channels also serve: an age-restricted channel (the tabs hold a
 * `channelAgeGateRenderer`, or a sign-in prompt, in place of the videos) is a typed
 * `login_required` failure with the page's reason, never `[]` and a Success; a channel's uploads
 * playlist (`UU...`, `list=UU...` links) is read as that channel's videos.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isSourceError } from '../_kit/errors.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { adapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { BROWSE_URL, TAB_PARAMS } from './plan.ts';

const V1 = fixturePath('youtube', 'browse_channel_videos_tab_initial_2026-05.json');
const skip = fixtureMissing(V1);
const gate = readFileSync(new URL('./constructed-browse-age-gate.json', import.meta.url), 'utf8');
const res = (body: string) => ({ status: 200, url: BROWSE_URL, headers: {}, body });
const ctx = (query: string, shorts = false) => ({ query, params: { shorts } });
const loginRequired = (re: RegExp) => (e: unknown) => isSourceError(e) && e.type === 'login_required' && re.test(e.message);

test('an age-gated channel is login_required with its reason, from the adapter and from trawl parse', () => {
  const [s] = adapter.plan(ctx('UCTwECeGqMZee77BjdoYtI2Q'));
  assert.throws(() => adapter.parse(s!, res(gate), ctx('x')), loginRequired(/"Constructed Late Night Channel" is age-restricted: Content Warning .*Sign in to confirm your age/));
  assert.throws(() => parseCapture(gate), /age-restricted/);
  // The same gate in a channel page's ytInitialData.
  const page = { kind: 'channel-page', url: 'https://www.youtube.com/@x/videos', expect: 'text' as const, state: { tab: 'videos', channel: { channel_id: null, channel_name: null, channel_handle: '@x' } } };
  assert.throws(() => adapter.parse(page, res(`<html><script>var ytInitialData = ${gate};</script></html>`), ctx('x')), loginRequired(/age-restricted/));
});

test('the real Videos answer with its tabs replaced by the gate or by a sign-in prompt: login_required, not []', { skip }, () => {
  const [s] = adapter.plan(ctx('UCTwECeGqMZee77BjdoYtI2Q'));
  const withGate = JSON.parse(readFileSync(V1, 'utf8'));
  withGate.contents.twoColumnBrowseResultsRenderer.tabs = JSON.parse(gate).contents.twoColumnBrowseResultsRenderer.tabs;
  assert.throws(() => adapter.parse(s!, res(JSON.stringify(withGate)), ctx('x')), loginRequired(/age-restricted/));
  const withPrompt = JSON.parse(readFileSync(V1, 'utf8'));
  withPrompt.contents.twoColumnBrowseResultsRenderer.tabs = [{ tabRenderer: { selected: true, title: 'Home', content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ messageRenderer: { text: { runs: [{ text: 'Sign in to view this channel' }] } } }] } }] } } } }];
  assert.throws(() => adapter.parse(s!, res(JSON.stringify(withPrompt)), ctx('x')), loginRequired(/Sign in to view this channel/));
  // The real answer itself is not gated.
  assert.equal(adapter.parse(s!, res(readFileSync(V1, 'utf8')), ctx('x')).records.length, 30);
});

test("a channel's uploads playlist (UU id, playlist and watch links) is read as the channel's videos", { skip }, () => {
  for (const q of [
    'UUTwECeGqMZee77BjdoYtI2Q',
    'https://www.youtube.com/playlist?list=UUTwECeGqMZee77BjdoYtI2Q',
    'youtube.com/watch?v=Wi5vPm56fzg&list=UUTwECeGqMZee77BjdoYtI2Q&index=3',
  ]) {
    assert.equal(adapter.checkQuery!(q), undefined, q);
    const [s] = adapter.plan(ctx(q));
    const body = JSON.parse(s!.body!);
    assert.deepEqual([s!.kind, body.browseId, body.params], ['browse', 'UCTwECeGqMZee77BjdoYtI2Q', TAB_PARAMS.videos], q);
    const out = adapter.parse(s!, res(readFileSync(V1, 'utf8')), ctx(q));
    assert.equal(out.records.length, 30);
    assert.equal(out.records[29]!.video_id, 'Wi5vPm56fzg');
    assert.equal(out.records[0]!.channel_id, 'UCTwECeGqMZee77BjdoYtI2Q');
  }
  // Another playlist is refused, saying which ones are read.
  assert.match(adapter.checkQuery!('https://www.youtube.com/playlist?list=PLbpi6ZahtOH6Blw3RGYpWkSByi_T7Rygb') ?? '', /not a channel's uploads playlist/);
});
