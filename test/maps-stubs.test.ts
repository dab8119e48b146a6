/**
 * Stub answers (issue 34, item 4), over HTTP with the real /maps/search and /maps/reviews adapters
 * and the loopback 2026 product (test/support/site-2026.ts), which gives a share of sessions a stub
 * place page (today's hours only, no place id). A stub is asked again once from another identity;
 * what stays a stub is served with `errors[].error.type = stub`; `metadata` counts both. No record
 * short of its page's shape is ever served without a reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { adapter as searchAdapter } from '../src/sources/maps-search/adapter.ts';
import { onSite } from './support/map-site.ts';
import { site2026, type Site2026, type Site2026Options } from './support/site-2026.ts';

async function withSite(o: Site2026Options, run: (h: Harness, site: Site2026) => Promise<void>, env?: (url: string) => Record<string, string>): Promise<void> {
  const site = site2026(o);
  const http = await site.listen();
  const h = await startHarness({ adapters: registryOfAdapters([onSite(searchAdapter, http.url), onSite(reviewsAdapter, http.url)]), settings: { allowPrivateTargets: true }, balance: 1e6, env: env?.(http.url) });
  try {
    await run(h, site);
  } finally {
    await h.close();
    await http.close();
  }
}

type Answer = { status: string; data: any[][]; errors?: Array<{ query: string; error: { type: string; message: string } }>; metadata?: { stubs_retried: number; stubs_served: number } };

async function ask(h: Harness, path: string, ids: string[], extra = ''): Promise<Answer> {
  const r = await h.json(`${path}?${ids.map((id) => `query=${id}`).join('&')}&async=false${extra}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as Answer;
}

const whole = (p: any) => typeof p.place_id === 'string' && p.place_id !== '' && Object.keys(p.working_hours ?? {}).length === 7;

test('a stub place page is asked again from another identity; what stays a stub is served with reason stub, counted in metadata', { timeout: 90_000 }, async () => {
  await withSite({ places: 40, reviewsOf: () => 3, stubShare: 0.4, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/search', site.placeIds);
    assert.equal(body.status, 'Success');
    const stubbed = new Set((body.errors ?? []).filter((e) => e.error.type === 'stub').map((e) => e.query));
    let served = 0;
    body.data.forEach((d, k) => {
      const p = d[0];
      assert.ok(p, `place ${k} is served`);
      // Never a stub served as complete: a record short of its page's shape has its reason.
      if (!whole(p)) {
        served++;
        assert.ok(stubbed.has(site.placeIds[k]!), `place ${k} is a stub without a reason`);
      } else assert.ok(!stubbed.has(site.placeIds[k]!), `place ${k} is whole and has no reason`);
    });
    const m = body.metadata!;
    assert.ok(m, 'metadata counts the stubs');
    // Every stub answer the site gave was either asked again (first) or served (second).
    assert.equal(m.stubs_retried + m.stubs_served, site.hits.stubs);
    assert.equal(m.stubs_served, served);
    // The site draws by place and by the order of the visitors who asked it, not by which session
    // the scheduling sends (session 25): its draws at a share of 0.4 give 20 stub first answers of
    // 40, and 10 of those stay stubs for the second visitor.
    assert.equal(m.stubs_retried, 20, 'every stub first answer is asked again');
    assert.equal(m.stubs_served, 10, 'what the second visitor also gets as a stub is served as one');
    assert.ok(m.stubs_served < m.stubs_retried, 'another identity mostly gets the whole page');
    assert.equal(site.hits.place, site.placeIds.length + m.stubs_retried, 'one more place page per stub, no more');
    // Each re-ask came from another identity (another session: its own cookies).
    const twice = [...site.placeAsks.values()].filter((w) => w.length === 2);
    assert.equal(twice.length, m.stubs_retried);
    for (const [a, b] of twice) assert.notEqual(a, b, 'the re-ask came as another session');
    if (served) assert.match(body.errors!.find((e) => e.error.type === 'stub')!.error.message, /1 record served as a stub .*Place \d+: no place_id; hours of 1 day of 7/);
  });
});

test('/maps/reviews: a stub place page is asked again before its reviews; every session stubbing serves each place with reason stub', { timeout: 90_000 }, async () => {
  await withSite({ places: 4, reviewsOf: () => 12, stubShare: 1, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/reviews', site.placeIds, '&reviewsLimit=0&reviewsRoute=map');
    assert.deepEqual(body.data.map((d) => d[0].reviews_data.length), [12, 12, 12, 12], 'the reviews are read all the same');
    assert.deepEqual(body.data.map((d) => d[0].place_id), [null, null, null, null]);
    assert.deepEqual(body.errors?.map((e) => [e.query, e.error.type]), site.placeIds.map((q) => [q, 'stub']));
    assert.deepEqual(body.metadata, { stubs_retried: 4, stubs_served: 4 });
    assert.equal(site.hits.place, 8);
  });
  await withSite({ places: 4, reviewsOf: () => 12, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/reviews', site.placeIds, '&reviewsLimit=0&reviewsRoute=map');
    assert.equal(body.errors, undefined);
    assert.equal(body.metadata, undefined, 'no stubs met: no metadata');
    assert.equal(site.hits.place, 4);
  });
});

test('signed in: the re-ask goes as another account', { timeout: 90_000 }, async () => {
  // The site draws stubs per cookie: account A's view of a place is a stub where B's may not be.
  const cookies = { 'acctAAAA': Infinity, 'acctBBBB': Infinity };
  await withSite({ places: 30, reviewsOf: () => 3, stubShare: 0.5, signedOut: 'forbidden', cookies }, async (h, site) => {
    const body = await ask(h, '/maps/search', site.placeIds);
    const m = body.metadata!;
    assert.deepEqual([m.stubs_retried, m.stubs_served], [17, 9], 'the site\'s draws at a share of 0.5 of 30: 17 first answers stubs, 9 second');
    assert.equal(m.stubs_retried + m.stubs_served, site.hits.stubs);
    body.data.forEach((d, k) => { if (!whole(d[0])) assert.ok(body.errors?.some((e) => e.query === site.placeIds[k] && e.error.type === 'stub')); });
    // Each re-ask went as the other account.
    const twice = [...site.placeAsks.values()].filter((w) => w.length === 2);
    assert.equal(twice.length, m.stubs_retried);
    for (const [a, b] of twice) assert.deepEqual([a, b].sort(), ['cookie:acctAAAA', 'cookie:acctBBBB']);
  }, (url) => ({ MAPS_COOKIES: '__Secure-1PSID=acctAAAA\n__Secure-1PSID=acctBBBB', MAPS_COOKIE_HOSTS: new URL(url).host }));
});

/** A phrase search's answer checked against the site: each page asked twice had a stub on its first
 *  ask, and what the second (or only) ask held as stubs is what is served with the reason. */
