/**
 * A running query stops at what its account can still pay (issue 28, src/billing/purse.ts), for each
 * kind of adapter, on both stores: a local lookup answering 10,000 records, a paged web source
 * streamed page by page (10,000 records in pages of 100), and a web source that buffers and merges
 * (`finish`). An account of 0.05 with no credit ends at or above zero (the bar: -0.2), the
 * records kept are exactly the ones billed, the query's reason says `credit_limit`, and the paged
 * source was not walked past the limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { testRegistry } from './support/test-adapter.ts';
import { pagedAdapter, startPagedServer } from './support/paged-source.ts';
import { bothStores } from './support/stores.ts';
import { toMicros } from '../src/billing/money.ts';
import type { WebAdapter } from '../src/sources/_kit/adapter.ts';

const stores = bothStores();

/** The paged source as a buffering adapter: every page kept, merged at the end. */
const buffering = (base: string): WebAdapter => ({ ...pagedAdapter(base, '/launchsite-reviews'), finish: (records) => records });

async function runOne(h: Harness, path: string): Promise<{ body: any; units: number; price: number }> {
  const sub = await h.json(path);
  assert.equal(sub.status, 202, JSON.stringify(sub.body));
  const row = await until(async () => { const r = await h.svc.ctx.store.getRequest(sub.body.id); return r?.finishedAt ? r : null; }, 60_000, 'the request ends');
  const r = await h.json(`/requests/${sub.body.id}`);
  assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
  return { body: r.body, units: row.usage, price: row.unitPriceMicros };
}

/** The balance moved by the ledger only, to no less than zero; the records kept are the ones billed. */
async function assertStopped(h: Harness, got: { body: any; units: number; price: number }): Promise<number> {
  const a = (await h.svc.ctx.store.getAccount(h.account.id))!;
  assert.ok(a.balanceMicros >= -toMicros(0.2), `the issue's bar: ${a.balanceMicros}`);
  assert.ok(a.balanceMicros >= 0, `no margin used by one query: ${a.balanceMicros}`);
  assert.ok(a.balanceMicros < got.price, `stopped at the limit, not before (${a.balanceMicros} left)`);
  const kept = (got.body.data[0] as unknown[]).length;
  assert.equal(got.units, kept, 'the records kept are billed');
  assert.equal(kept, Math.floor(toMicros(0.05) / got.price));
  assert.equal(got.body.errors?.length, 1, JSON.stringify(got.body.errors));
  assert.equal(got.body.errors[0].error.type, 'credit_limit');
  return kept;
}

for (const [name, skip, open] of stores) {
  test(`[${name}] credit limit: a 10,000-record lookup, a streamed paged source and a buffering source stop at 0.05`, { skip, timeout: 120_000 }, async () => {
    const db = open();
    const src = await startPagedServer({ total: 10_000, pageSize: 100 });
    const h = await startHarness({
      balance: 0.05, backendEnv: db.env, settings: { allowPrivateTargets: true }, env: { ALLOW_PRIVATE_TARGETS: 'true' },
      adapters: testRegistry(undefined, [pagedAdapter(src.url), buffering(src.url)]),
    });
    const topUp = async () => h.svc.ctx.store.addBalance(h.account.id, toMicros(0.05) - (await h.svc.ctx.store.getAccount(h.account.id))!.balanceMicros);
    try {
      // Local adapter: one lookup answers 10,000 records.
      await assertStopped(h, await runOne(h, '/maps/search?query=n=10000'));

      // Streamed web source: pages of 100; the one crossing the limit is cut, no page after it is fetched.
      await topUp();
      const streamed = await runOne(h, '/bizdir-reviews?query=shop&limit=100000');
      const kept = await assertStopped(h, streamed);
      const pages = [...src.hits.keys()].filter((k) => k.startsWith('shop:')).length;
      assert.equal(pages, Math.ceil(kept / 100), `fetched ${pages} pages for ${kept} records`);
      // The cut chunk's cursor resumes after the last record kept.
      const last = streamed.body.data[0].at(-1);
      assert.equal(typeof last.next_page_cursor, 'string');

      // Buffering web source (finish): stops fetching at the limit too, keeps what fits.
      await topUp();
      await assertStopped(h, await runOne(h, '/launchsite-reviews?query=merge&limit=100000'));
      const merged = [...src.hits.keys()].filter((k) => k.startsWith('merge:')).length;
      assert.ok(merged <= Math.ceil(kept / 100), `fetched ${merged} pages`);
    } finally {
      await h.close();
      await src.close();
      await db.drop();
    }
  });
}
