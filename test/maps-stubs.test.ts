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
    assert.ok(m.stubs_retried >= 8, `a share of 0.4 of 40 places meets stubs (${m.stubs_retried})`);
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
    assert.ok(m.stubs_retried >= 5);
    assert.equal(m.stubs_retried + m.stubs_served, site.hits.stubs);
    body.data.forEach((d, k) => { if (!whole(d[0])) assert.ok(body.errors?.some((e) => e.query === site.placeIds[k] && e.error.type === 'stub')); });
    // Each re-ask went as the other account.
    const twice = [...site.placeAsks.values()].filter((w) => w.length === 2);
    assert.equal(twice.length, m.stubs_retried);
    for (const [a, b] of twice) assert.deepEqual([a, b].sort(), ['cookie:acctAAAA', 'cookie:acctBBBB']);
  }, (url) => ({ MAPS_COOKIES: '__Secure-1PSID=acctAAAA\n__Secure-1PSID=acctBBBB', MAPS_COOKIE_HOSTS: new URL(url).host }));
});