function checkListings(body: Answer, site: Site2026, phrase: string, places: number): void {
  assert.equal(body.status, 'Success');
  const got = body.data[0]!;
  assert.equal(got.length, places, 'every place is listed');
  const m = body.metadata ?? { stubs_retried: 0, stubs_served: 0 };
  const asks = [...site.searchAsks.values()];
  assert.equal(asks.length, Math.ceil(places / 20), 'every page asked');
  // A page is asked again only when its answer held a stub listing, and only once, as another visitor.
  for (const a of asks) {
    assert.ok(a.length <= 2, 'asked again once at most');
    if (a.length === 2) {
      assert.ok(a[0]!.stubs > 0, 'asked again only after a stub answer');
      assert.notEqual(a[0]!.who, a[1]!.who, 'the re-ask came as another visitor');
    } else assert.equal(a[0]!.stubs, 0, 'a page with a stub listing is asked again');
  }
  assert.equal(m.stubs_retried, asks.filter((a) => a.length === 2).length);
  assert.equal(site.hits.search, asks.length + m.stubs_retried, 'one more page per page with a stub, no more');
  const servedBySite = asks.reduce((n, a) => n + a[a.length - 1]!.stubs, 0);
  const short = got.filter((p) => !whole(p)).length;
  assert.equal(short, servedBySite, 'the records short of their shape are the stubs the site served');
  assert.equal(m.stubs_served, short);
  const reason = body.errors?.find((e) => e.query === phrase && e.error.type === 'stub');
  // Never a stub served as complete: a query with a record short of its shape says so, and only then.
  if (short) assert.match(reason?.error.message ?? '', new RegExp(`^${short} records? served as a stub .*Place \\d+: no place_id; hours of 1 day of 7`));
  else assert.equal(reason, undefined);
}

test('/maps/search phrase: a page with a stub listing is asked again from another identity; listings that stay stubs are served with reason stub', { timeout: 90_000 }, async () => {
  // Per visitor and listing: the second answer has stubs of its own, served with the reason.
  await withSite({ places: 50, reviewsOf: () => 3, stubShare: 0.05, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/search', ['dentists austin'], '&limit=50');
    checkListings(body, site, 'dentists austin', 50);
    assert.ok(body.metadata!.stubs_retried >= 1, 'a share of 0.05 of 50 listings meets a stub');
  });
  // Per visitor (a stub session): another session's answer is whole, so nothing stays a stub but by chance.
  await withSite({ places: 50, reviewsOf: () => 3, stubShare: 0.5, stubBy: 'visitor', signedOut: 'open', seed: 3 }, async (h, site) => {
    const body = await ask(h, '/maps/search', ['dentists austin'], '&limit=50');
    checkListings(body, site, 'dentists austin', 50);
    assert.ok([...site.searchAsks.values()].some((a) => a.length === 2 && a[1]!.stubs === 0), 'a stub page asked again from a whole session is whole');
  });
  // No stubs: no re-ask, no reason, no metadata.
  await withSite({ places: 30, reviewsOf: () => 3, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/search', ['dentists austin'], '&limit=30');
    checkListings(body, site, 'dentists austin', 30);
    assert.equal(body.metadata, undefined);
    assert.equal(site.hits.search, 2);
  });
});

test('/maps/reviews phrase: its search listings are checked too; a stub listing is asked again, what stays one has reason stub', { timeout: 90_000 }, async () => {
  await withSite({ places: 25, reviewsOf: () => 2, stubShare: 1, signedOut: 'open' }, async (h, site) => {
    const body = await ask(h, '/maps/reviews', ['dentists austin'], '&limit=25&reviewsLimit=0&reviewsRoute=map');
    assert.equal(body.status, 'Success');
    assert.equal(body.data[0]!.length, 25);
    assert.deepEqual(body.metadata, { stubs_retried: 2, stubs_served: 25 }, 'both pages asked again, every listing still a stub');
    assert.equal(site.hits.search, 4);
    assert.match(body.errors!.find((e) => e.error.type === 'stub')!.error.message, /^25 records served as a stub/);
  });
});
