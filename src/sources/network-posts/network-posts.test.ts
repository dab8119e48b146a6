import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { makeAdapter } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { classifyCompany } from './query.ts';
import { networkSettings } from './settings.ts';
import { Value } from '@sinclair/typebox/value';
import { networkPostRecord } from '../../contract/records/network-posts.ts';
import { countOf, timeOfActivityId } from './time.ts';

const read = (f: string) => readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8');
const PAGE = read('./constructed-company-page.html');
const FEED = read('./constructed-voyager-updates.json');
const PAGE_URL = 'https://www.linkedin.com/company/constructed-robotics/';
const Q = 'https://de.linkedin.com/company/constructed-robotics/posts/?feedView=all';
const out = makeAdapter({ signedIn: false });
const signed = makeAdapter(networkSettings({ NETWORK_POSTS_COOKIES: 'li_at=AQEconstructed; JSESSIONID="ajax:1234567890"' }));
const ctx = (params: Record<string, unknown> = {}, query = Q) => ({ query, params: { limit: 100, ...params } });
const res = (body: string, url = PAGE_URL, status = 200): FetchedResponse => ({ status, url, headers: {}, body });
const typeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (isSourceError(e)) return e.type;
    throw e;
  }
  return 'no error';
};
const page0 = (a = out, params = {}): Step => a.plan(ctx(params))[0];

test('query forms: company URLs on any locale host, /posts/, showcase, ids, URNs, bare names', () => {
  assert.deepEqual(classifyCompany(Q), { key: 'constructed-robotics', numeric: false, section: 'company' });
  assert.deepEqual(classifyCompany('linkedin.com/company/microsoft'), { key: 'microsoft', numeric: false, section: 'company' });
  assert.deepEqual(classifyCompany('https://www.linkedin.com/showcase/azure/'), { key: 'azure', numeric: false, section: 'showcase' });
  assert.deepEqual(classifyCompany('https://www.linkedin.com/company/1035/'), { key: '1035', numeric: true, section: 'company' });
  assert.deepEqual(classifyCompany('1035'), { key: '1035', numeric: true, section: 'company' });
  assert.deepEqual(classifyCompany('urn:li:organization:1035'), { key: '1035', numeric: true, section: 'company' });
  assert.deepEqual(classifyCompany('microsoft'), { key: 'microsoft', numeric: false, section: 'company' });
  for (const q of ['', 'https://www.linkedin.com/in/someone/', 'https://example.com/company/x', 'two words']) {
    assert.equal(typeof out.checkQuery!(q), 'string', q);
    assert.equal(typeOf(() => out.plan(ctx({}, q))), 'invalid_query', q);
  }
});

test('plan: logged out reads the company page on www; signed in reads the feed with the csrf token', () => {
  const p = page0();
  assert.deepEqual([p.kind, p.url, p.expect, p.headers], ['page', PAGE_URL, 'html', undefined]);
  const f = page0(signed);
  assert.equal(f.kind, 'feed');
  const u = new URL(f.url);
  assert.equal(u.pathname, '/voyager/api/feed/updatesV2');
  assert.deepEqual(Object.fromEntries(u.searchParams), { q: 'companyFeedByUniversalName', companyUniversalName: 'constructed-robotics', moduleKey: 'member-share', count: '20', start: '0' });
  // The session never sits in a step (steps go into checkpoints and cursors): the executor adds it.
  assert.equal(JSON.stringify(f).includes('AQEconstructed'), false);
  assert.deepEqual([f.headers!.cookie, f.headers!['csrf-token'], f.headers!['x-restli-protocol-version']], [undefined, undefined, '2.0.0']);
  // A numeric id signed in: the company page first, only to learn the slug.
  const r = signed.plan(ctx({}, '1035'))[0];
  assert.deepEqual([r.kind, r.url, (r.state as any).resolveOnly], ['page', 'https://www.linkedin.com/company/1035/', true]);
  const next = signed.parse(r, res('<html></html>', 'https://www.linkedin.com/company/microsoft/'), ctx({}, '1035'));
  assert.deepEqual(next.records, []);
  assert.equal(new URL(next.next![0].url).searchParams.get('companyUniversalName'), 'microsoft');
});

