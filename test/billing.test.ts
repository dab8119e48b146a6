/**
 * Metering under concurrency: many requests in parallel against one balance; the ledger, the
 * per-request usage, the history and the balance add up exactly (decision 20).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until } from './support/harness.ts';

test('60 parallel requests against one balance: the ledger adds up exactly', { timeout: 60_000 }, async () => {
  const h = await startHarness({ balance: 50 });
  try {
    const shapes = ['n=3', 'empty', 'n=1', 'fail', 'n=5'];
    const subs = await Promise.all(Array.from({ length: 60 }, (_, i) => {
      const qs = shapes.map((s) => `query=${encodeURIComponent(`${s};r=${i}`)}`).join('&');
      return h.json(`/maps/search?${qs}${i % 2 ? '&async=false' : ''}`);
    }));
    assert.ok(subs.every((s) => s.status === 200 || s.status === 202), JSON.stringify(subs.find((s) => s.status >= 300)?.body));
    const ids = subs.map((s) => s.body.id as string);
    await until(async () => {
      const rows = await Promise.all(ids.map((id) => h.svc.ctx.store.getRequest(id)));
      return rows.every((r) => r?.finishedAt !== null);
    }, 30_000, 'all requests');
    // Per request: 3 + 1 (empty costs one) + 1 + 0 (failed query is free) + 5 = 10 units.
    const rows = await Promise.all(ids.map((id) => h.svc.ctx.store.getRequest(id)));
    assert.ok(rows.every((r) => r!.usage === 10), rows.map((r) => r!.usage).join(','));
    const db = (h.svc.ctx.store as any).db;
    const ledger = db.prepare('SELECT COUNT(*) AS n, SUM(quantity) AS q, SUM(amount_micros) AS a FROM usage WHERE account_id = ?').get(h.account.id);
    assert.equal(ledger.n, 60 * 4, 'one line per billed work item');
    assert.equal(ledger.q, 600);
    const balance = (await h.json('/profile/balance')).body;
    assert.equal((await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros, 50_000_000 - ledger.a, 'exact: the ledger is integer micros');
    assert.equal(balance.balance, Math.round((50_000_000 - ledger.a) / 10_000) / 100, 'shown to the cent');
    assert.equal(balance.upcoming_invoice.subtotal, Math.round(ledger.a / 10_000) / 100);
    const history = (await h.json('/requests?type=finished&pageSize=100')).body as { id: string; usage: string }[];
    assert.equal(history.length, 60);
    assert.ok(history.every((x) => x.usage === '10'));
  } finally { await h.close(); }
});

test('the next submit after work drew the balance to the credit limit is 402 at once, not after the key cache expires', async () => {
  const h = await startHarness({ balance: 0.009 });
  try {
    // 5 places asked at 0.003, 3 kept (the credit limit stops the query): the balance goes to 0, while
    // the authentication cache still holds 0.009.
    assert.equal((await h.json('/maps/search?query=n=5&async=false')).status, 200);
    const next = await h.json('/maps/search?query=n=1');
    assert.equal(next.status, 402, JSON.stringify(next.body));
  } finally { await h.close(); }
});

test('money is exact inside and shown to the currency\'s precision: 112 units at 0.001 leave exactly 99.888, shown 99.89, not 99.88799999999995', async () => {
  const h = await startHarness({ balance: 100 });
  try {
    await h.svc.ctx.store.setPrice('engine_maps_service_v2', 1_000, h.account.id);
    // 28 queries of 4 places: 28 charges of 0.004, which a float balance accumulates with drift.
    const qs = Array.from({ length: 28 }, (_, i) => `query=${encodeURIComponent(`n=4;i=${i}`)}`).join('&');
    assert.equal((await h.json(`/maps/search?${qs}&async=false`)).status, 200);
    const res = await h.get('/profile/balance');
    const text = await res.text();
    assert.equal((await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros, 99_888_000);
    assert.match(text, /"balance":99\.89[,}]/, text.slice(0, 200));
    const b = JSON.parse(text);
    assert.equal(b.upcoming_invoice.total, 0.11);
    // Amounts to the cent; the unit price exact (a fraction of a cent).
    assert.deepEqual(b.upcoming_invoice.products_lines.map((l: any) => [l.product_name, l.quantity, l.amount, l.lines[0].unit_price]),
      [['engine_maps_service_v2', 112, 0.11, '0.001']]);
    const usage = (await h.json('/profile/usage?days=1')).body;
    assert.equal(usage.days[0].products[0].amount, 0.11);
  } finally { await h.close(); }
});
