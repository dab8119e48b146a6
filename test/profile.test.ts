/**
 * Account self-service operations (src/contract/profile.ts): API keys listed without the key,
 * created (shown once), revoked (own keys only, never the last), and usage per product per day.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

test('keys: create shows the key once, it works, listing never shows it, revoke stops it', async () => {
  const created = await h.json('/profile/keys', { method: 'POST' });
  assert.equal(created.status, 200);
  assert.match(created.body.api_key, /^trw_/);
  assert.equal(created.body.prefix, created.body.api_key.slice(0, 8));
  assert.equal((await h.json('/profile/balance', { key: created.body.api_key })).status, 200);
  const list = await h.json('/profile/keys');
  assert.equal(list.body.length, 2);
  assert.ok(!JSON.stringify(list.body).includes(created.body.api_key), 'the key itself is never listed');
  assert.deepEqual(Object.keys(list.body[0]).sort(), ['created', 'id', 'prefix', 'revoked']);
  assert.equal((await h.json(`/profile/keys/${created.body.id}`, { method: 'DELETE' })).body.revoked, created.body.id);
  assert.equal((await h.json(`/profile/keys/${created.body.id}`, { method: 'DELETE' })).status, 404, 'revoked twice');
  await new Promise((r) => setTimeout(r, 1_100)); // keys seen within the last second are cached
  assert.equal((await h.json('/profile/balance', { key: created.body.api_key })).status, 401);
  assert.equal((await h.json('/profile/keys')).body.find((k: any) => k.id === created.body.id).revoked > 0, true);
});

test('keys: another account\'s key cannot be revoked, nor the last active one', async () => {
  const other = await h.newAccount();
  const theirs = (await h.json('/profile/keys', { key: other.key })).body[0];
  assert.equal((await h.json(`/profile/keys/${theirs.id}`, { method: 'DELETE' })).status, 404);
  const last = await h.json(`/profile/keys/${theirs.id}`, { method: 'DELETE', key: other.key });
  assert.equal(last.status, 422);
  assert.match(last.body.errorMessage, /last active key/);
});

test('usage per day: today\'s line per product, older days empty, days bounded', async () => {
  await h.json('/maps/search?query=n=3&async=false');
  const u = await h.json('/profile/usage?days=3');
  assert.equal(u.status, 200);
  assert.equal(u.body.currency, 'usd');
  assert.deepEqual(u.body.days.map((d: any) => d.date), [-2, -1, 0].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10)));
  assert.deepEqual(u.body.days[0].products, []);
  const today = u.body.days[2].products.find((p: any) => p.product_name === 'engine_maps_service_v2');
  assert.equal(today?.quantity, 3);
  assert.equal(today?.unit, 'place');
  assert.equal((await h.json('/profile/usage')).body.days.length, 30);
  assert.equal((await h.json('/profile/usage?days=93')).status, 422);
});

test('prices: every data endpoint, enrichment and the business search, at the account\'s own price where one is set', async () => {
  const other = await h.newAccount();
  await h.svc.ctx.store.setPrice('reverse_geocoding_service', 1_250, other.account.id);
  const mine = await h.json('/profile/prices');
  assert.equal(mine.status, 200);
  assert.equal(mine.body.currency, 'usd');
  const of = (body: any, product: string) => body.prices.find((p: any) => p.product === product);
  assert.deepEqual(of(mine.body, 'engine_maps_service_v2'), { product: 'engine_maps_service_v2', unit: 'place', endpoint: '/maps/search', unit_price: '0.003000', unit_price_micros: 3_000 });
  assert.deepEqual(of(mine.body, 'reverse_geocoding_service'), { product: 'reverse_geocoding_service', unit: 'location', endpoint: '/reverse-geocoding', unit_price: '0.001000', unit_price_micros: 1_000 });
  assert.equal(of(mine.body, 'phones_enricher_service').unit_price_micros, 500);
  assert.equal(of(mine.body, 'businesses').unit, 'business');
  const theirs = (await h.json('/profile/prices', { key: other.key })).body;
  assert.equal(of(theirs, 'reverse_geocoding_service').unit_price, '0.001250', 'their own price, not the default');
  assert.equal((await h.json('/profile/prices', { key: null })).status, 401);
});