test('constructed logged-out company page → posts field by field', () => {
  const { records, next, cursor } = out.parse(page0(), res(PAGE), ctx());
  assert.equal(records.length, 3, 'the card without a post id is skipped');
  const [a, b, c] = records;
  assert.deepEqual(a, {
    query: Q,
    company_name: 'Constructed Robotics',
    company_id: '4242424',
    company_slug: 'constructed-robotics',
    post_id: '7265743553410330624',
    post_url: 'https://www.linkedin.com/posts/constructed-robotics_robots-activity-7265743553410330624-AbCd',
    text: 'Our new arm lifts 40 kg & still fits on a desk.\nMeet it at the fair: #robots',
    posted_timestamp: 1732288254,
    posted_datetime_utc: '2024-11-22T15:10:54Z',
    posted_ago: '1w',
    reactions: 1284,
    comments: 56,
    reposts: null,
    images: [],
    video_url: null,
    edited: false,
    next_page_cursor: null,
  });
  assert.equal(b.post_id, '7263001234567890123');
  assert.equal(b.posted_ago, '3w');
  assert.equal(b.edited, true);
  assert.equal(b.reactions, 87);
  assert.equal(b.comments, null);
  assert.deepEqual(b.images, [
    'https://media.licdn.com/dms/image/v2/C0NSTRUCTED1/feedshare-shrink_800/0/1700000000001?e=2147483647&v=beta&t=abc',
    'https://media.licdn.com/dms/image/v2/C0NSTRUCTED2/feedshare-shrink_800/0/1700000000002?e=2147483647&v=beta&t=def',
  ]);
  assert.equal(c.post_url, 'https://www.linkedin.com/feed/update/urn:li:activity:7250000000000000000/');
  assert.equal(c.video_url, 'https://dms.licdn.com/playlist/vid/v2/C0NSTRUCTEDV/mp4-720p-30fp-crf28/0/1700000000003?e=2147483647&v=beta&t=ghi');
  assert.deepEqual([c.reactions, c.comments, c.reposts, c.posted_ago, c.text], [1200, 7, 12, '2mo', 'Watch the demo.']);
  assert.deepEqual([next, cursor], [[], null]);
});

