/**
 * A request's insert that leases its items to a consumer in this process (RequestStore.leaseAtInsert,
 * issue 37): the claim that followed every insert is spared, the items are what a claim would have
 * given, and the fair order, leases and crash recovery hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { InsertLease, NewRequest, Store, WorkItem } from '../contract.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './testing.ts';

const url = pgTestUrl();
const skip = url ? false : PG_SKIP;

const account = (s: Store) => s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: 5_000_000, creditLimitMicros: 1_000_000, currency: 'usd',
  pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1 });
const request = (accountId: string, queries: string[], createdAt = 1_000): NewRequest => ({
  id: randomUUID(), accountId, endpoint: '/maps/search', params: { limit: 20, language: 'en' }, queries, webhook: null, product: 'p', unit: 'record',
  unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt,
});

/** A consumer with `free` slots at time 2,000 that records what it is handed. */
function consumer(free: number) {
  const got: { items: WorkItem[]; n: number }[] = [];
  const asked: number[] = [];
  const to: InsertLease = {
    owner: 'w', leaseMs: 60_000, now: () => 2_000,
    reserve(n) { asked.push(n); if (n > free) return false; free -= n; return true; },
    take(items, n) { got.push({ items, n }); free += n - items.length; },
  };
  return { to, got, asked, free: () => free };
}

const states = async (s: Awaited<ReturnType<typeof openScratchPostgresStore>>, requestId: string) =>
  (await s.pool.query('SELECT state, lease_owner, lease_until::float8 AS until, attempts FROM work_items WHERE request_id = $1 ORDER BY query_index', [requestId])).rows;

test('an insert leases its items to a consumer with a free slot for each: the items a claim gives, none left to claim, recovered when the lease runs out', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const c = consumer(4);
    s.leaseAtInsert(c.to);
    const r = request(a.id, ['coffee', 'tea']);
    assert.equal(await s.createRequest(r, { whilePayable: true }), true);
    assert.deepEqual(c.asked, [2]);
    assert.equal(c.got.length, 1);
    assert.equal(c.got[0].n, 2);
    assert.deepEqual(c.got[0].items.map((x) => [x.id, x.requestId, x.accountId, x.endpoint, x.queryIndex, x.query, x.params, x.attempts, x.maxAttempts, x.unitPriceMicros, x.checkpointed, x.payable?.micros]), [
      [`${r.id}:0`, r.id, a.id, '/maps/search', 0, 'coffee', { limit: 20, language: 'en' }, 1, 3, 1_000, false, 6_000_000],
      [`${r.id}:1`, r.id, a.id, '/maps/search', 1, 'tea', { limit: 20, language: 'en' }, 1, 3, 1_000, false, 6_000_000],
    ]);
    assert.notEqual(c.got[0].items[0].params, r.params, 'a copy, as a claim reads it');
    assert.deepEqual(await states(s, r.id), [
      { state: 'leased', lease_owner: 'w', until: 62_000, attempts: 1 }, { state: 'leased', lease_owner: 'w', until: 62_000, attempts: 1 }]);
    assert.equal(c.free(), 2);
    // Nothing is left for a claim while the lease holds.
    assert.deepEqual(await s.claimItems('x', 5, 60_000, 3_000), []);
    // The lease's owner completes it (billed once); the other item's owner "crashed": taken over once its lease ran out.
    const fan = await s.completeItem({ itemId: `${r.id}:0`, owner: 'w', recordsJson: '[{"n":1}]', count: 1, now: 3_000 });
    assert.equal(fan.applied, true);
    assert.equal((await s.completeItem({ itemId: `${r.id}:0`, owner: 'w', recordsJson: '[{"n":1}]', count: 1, now: 3_000 })).applied, false);
    const [late] = await s.claimItems('x', 5, 60_000, 70_000);
    assert.deepEqual([late.id, late.attempts], [`${r.id}:1`, 2]);
    assert.equal((await s.completeItem({ itemId: late.id, owner: 'w', recordsJson: '[]', count: 0, now: 70_001 })).applied, false, 'the old owner lost it');
    assert.equal((await s.completeItem({ itemId: late.id, owner: 'x', recordsJson: '[]', count: 0, now: 70_001 })).finished?.status, 'Success');
    assert.equal((await s.getAccount(a.id))!.balanceMicros, 5_000_000 - 2_000, 'each item billed once');
  } finally { await s.close(); }
});

test('an insert leases nothing while another item is queued and due (the claim\'s fair order decides), nor without a free slot for each', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const b = await account(s);
    const waiting = request(a.id, ['old']);
    await s.createRequest(waiting);
    const c = consumer(4);
    const stop = s.leaseAtInsert(c.to);
    const next = request(b.id, ['new']);
    await s.createRequest(next);
    assert.deepEqual(c.got.map((g) => [g.items.length, g.n]), [[0, 1]], 'asked, leased none, the slot freed');
    assert.equal(c.free(), 4);
    assert.deepEqual((await states(s, next.id)).map((x) => x.state), ['queued']);
    // No item due any more: a request of more items than free slots is not leased either.
    assert.equal((await s.claimItems('x', 5, 60_000, 2_000)).length, 2);
    const big = request(a.id, ['1', '2', '3', '4', '5']);
    await s.createRequest(big);
    assert.deepEqual(c.asked, [1, 5]);
    assert.equal(c.got.length, 1);
    assert.deepEqual((await states(s, big.id)).map((x) => x.state), ['queued', 'queued', 'queued', 'queued', 'queued']);
    // An item due later (a retry's back-off) does not stop a lease; a stopped consumer is asked no more.
    assert.equal((await s.claimItems('x', 5, 60_000, 2_000)).length, 5);
    const retry = request(a.id, ['retry']);
    await s.createRequest(retry);
    const [it] = c.got.at(-1)!.items;
    assert.equal(it.id, `${retry.id}:0`);
    assert.equal((await s.failItem(it.id, 'w', 'e', 9_000, 2_000)).applied, true);
    const fresh = request(b.id, ['fresh']);
    await s.createRequest(fresh);
    assert.deepEqual(c.got.at(-1)!.items.map((x) => x.id), [`${fresh.id}:0`]);
    stop();
    await s.createRequest(request(b.id, ['after']));
    assert.deepEqual(c.asked, [1, 5, 1, 1]);
  } finally { await s.close(); }
});
