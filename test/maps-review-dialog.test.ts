/**
 * The review dialog as the signed-out route (issue 34, item 3), over HTTP with the real /maps/reviews
 * adapter and the loopback 2026 product: `auto` meets the limited view on the map's list and reads the
 * place from the dialog, ten a page, every review and no reason; `reviewsRoute=dialog` goes there at
 * once; sort, cutoff and reviewsLimit hold on this route too. The answers are constructed (no real
 * capture of the dialog exists; src/sources/maps-reviews/constructed-dialog.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { adapter as reviewsAdapter } from '../src/sources/maps-reviews/adapter.ts';
import { onSite } from './support/map-site.ts';
import { site2026 } from './support/site-2026.ts';

test('signed out, auto reads every review through the dialog; dialog, sort, cutoff and reviewsLimit hold', { timeout: 90_000 }, async () => {
  const counts = [40, 3, 125, 0, 10];
  const site = site2026({ places: counts.length, reviewsOf: (i) => counts[i]!, signedOut: 'forbidden' });
  const http = await site.listen();
  const h = await startHarness({ adapters: registryOfAdapters([onSite(reviewsAdapter, http.url)]), settings: { allowPrivateTargets: true }, balance: 1e6 });
  const get = async (qs: string) => {
    const q = site.placeIds.map((id) => `query=${id}`).join('&');
    const r = await h.json(`/maps/reviews?${q}&async=false&${qs}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { data: any[][]; errors?: unknown[] };
  };
  try {
    const auto = await get('reviewsLimit=0');
    assert.equal(auto.errors, undefined, JSON.stringify(auto.errors));
    assert.deepEqual(auto.data.map((q) => q[0].reviews_data.length), counts);
    // One 403 per place with reviews, then ceil(n / 10) dialog pages.
    assert.equal(site.hits.reviews_limited, 4);
    assert.equal(site.hits.dialog, counts.reduce((a, n) => a + Math.ceil(n / 10), 0));
    const ids = auto.data[2]![0].reviews_data.map((r: any) => r.review_id);
    assert.equal(new Set(ids).size, 125, 'no review twice');

    const before = { ...site.hits };
    const dialog = await get('reviewsRoute=dialog&reviewsLimit=25&sort=newest');
    assert.equal(site.hits.reviews - before.reviews, 0, 'the dialog route asks the map list nothing');
    assert.deepEqual(dialog.data.map((q) => q[0].reviews_data.length), [25, 3, 25, 0, 10]);
    assert.equal(dialog.errors, undefined);
    const ts = dialog.data[0]![0].reviews_data.map((r: any) => r.review_timestamp);
    assert.deepEqual(ts, [...ts].sort((a: number, b: number) => b - a), 'newest first');
    assert.match(dialog.data[0]![0].reviews_data[0].review_pagination_id, /^dlg:/);

    // cutoff: the reviews of place 2 newer than its 30th.
    const cutoff = auto.data[2]![0].reviews_data[29].review_timestamp as number;
    const cut = await get(`reviewsRoute=dialog&reviewsLimit=0&cutoff=${cutoff}`);
    assert.equal(cut.data[2]![0].reviews_data.length, 30);
    assert.equal(cut.errors, undefined, 'a cutoff is the query\'s own bound');

    const low = await get('reviewsRoute=dialog&reviewsLimit=10&sort=lowest_rating');
    const ratings = low.data[0]![0].reviews_data.map((r: any) => r.review_rating);
    assert.deepEqual(ratings, [1, 1, 1, 1, 1, 1, 1, 1, 2, 2], 'lowest first (8 of each rating among 40)');
  } finally {
    await h.close();
    await http.close();
  }
});