test('a video\'s stream locations: an entry flagged as an ad is none of the video\'s; a first location that is no link gives no video link', () => {
  const step = page0(signed);
  const videoOf = (change: (locs: any[]) => void) => {
    const j = JSON.parse(FEED);
    const meta = j.included.find((x: any) => Array.isArray(x.progressiveStreams));
    for (const st of meta.progressiveStreams) change(st.streamingLocations);
    return signed.parse(step, res(JSON.stringify(j), step.url), ctx()).records.map((r) => r.video_url);
  };
  const served = videoOf(() => {});
  assert.match(served.find(Boolean)!, /^https:\/\/dms\.licdn\.com\//);
  assert.deepEqual(videoOf((l) => l.unshift({ url: 'https://ads.example/x.mp4', isSponsored: true })), served);
  assert.deepEqual(videoOf((l) => { l[0] = { url: 'AD ' + l[0].url }; }), served.map(() => null));
});

test('constructed signed-in feed (normalized voyager JSON) → posts field by field, paged by start', () => {
  const step = page0(signed);
  const { records, next, cursor } = signed.parse(step, res(FEED, step.url), ctx());
  assert.equal(records.length, 3);
  const [a, b, c] = records;
  assert.deepEqual(
    a,
    {
      query: Q, company_name: 'Constructed Robotics', company_id: '4242424', company_slug: 'constructed-robotics', post_id: '7265743553410330624',
      post_url: 'https://www.linkedin.com/posts/constructed-robotics_robots-activity-7265743553410330624-AbCd',
      text: 'Our new arm lifts 40 kg & still fits on a desk.\nMeet it at the fair: #robots',
      posted_timestamp: 1732288254, posted_datetime_utc: '2024-11-22T15:10:54Z', posted_ago: '1w',
      reactions: 1284, comments: 56, reposts: 31,
      images: ['https://media.licdn.com/dms/image/v2/C0NSTRUCTED1/feedshare-shrink_1280/0/1700000000001?e=2147483647'],
      video_url: null, edited: false, next_page_cursor: null,
    },
  );
  assert.equal(b.video_url, 'https://dms.licdn.com/playlist/vid/v2/C0NSTRUCTEDV/mp4-720p-30fp-crf28/0/1700000000003');
  assert.deepEqual([b.posted_ago, b.edited, b.reactions], ['2mo', true, null]);
  assert.deepEqual([c.text, c.posted_ago, c.edited, c.post_id], [null, null, null, '7240000000000000000']);
  // total 3 reached: no next page.
  assert.deepEqual([next, cursor], [[], null]);
  // With more behind (total 50), the next step starts at 3 with the answer's token.
  const bigger = JSON.parse(FEED);
  bigger.data.paging.total = 50;
  const paged = signed.parse(step, res(JSON.stringify(bigger), step.url), ctx());
  const n = new URL(paged.next![0].url).searchParams;
  assert.deepEqual([n.get('start'), n.get('paginationToken')], ['3', 'constructed-token-1']);
  assert.equal(paged.cursor, 'constructed-token-1');
  // The plain (non-normalized) form nests the same objects: same posts.
  const j = JSON.parse(FEED);
  const byUrn = new Map(j.included.map((e: any) => [e.entityUrn, e]));
  const inline = (o: any): any => {
    if (!o || typeof o !== 'object') return o;
    if (Array.isArray(o)) return o.map(inline);
    const r: any = {};
    for (const [k, v] of Object.entries(o)) {
      if (k.startsWith('*') && typeof v === 'string') r[k.slice(1)] = inline(byUrn.get(v));
      else r[k] = inline(v);
    }
    return r;
  };
  const plain = { elements: j.data['*elements'].map((u: string) => inline(byUrn.get(u))), paging: j.data.paging, metadata: j.data.metadata };
  const p2 = signed.parse(step, res(JSON.stringify(plain), step.url), ctx());
  assert.deepEqual(p2.records.map((r) => ({ ...r, next_page_cursor: null })), records.map((r) => ({ ...r, next_page_cursor: null })));
});

test('walls and refusals are typed blocked errors saying why, never an empty success', () => {
  const p = page0();
  const msg = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return `${(e as any).type}: ${(e as Error).message}`;
    }
    return 'no error';
  };
  assert.match(msg(() => out.parse(p, res('<html>Sign in</html>', 'https://www.linkedin.com/authwall?trk=bf&sessionRedirect=x'), ctx())), /^blocked: authwall: .*NETWORK_POSTS_COOKIES/);
  assert.match(msg(() => out.parse(p, res('', PAGE_URL, 999), ctx())), /^blocked: HTTP 999/);
  assert.match(msg(() => out.parse(p, res('<html><head><script>window.location.href="https://www.linkedin.com/authwall?trk=x"</script></head></html>'), ctx())), /^blocked: authwall/);
  assert.match(msg(() => out.parse(p, res('<html><head><title>Sign Up | LinkedIn</title></head><body></body></html>'), ctx())), /^blocked: authwall/);
  // A company page with no updates section at all: posts hidden from logged-out visitors.
  assert.match(msg(() => out.parse(p, res(PAGE.replace(/<section class="core-section-container[\s\S]*<\/section>/, '')), ctx())), /^blocked: the logged-out company page of Constructed Robotics shows no posts section/);
  // An updates section with no card is an honest empty list.
  const empty = out.parse(p, res(PAGE.replace(/<li class="mb-1">[\s\S]*<\/ul>/, '</ul>')), ctx());
  assert.deepEqual(empty.records, []);
  assert.match(msg(() => out.parse(p, res('<html><body><p>hello</p></body></html>'), ctx())), /^layout_changed/);
  const f = page0(signed);
  assert.match(msg(() => signed.parse(f, res('', f.url, 401), ctx())), /^blocked: HTTP 401.*were refused/);
  assert.match(msg(() => signed.parse(f, res('<html>login</html>', 'https://www.linkedin.com/login?session_redirect=x'), ctx())), /^blocked: authwall/);
  assert.match(msg(() => signed.parse(f, res('{"status":403,"message":"CSRF check failed"}', f.url), ctx())), /^blocked: the feed refused: status 403/);
  assert.match(msg(() => signed.parse(f, res('{"data":{}}', f.url), ctx())), /^layout_changed/);
  assert.match(msg(() => signed.parse(f, res(FEED.slice(0, 500), f.url), ctx())), /^layout_changed/);
});

test('truncated and reordered variants: missing branches are null fields', () => {
  // Reactions and commentary gone from the first card; attributes reordered.
  const cut = PAGE.replace(/<div class="attributed-text-segment-list__container[\s\S]*?<\/div>\s*<div class="main-feed-activity-card__social-actions">[\s\S]*?<\/div>\s*<\/div>/, '')
    .replace('data-activity-urn="urn:li:activity:7265743553410330624" data-featured-activity-urn', 'data-featured-activity-urn');
  const [a] = out.parse(page0(), res(cut), ctx()).records;
  assert.equal(a.post_id, '7265743553410330624', 'the id also comes from the attributed urns');
  assert.deepEqual([a.text, a.reactions, a.comments], [null, null, null]);
  const j = JSON.parse(FEED);
  j.included = j.included.reverse().filter((e: any) => e.$type !== 'com.linkedin.voyager.feed.shared.SocialActivityCounts');
  const f = page0(signed);
  const recs = signed.parse(f, res(JSON.stringify(j), f.url), ctx()).records;
  assert.equal(recs[0].post_id, '7265743553410330624');
  assert.deepEqual([recs[0].reactions, recs[0].comments, recs[0].reposts], [null, null, null]);
});

test('times and counts: activity ids carry their creation time; printed counts read', () => {
  assert.equal(timeOfActivityId('7265743553410330624'), 1732288254);
  assert.equal(timeOfActivityId('12'), null);
  assert.equal(timeOfActivityId(null), null);
  assert.deepEqual(['1,284', '1.2K reactions', '3M', '56 Comments', '', 'none'].map(countOf), [1284, 1200, 3_000_000, 56, null, null]);
});

test('capture parser reads the company page and the feed answer as served', () => {
  for (const r of [...parseCapture(PAGE), ...parseCapture(FEED)]) assert.ok(Value.Check(networkPostRecord, r), JSON.stringify([...Value.Errors(networkPostRecord, r)][0]));
  assert.deepEqual(parseCapture(PAGE).map((r) => r.post_id), ['7265743553410330624', '7263001234567890123', '7250000000000000000']);
  const feed = parseCapture(FEED);
  assert.deepEqual(feed.map((r) => r.post_id), ['7265743553410330624', '7250000000000000000', '7240000000000000000']);
  assert.equal(feed[0].company_slug, null);
  assert.throws(() => parseCapture('{"x":1}'), /no elements/);
});
