/**
 * Never a silent truncation (issue 34, item 1), over HTTP with the real /maps/reviews adapter and the
 * loopback 2026 product (test/support/site-2026.ts): each form of the signed-out limited view (a 403,
 * five reviews without a token, a sign-in page) ends the query with `limited_view` in `errors`; a
 * list that ends short of the place's stated count ends it with `incomplete`; the records read are
 * kept and billed. A whole list, or one the query's own reviewsLimit stops, has no reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { onSite } from './support/map-site.ts';
import { site2026, type Site2026Options } from './support/site-2026.ts';

async function withSite(o: Site2026Options, run: (h: Harness, site: ReturnType<typeof site2026>) => Promise<void>): Promise<void> {
  const site = site2026(o);
  const http = await site.listen();
  const h = await startHarness({ adapters: registryOfAdapters([onSite(reviewsAdapter, http.url)]), settings: { allowPrivateTargets: true }, balance: 1e6 });
  try {
    await run(h, site);
  } finally {
    await h.close();
    await http.close();
  }
}

const counts = (i: number) => [40, 3, 120][i % 3]!;

async function reviews(h: Harness, ids: string[], extra = '&reviewsLimit=0') {
  const q = ids.map((id) => `query=${encodeURIComponent(id)}`).join('&');
  const r = await h.json(`/maps/reviews?${q}&reviewsRoute=map&async=false${extra}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { status: string; data: any[][]; errors?: Array<{ query: string; error: { type: string; message: string } }> };
}

for (const mode of ['forbidden', 'five', 'sign_in'] as const) {
  test(`the signed-out limited view (${mode}) ends the query with limited_view, the records read kept and billed`, { timeout: 60_000 }, async () => {
    await withSite({ places: 3, reviewsOf: counts, signedOut: mode }, async (h, site) => {
      const before = (await h.json('/profile/balance')).body.balance as number;
      const body = await reviews(h, site.placeIds);
      assert.equal(body.status, 'Success');
      const got = body.data.map((q) => q[0]?.reviews_data.length);
      const want = mode === 'five' ? [5, 3, 5] : [0, mode === 'forbidden' ? 0 : 0, 0];
      assert.deepEqual(got, want);
      // The three-review place's list is whole when it is read whole (five); else it is limited too.
      const short = mode === 'five' ? [site.placeIds[0], site.placeIds[2]] : site.placeIds;
      assert.deepEqual(body.errors?.map((e) => [e.query, e.error.type]), short.map((q) => [q, 'limited_view']));
      assert.match(body.errors![0]!.error.message, mode === 'five' ? /\(5 reviews and no next-page token\); read 5 of the 40/ : /read 0 of the 40/);
      // Billed as read: the reviews returned, and one unit for a query that returned none (decision 20).
      const units = got.reduce((a, n) => a + Math.max(1, n), 0);
      const after = (await h.json('/profile/balance')).body.balance as number;
      assert.ok(before - after > 0, 'the query is billed');
      const price = (before - after) / units;
      assert.ok(Number.isFinite(price) && price > 0);
    });
  });
}

test('a list that ends short of the stated count is incomplete; a whole one or one cut by reviewsLimit has no reason', { timeout: 60_000 }, async () => {
  await withSite({ places: 3, reviewsOf: counts, signedOut: 'open', withheld: 2 }, async (h, site) => {
    const body = await reviews(h, site.placeIds);
    assert.deepEqual(body.data.map((q) => q[0]?.reviews_data.length), [38, 1, 118]);
    // 40 stated, 38 read: 2 > 1 % of 40; 120 stated, 118 read: 2 > 1 (1 % of 120). A first page of
    // at most five without a token, short of the count, reads as the limited view (it cannot be told apart).
    assert.deepEqual(body.errors?.map((e) => [e.query, e.error.type]), site.placeIds.map((q, k) => [q, k === 1 ? 'limited_view' : 'incomplete']));
    assert.match(body.errors![0]!.error.message, /read 38 of the 40 the answer states/);
    const cut = await reviews(h, [site.placeIds[2]!], '&reviewsLimit=30');
    assert.equal(cut.data[0]![0].reviews_data.length, 30);
    assert.equal(cut.errors, undefined, 'the query\'s own reviewsLimit is no shortfall');
  });
  await withSite({ places: 3, reviewsOf: counts, signedOut: 'open' }, async (h, site) => {
    const body = await reviews(h, site.placeIds);
    assert.deepEqual(body.data.map((q) => q[0]?.reviews_data.length), [40, 3, 120]);
    assert.equal(body.errors, undefined);
  });
});
