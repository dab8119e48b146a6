/**
 * Metering of POST /businesses (decision 20): one `business` unit per returned item, billed once per
 * answer; the `total` of include_total and an empty page cost nothing; an account that cannot pay
 * gets a 402 and no page.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { business } from '../src/store/businesses/conformance.ts';
import { fromMicros, toMicros } from '../src/billing/money.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

const search = (body: unknown, key: string) =>
  h.json('/businesses', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, key });
/** In the currency unit: exact, the store keeps micros. */
const balanceOf = async (id: string) => fromMicros((await h.svc.ctx.store.getAccount(id))!.balanceMicros);
const PRICE = 0.125;

async function seededAccount(balance: number, n: number) {
  const a = await h.newAccount({ balance });
  await h.svc.ctx.store.setPrice('businesses', toMicros(PRICE), a.account.id);
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id,
    Array.from({ length: n }, (_, i) => business(`${a.account.id}-${i}`, { name: `shop ${i}`, country_code: 'US' })), Date.now());
  return a;
}

test('each returned item costs one business unit; the total and an empty page cost nothing', async () => {
  const a = await seededAccount(10, 7);
  const page = await search({ limit: 3, include_total: true }, a.key);
  assert.equal(page.status, 200, JSON.stringify(page.body));
  assert.equal(page.body.items.length, 3);
  assert.equal(page.body.total, 7);
  assert.equal(await balanceOf(a.account.id), 10 - 3 * PRICE, 'three items billed, not the total of seven');
  const rest = await search({ limit: 10, cursor: page.body.next_cursor, include_total: true }, a.key);
  assert.equal(rest.body.items.length, 4);
  assert.equal(await balanceOf(a.account.id), 10 - 7 * PRICE);
  const none = await search({ filters: { country_code: 'FR' }, include_total: true }, a.key);
  assert.equal(none.status, 200);
  assert.deepEqual([none.body.items.length, none.body.total], [0, 0]);
  assert.equal(await balanceOf(a.account.id), 10 - 7 * PRICE, 'an empty page is free');
  // A refused body is not billed either.
  assert.equal((await search({ filters: { rating: 'high' } }, a.key)).status, 422);
  const lines = await h.svc.ctx.store.usageForPeriod(a.account.id, 0, Date.now() + 1000);
  assert.deepEqual(lines, [{ product: 'businesses', unit: 'business', quantity: 7, amountMicros: toMicros(7 * PRICE), unitPriceMicros: toMicros(PRICE) }]);
});

test('an account at its credit limit gets a 402 and no page; the page that crossed it was billed whole', async () => {
  const a = await seededAccount(0.25, 5);
  // 0.25 pays for two items; the page of five is still answered (the balance was above zero) and billed.
  const first = await search({ limit: 5 }, a.key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(await balanceOf(a.account.id), 0.25 - 5 * PRICE);
  const next = await search({ limit: 5 }, a.key);
  assert.equal(next.status, 402, JSON.stringify(next.body));
  assert.match(next.body.errorMessage, /^402 Payment Required/);
  assert.equal(await balanceOf(a.account.id), 0.25 - 5 * PRICE);
});

test('parallel searches against one balance: one ledger line per answered page, the balance down by exactly their items', async () => {
  const a = await seededAccount(100, 5);
  const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => search({ limit: 1 + (i % 5) }, a.key)));
  assert.ok(pages.every((p) => p.status === 200), JSON.stringify(pages.find((p) => p.status !== 200)?.body));
  const items = pages.reduce((n, p) => n + p.body.items.length, 0);
  assert.equal(items, 4 * (1 + 2 + 3 + 4 + 5));
  assert.equal(await balanceOf(a.account.id), 100 - items * PRICE);
  const db = (h.svc.ctx.store as any).db;
  assert.equal(db.prepare('SELECT COUNT(*) AS n FROM usage WHERE account_id = ?').get(a.account.id).n, 20);
});
