/**
 * The store conformance suite: every backend runs it (see sqlite/store.test.ts, postgres/store.test.ts).
 * It pins the behaviour the engine relies on: exactly-once item completion and billing, fan-in,
 * leases, cancellation, webhook deliveries, history, tasks.
 *
 * @example
 *   storeConformance('sqlite', async () => openSqliteStore(':memory:'));
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Account, ItemOutcome, NewRequest, Store } from './contract.ts';
import { toMicros as µ } from '../billing/money.ts';
import { BALANCE_EXHAUSTED } from '../billing/credit.ts';

export function storeConformance(name: string, open: () => Promise<Store>, opts: { skip?: string | false } = {}): void {
  const t = (title: string, fn: (s: Store) => Promise<void>) =>
    test(`store conformance [${name}]: ${title}`, { skip: opts.skip || false }, async () => {
      const s = await open();
      try { await fn(s); } finally { await s.close(); }
    });

  /** `balance` in the currency unit; the store holds micros. */
  const account = async (s: Store, balance = 100, patch: Partial<Account> = {}) =>
    s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: µ(balance), creditLimitMicros: 0, currency: 'usd', pastDue: false,
      webhookSecret: 'secret', webhookUrl: null, ratePerSec: 20, burst: 40, ...patch, createdAt: 1_000 });

  const request = (accountId: string, queries: string[], patch: Partial<NewRequest> = {}): NewRequest => ({
    id: randomUUID(), accountId, endpoint: '/test', params: { limit: 3 }, queries, webhook: null, product: 'test_service',
    unit: 'record', unitPriceMicros: µ(0.5), emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 10_000, ...patch,
  });

  t('accounts, keys and prices', async (s) => {
    const a = await account(s, 5);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, 5_000_000);
    assert.equal(await s.addBalance(a.id, 2_500_000), 7_500_000);
    const k = await s.addApiKey(a.id, 'hash-1', 'trw_abcd', 1);
    assert.equal((await s.findKey('hash-1'))?.account.id, a.id);
    assert.equal(await s.findKey('hash-2'), null);
    assert.equal(await s.revokeApiKey(k.id, 2), true);
    assert.equal(await s.findKey('hash-1'), null);
    assert.equal((await s.listApiKeys(a.id))[0].revokedAt, 2);
    await s.updateAccount(a.id, { pastDue: true, ratePerSec: 5, webhookUrl: 'http://x' });
    const b = await s.getAccount(a.id);
    assert.equal(b?.pastDue, true);
    assert.equal(b?.ratePerSec, 5);
    assert.equal(b?.webhookUrl, 'http://x');
    await s.setPrice('p', 2_000);
    await s.setPrice('p', 1_000, a.id);
    assert.equal(await s.getPrice('p', a.id), 1_000);
    assert.equal(await s.getPrice('p', 'other'), 2_000);
    assert.equal(await s.getPrice('q', a.id), null);
    assert.ok((await s.countAccounts()) >= 1);
  });

  t('requests created in one burst are stored whole; a duplicate id fails alone', async (s) => {
    const a = await account(s);
    const first = request(a.id, ['x']);
    await s.createRequest(first);
    // Submitted in one event-loop turn, as concurrent API calls are: stores may write them together.
    const burst = [request(a.id, ['a', 'b']), { ...request(a.id, ['dup']), id: first.id }, request(a.id, ['c']), request(a.id, ['d', 'e', 'f'], { webhook: 'http://h/', taskId: 't1', dropDuplicates: true })];
    const settled = await Promise.allSettled(burst.map((r) => s.createRequest(r)));
    assert.deepEqual(settled.map((x) => x.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const r of [burst[0], burst[2], burst[3]]) {
      const row = await s.getRequest(r.id);
      assert.equal(row?.queriesTotal, r.queries.length);
      assert.deepEqual(row?.params, r.params);
      assert.equal(row?.webhook, r.webhook);
      assert.equal(row?.taskId, r.taskId);
      assert.equal(row?.dropDuplicates, r.dropDuplicates);
    }
    assert.equal((await s.getRequest(first.id))?.queriesTotal, 1, 'the existing request is untouched');
    const ids = [...burst[0].queries.map((_, i) => `${burst[0].id}:${i}`), `${burst[2].id}:0`, ...burst[3].queries.map((_, i) => `${burst[3].id}:${i}`)];
    const claimed = await s.claimItems('w', 100, 60_000, 20_000, ids);
    assert.deepEqual(claimed.map((i) => i.query).sort(), ['a', 'b', 'c', 'd', 'e', 'f']);
  });

  t('an item completes once, bills once, and the last one ends the request', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['q0', 'q1']);
    await s.createRequest(r);
    const items = await s.claimItems('w1', 10, 60_000, 10_000);
    assert.equal(items.length, 2);
    assert.deepEqual(items.map((i) => i.query).sort(), ['q0', 'q1']);
    assert.deepEqual(items[0].params, { limit: 3 });
    assert.equal((await s.claimItems('w2', 10, 60_000, 10_001)).length, 0, 'leased items are not handed out twice');
    const first = items.find((i) => i.queryIndex === 0)!;
    const second = items.find((i) => i.queryIndex === 1)!;
    const done1 = await s.completeItem({ itemId: first.id, owner: 'w1', recordsJson: '[{"a":1},{"a":2}]', count: 2, now: 11_000 });
    assert.deepEqual(done1, { applied: true, finished: null });
    const again = await s.completeItem({ itemId: first.id, owner: 'w1', recordsJson: '[{"a":1},{"a":2}]', count: 2, now: 11_000 });
    assert.equal(again.applied, false, 'a re-delivered completion writes nothing');
    const stale = await s.completeItem({ itemId: second.id, owner: 'w9', recordsJson: '[]', count: 0, now: 11_000 });
    assert.equal(stale.applied, false, 'only the lease owner may complete');
    const done2 = await s.completeItem({ itemId: second.id, owner: 'w1', recordsJson: '[]', count: 0, now: 12_000 });
    assert.equal(done2.finished?.status, 'Success');
    assert.equal(done2.finished?.finishedAt, 12_000);
    assert.equal(done2.finished?.usage, 3, '2 records + 1 for the empty query');
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(10) - 3 * µ(0.5));
    const results = [];
    for await (const x of s.readResults(r.id)) results.push(x);
    assert.deepEqual(results.map((x) => [x.queryIndex, x.query, x.recordsJson, x.count]), [[0, 'q0', '[{"a":1},{"a":2}]', 2], [1, 'q1', '[]', 0]]);
    const rest = [];
    for await (const x of s.readResults(r.id, 0)) rest.push(x.queryIndex);
    assert.deepEqual(rest, [1], 'readResults continues after an index');
    if (s.getRequestWithResults) {
      const both = await s.getRequestWithResults(r.id, 20);
      assert.equal(both?.row.status, 'Success');
      assert.deepEqual(both?.first.map((x) => [x.queryIndex, x.query, x.recordsJson, x.count, x.error]), [[0, 'q0', '[{"a":1},{"a":2}]', 2, null], [1, 'q1', '[]', 0, null]]);
      assert.deepEqual((await s.getRequestWithResults(r.id, 1))?.first.map((x) => x.queryIndex), [0]);
      assert.equal(await s.getRequestWithResults('nope', 20), null);
    }
    const lines = await s.usageForPeriod(a.id, 0, 20_000);
    assert.deepEqual(lines, [{ product: 'test_service', unit: 'record', quantity: 3, amountMicros: 1_500_000, unitPriceMicros: 500_000 }]);
  });

  t('money is exact: 250 charges of 0.001 take exactly 0.25, the ledger sums to exactly 0.25 (integer micros)', async (s) => {
    const a = await account(s, 100);
    const r = request(a.id, Array.from({ length: 250 }, (_, i) => `q${i}`), { unitPriceMicros: µ(0.001), emptyCostsOne: false });
    await s.createRequest(r);
    const items = await s.claimItems('w', 250, 60_000, 10_000);
    let end;
    for (const it of items) end = await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[{}]', count: 1, now: 10_001 });
    assert.equal(end?.finished?.usage, 250);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, 99_750_000);
    assert.deepEqual((await s.usageForPeriod(a.id, 0, 20_000)).map((l) => [l.quantity, l.amountMicros]), [[250, 250_000]]);
  });

  t('per-place products (enrichments) are billed once per place found, beside the request product', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['q0', 'q1']);
    await s.createRequest(r);
    const [i0, i1] = (await s.claimItems('w1', 10, 60_000, 10_000)).sort((x, y) => x.queryIndex - y.queryIndex);
    const extraProducts = [{ product: 'contacts_n_leads', unit: 'place', unitPriceMicros: 250_000 }, { product: 'ai_chain_info', unit: 'place', unitPriceMicros: 125_000 }];
    const done = { itemId: i0.id, owner: 'w1', recordsJson: '[{"a":1},{"a":2}]', count: 2, extraProducts, now: 11_000 };
    assert.equal((await s.completeItem(done)).applied, true);
    assert.equal((await s.completeItem(done)).applied, false, 'a repeated completion bills nothing');
    const end = await s.completeItem({ itemId: i1.id, owner: 'w1', recordsJson: '[]', count: 0, extraProducts, now: 12_000 });
    assert.equal(end.finished?.usage, 3, "the request's usage counts its own product only (2 + 1 for the empty query)");
    const lines = (await s.usageForPeriod(a.id, 0, 20_000)).sort((x, y) => x.product.localeCompare(y.product));
    assert.deepEqual(lines, [
      { product: 'ai_chain_info', unit: 'place', quantity: 2, amountMicros: 250_000, unitPriceMicros: 125_000 },
      { product: 'contacts_n_leads', unit: 'place', quantity: 2, amountMicros: 500_000, unitPriceMicros: 250_000 },
      { product: 'test_service', unit: 'record', quantity: 3, amountMicros: 1_500_000, unitPriceMicros: 500_000 },
    ], 'an empty query costs its own product one unit, no enrichment');
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(10 - 1.5 - 0.5 - 0.25));
  });

  t('a direct charge (no work item) bills once per key and is refused at the credit limit', async (s) => {
    const a = await account(s, 1);
    const charge = (key: string, quantity: number) =>
      s.chargeUsage({ accountId: a.id, key, product: 'businesses', unit: 'business', quantity, unitPriceMicros: µ(0.25), now: 11_000 });
    assert.equal(await charge('k1', 3), true);
    assert.equal(await charge('k1', 3), true, 'a repeated key answers true');
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(0.25), 'and bills nothing again');
    assert.equal(await charge('k0', 0), true, 'nothing to bill');
    assert.equal(await charge('k2', 4), true, 'above zero: the answer is billed whole, past the limit');
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(-0.75));
    assert.equal(await charge('k3', 1), false, 'at or below the limit: refused');
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(-0.75));
    const due = await account(s, 100, { pastDue: true });
    assert.equal(await s.chargeUsage({ accountId: due.id, key: 'k4', product: 'businesses', unit: 'business', quantity: 1, unitPriceMicros: µ(1), now: 11_000 }), false);
    assert.deepEqual(await s.usageForPeriod(a.id, 0, 20_000), [{ product: 'businesses', unit: 'business', quantity: 7, amountMicros: µ(1.75), unitPriceMicros: µ(0.25) }]);
  });

  // The credit rule while work runs (decision 26, src/billing/credit.ts), under real concurrency.
  for (const [kind, patch, outcome] of [
    ['plain', {}, {}], ['dropDuplicates', { dropDuplicates: true }, {}], ['totalLimit', {}, { totalLimit: 1_000 }],
  ] as const) {
    t(`credit rule (${kind}): 30 concurrent completions stop one item past the limit; the rest end balance_exhausted, undelivered and unbilled`, async (s) => {
      // Balance 0.02 + credit 0.03. An item costs 3 x 0.01 + 3 enrichment places x 0.001 = 0.033:
      // 0.02 -> -0.013 -> -0.046 (the balance plus credit was still above zero), then every other item is refused.
      const a = await account(s, 0.02, { creditLimitMicros: µ(0.03) });
      const r = request(a.id, Array.from({ length: 30 }, (_, i) => `q${i}`), { unitPriceMicros: µ(0.01), ...patch });
      await s.createRequest(r);
      const items = await s.claimItems('w', 30, 60_000, 10_000);
      const extraProducts = [{ product: 'contacts_n_leads', unit: 'place', unitPriceMicros: µ(0.001) }];
      const ends = await Promise.all(items.map((it) => s.completeItem({
        itemId: it.id, owner: 'w', recordsJson: JSON.stringify([{ k: `${it.id}a` }, { k: `${it.id}b` }, { k: `${it.id}c` }]), count: 3, extraProducts,
        dedupeKeys: patch.dropDuplicates ? [`${it.id}a`, `${it.id}b`, `${it.id}c`] : undefined, now: 10_001, ...outcome,
      })));
      assert.ok(ends.every((e) => e.applied));
      assert.equal(ends.filter((e) => !e.balanceExhausted).length, 2, 'two items billed');
      assert.equal(ends.filter((e) => e.finished).length, 1, 'the request ends once');
      const balance = (await s.getAccount(a.id))!.balanceMicros;
      assert.equal(balance, µ(0.02) - 2 * 33_000);
      assert.ok(balance > -µ(0.03) - 33_000, 'never more than one item past -credit_limit');
      const row = (await s.getRequest(r.id))!;
      assert.deepEqual([row.status, row.queriesDone, row.records, row.usage], ['Success', 30, 6, 6]);
      const results = [];
      for await (const x of s.readResults(r.id)) results.push(x);
      assert.equal(results.filter((x) => x.count === 3 && x.error === null).length, 2);
      const refused = results.filter((x) => x.error === BALANCE_EXHAUSTED);
      assert.equal(refused.length, 28);
      assert.ok(refused.every((x) => x.count === 0 && x.recordsJson === '[]'), 'a refused query delivers nothing');
      const lines = (await s.usageForPeriod(a.id, 0, 20_000)).map((l) => [l.product, l.quantity, l.amountMicros]).sort();
      assert.deepEqual(lines, [['contacts_n_leads', 6, 6_000], ['test_service', 6, 60_000]]);
    });
  }

  t('credit rule: a request that ends with every query refused is a Failure; nothing runs on an account that cannot pay', async (s) => {
    const a = await account(s, 0);
    const r = request(a.id, ['q0', 'q1']);
    await s.createRequest(r);
    const [x, y] = await s.claimItems('w', 2, 60_000, 10_000);
    assert.equal((await s.completeItem({ itemId: x.id, owner: 'w', recordsJson: '[]', count: 0, now: 10_001 })).balanceExhausted, true,
      'even a query that would cost nothing is refused');
    const end = await s.completeItem({ itemId: y.id, owner: 'w', recordsJson: '[{}]', count: 1, now: 10_002 });
    assert.deepEqual([end.balanceExhausted, end.finished?.status, end.finished?.usage], [true, 'Failure', 0]);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, 0);
  });

  t('credit rule: 20 concurrent direct charges stop one charge past the limit', async (s) => {
    const a = await account(s, 0.05);
    const oks = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      s.chargeUsage({ accountId: a.id, key: `c${i}`, product: 'businesses', unit: 'business', quantity: 3, unitPriceMicros: µ(0.01), now: 11_000 })));
    assert.equal(oks.filter(Boolean).length, 2);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(0.05) - 2 * µ(0.03));
  });

  t('retries requeue, permanent failures end the query, all failed is Failure', async (s) => {
    const a = await account(s);
    const r = request(a.id, ['only']);
    await s.createRequest(r);
    const [it] = await s.claimItems('w', 1, 1_000, 10_000);
    assert.deepEqual(await s.failItem(it.id, 'w', 'network', 20_000, 10_100), { applied: true, finished: null });
    assert.equal((await s.claimItems('w', 1, 1_000, 15_000)).length, 0, 'not before run_after');
    const [again] = await s.claimItems('w', 1, 1_000, 20_000);
    assert.equal(again.attempts, 2);
    const end = await s.failItem(again.id, 'w', 'layout_changed: no places', null, 20_500);
    assert.equal(end.finished?.status, 'Failure');
    assert.equal(end.finished?.usage, 0, 'a failed query is free');
    const results = [];
    for await (const x of s.readResults(r.id)) results.push(x);
    assert.equal(results[0].error, 'layout_changed: no places');
  });

  t('expired leases are taken over; release hands items back', async (s) => {
    const a = await account(s);
    await s.createRequest(request(a.id, ['a', 'b']));
    const got = await s.claimItems('dead', 2, 1_000, 10_000);
    assert.equal(got.length, 2);
    await s.heartbeat('dead', [got[0].id], 30_000);
    const taken = await s.claimItems('alive', 5, 1_000, 12_000);
    assert.deepEqual(taken.map((i) => i.id), [got[1].id], 'only the item whose lease expired');
    const late = await s.completeItem({ itemId: got[1].id, owner: 'dead', recordsJson: '[]', count: 0, now: 12_500 });
    assert.equal(late.applied, false, 'the old owner lost the item');
    assert.equal(await s.releaseItems('alive', 13_000), 1);
    assert.equal((await s.claimItems('x', 5, 1_000, 13_000, [got[1].id])).length, 1, 'claim by id');
    const counts = await s.itemCounts();
    assert.equal(counts.leased, 2);
    assert.ok((await s.queuedItemIds(10)).length >= 2);
  });

  t('cancel ends the request as Failure and bills only finished items', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['a', 'b', 'c'], { webhook: 'http://127.0.0.1:1/hook' });
    await s.createRequest(r);
    const items = await s.claimItems('w', 2, 60_000, 10_000);
    await s.completeItem({ itemId: items[0].id, owner: 'w', recordsJson: '[{"x":1}]', count: 1, now: 10_100 });
    const c = await s.cancelRequest(r.id, 10_200);
    assert.equal(c.finished?.status, 'Failure');
    assert.equal(c.finished?.cancelled, true);
    assert.equal(c.finished?.queriesDone, 3, 'the leased and the queued item are cancelled with the request');
    assert.equal((await s.cancelRequest(r.id, 10_300)).applied, false);
    const late = await s.completeItem({ itemId: items[1].id, owner: 'w', recordsJson: '[{"x":2}]', count: 1, now: 10_400 });
    assert.equal(late.applied, false);
    assert.equal((await s.getRequest(r.id))?.usage, 1);
    const hooks = await s.claimDueWebhooks(10_500, 10, 5_000);
    assert.deepEqual(hooks.map((h) => [h.requestId, h.url]), [[r.id, 'http://127.0.0.1:1/hook']]);
  });

  t('dropDuplicates bills only new keys', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['a', 'b'], { dropDuplicates: true, unitPriceMicros: µ(1) });
    await s.createRequest(r);
    const [x, y] = await s.claimItems('w', 2, 60_000, 10_000);
    await s.completeItem({ itemId: x.id, owner: 'w', recordsJson: '[1,2,3]', count: 3, dedupeKeys: ['k1', 'k2', 'k3'], now: 10_001 });
    const end = await s.completeItem({ itemId: y.id, owner: 'w', recordsJson: '[2,3,4]', count: 3, dedupeKeys: ['k2', 'k3', 'k4'], now: 10_002 });
    assert.equal(end.finished?.usage, 4);
    assert.equal(end.finished?.records, 6);
  });

  /** Runs one request whose items complete with the given outcomes, in order; returns its end. */
  const billRun = async (s: Store, patch: Partial<NewRequest>, outcomes: Array<Partial<ItemOutcome> & { count: number }>) => {
    const a = await account(s, 1_000);
    const r = request(a.id, outcomes.map((_, i) => `q${i}`), { unitPriceMicros: µ(1), ...patch });
    await s.createRequest(r);
    const items = (await s.claimItems('w', outcomes.length, 60_000, 10_000)).sort((x, y) => x.queryIndex - y.queryIndex);
    let end: Awaited<ReturnType<Store['completeItem']>> | undefined;
    for (const [i, o] of outcomes.entries()) {
      const recordsJson = JSON.stringify(Array.from({ length: o.count }, (_, k) => ({ k })));
      end = await s.completeItem({ itemId: items[i].id, owner: 'w', recordsJson, now: 10_001 + i, ...o });
    }
    const row = (await s.getRequest(r.id))!;
    const balance = (await s.getAccount(a.id))!.balanceMicros;
    assert.equal(µ(1_000) - balance, row.usage * µ(1), 'the balance moved by exactly what the request shows as usage');
    return { end, row };
  };

  // Every billing case of decision 20, on every store (the rule itself: src/billing/rule.ts).
  t('billing: an empty search costs one where the endpoint says so, else nothing', async (s) => {
    assert.equal((await billRun(s, {}, [{ count: 0 }, { count: 2 }])).row.usage, 3);
    assert.equal((await billRun(s, { emptyCostsOne: false }, [{ count: 0 }, { count: 2 }])).row.usage, 2);
  });

  t('billing: units per record (reviews inside places) bill the units; zero units is an empty search', async (s) => {
    assert.equal((await billRun(s, {}, [{ count: 2, units: 7 }, { count: 1, units: 0 }])).row.usage, 8);
    assert.equal((await billRun(s, { emptyCostsOne: false }, [{ count: 1, units: 0 }])).row.usage, 0);
  });

  t('billing: dropDuplicates bills only new keys; a query whose records were all duplicates costs nothing', async (s) => {
    const dup = await billRun(s, { dropDuplicates: true }, [
      { count: 3, dedupeKeys: ['k1', 'k2', 'k3'] },
      { count: 2, dedupeKeys: ['k1', 'k2'] }, // all dropped: found something, so not an empty search
      { count: 0, dedupeKeys: [] }, // a real empty search: one unit
    ]);
    assert.equal(dup.row.usage, 4);
    assert.equal(dup.row.records, 5);
  });

  t('billing: dropped duplicates beyond 50 times the kept records are billed at the end', async (s) => {
    const keys = (n: number) => Array.from({ length: n }, () => 'same');
    // 1 kept, 50 dropped: free. 1 kept, 51 dropped: the 51 are billed.
    assert.equal((await billRun(s, { dropDuplicates: true }, [{ count: 26, dedupeKeys: keys(26) }, { count: 25, dedupeKeys: keys(25) }])).row.usage, 1);
    assert.equal((await billRun(s, { dropDuplicates: true }, [{ count: 26, dedupeKeys: keys(26) }, { count: 26, dedupeKeys: keys(26) }])).row.usage, 1 + 51);
  });

  t('billing: totalLimit bills only the records kept; a query cut away entirely costs nothing', async (s) => {
    const cut = await billRun(s, {}, [{ count: 3, totalLimit: 4 }, { count: 3, totalLimit: 4 }, { count: 3, totalLimit: 4 }]);
    assert.equal(cut.row.records, 4);
    assert.equal(cut.row.usage, 4);
  });

  t('webhook deliveries: due, leased, attempts logged as failed calls', async (s) => {
    const a = await account(s, 10, { webhookUrl: 'http://127.0.0.1:9/integration' });
    const r = request(a.id, ['a']);
    await s.createRequest(r);
    const [it] = await s.claimItems('w', 1, 60_000, 10_000);
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 10_000 });
    const [d] = await s.claimDueWebhooks(10_000, 5, 5_000);
    assert.equal(d.url, 'http://127.0.0.1:9/integration', 'the account integration webhook is used when the request has none');
    assert.equal((await s.claimDueWebhooks(10_001, 5, 5_000)).length, 0, 'leased');
    await s.recordWebhookAttempt(d.id, 500, false, 70_000, 10_002);
    await s.recordWebhookAttempt(d.id, 0, false, null, 70_001);
    assert.equal((await s.claimDueWebhooks(80_000, 5, 5_000)).length, 0, 'failed for good');
    const calls = await s.listWebhookCalls(a.id, 0, 100);
    assert.deepEqual(calls, [{ status: 'Status code: 0', date: 70 }, { status: 'Status code: 500', date: 10 }]);
  });

  t('history lists running and finished requests newest first; purge drops old results', async (s) => {
    const a = await account(s);
    const r1 = request(a.id, ['a'], { createdAt: 1_000 });
    const r2 = request(a.id, ['b'], { createdAt: 2_000 });
    await s.createRequest(r1);
    await s.createRequest(r2);
    const running = await s.listRequests(a.id, { finished: false, since: 0, skip: 0, limit: 10 });
    assert.deepEqual(running.map((r) => r.id), [r2.id, r1.id]);
    assert.deepEqual((await s.listRequests(a.id, { finished: false, since: 0, skip: 1, limit: 10 })).map((r) => r.id), [r1.id]);
    const [it] = await s.claimItems('w', 1, 60_000, 3_000, [`${r1.id}:0`]);
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[{"v":1}]', count: 1, now: 3_000 });
    assert.deepEqual((await s.listRequests(a.id, { finished: true, since: 0, skip: 0, limit: 10 })).map((r) => r.id), [r1.id]);
    assert.equal(await s.purge(4_000, 0), 1);
    const left = [];
    for await (const x of s.readResults(r1.id)) left.push(x);
    assert.equal(left.length, 0);
    await s.purge(0, 5_000);
    assert.equal(await s.getRequest(r1.id), null, 'finished requests older than the history window are removed');
    assert.ok(await s.getRequest(r2.id), 'running requests stay');
  });

  t('purge with a limit takes at most that many requests per call (the janitor batches, issue 15)', async (s) => {
    const a = await account(s);
    const rs = [request(a.id, ['a'], { createdAt: 1_000 }), request(a.id, ['b'], { createdAt: 1_000 }), request(a.id, ['c'], { createdAt: 1_000 })];
    for (const r of rs) {
      await s.createRequest(r);
      const [it] = await s.claimItems('w', 1, 60_000, 2_000, [`${r.id}:0`]);
      await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[{"v":1}]', count: 1, now: 2_000 });
    }
    assert.equal(await s.purge(4_000, 0, 2), 2);
    assert.equal(await s.purge(4_000, 0, 2), 1, 'the rest; a short batch ends the pass');
    assert.equal(await s.purge(4_000, 0, 2), 0, 'requests already without results are not counted again');
    assert.equal(await s.purge(0, 5_000, 2), 2);
    assert.equal(await s.purge(0, 5_000, 2), 1);
    for (const r of rs) assert.equal(await s.getRequest(r.id), null);
  });

  t('checkpoints: chunks saved step by step become a streamed result, billed once over all chunks', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['paged', 'buffered', 'broken'], { unitPriceMicros: µ(0.1) });
    await s.createRequest(r);
    const items = await s.claimItems('w1', 3, 1_000, 10_000);
    const [paged, buffered, broken] = [0, 1, 2].map((i) => items.find((x) => x.queryIndex === i)!);
    assert.equal(await s.loadProgress(paged.id), null, 'no checkpoint before the first step');
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w1', state: '{"step":1}', chunk: { recordsJson: '[{"n":1},{"n":2}]', count: 2 }, now: 10_100 }), true);
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w1', state: '{"step":2}', now: 10_150 }), true, 'a step without records moves the state only');
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w9', state: '{"step":9}', chunk: { recordsJson: '[{"n":9}]', count: 1 }, now: 10_160 }), false,
      'only the lease owner checkpoints');
    assert.deepEqual(await s.loadProgress(paged.id), { state: '{"step":2}', chunks: 1, records: 2 });
    // The worker dies; its lease runs out and another takes the item over from the checkpoint.
    const [again] = await s.claimItems('w2', 3, 1_000, 12_000, [paged.id]);
    assert.equal(again.id, paged.id);
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w1', state: '{"stale":true}', chunk: { recordsJson: '[{"n":9}]', count: 1 }, now: 12_001 }), false,
      'the old owner writes nothing after the takeover');
    assert.deepEqual(await s.loadProgress(paged.id), { state: '{"step":2}', chunks: 1, records: 2 });
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w2', state: '{"step":3}', chunk: { recordsJson: '[{"n":3}]', count: 1 }, now: 12_100 }), true);
    const chunks = [];
    for await (const c of s.readChunks(paged.id)) chunks.push(c);
    assert.deepEqual(chunks, ['[{"n":1},{"n":2}]', '[{"n":3}]']);
    const done = await s.completeItem({ itemId: paged.id, owner: 'w2', recordsJson: '[{"n":4}]', count: 4, streamed: true, now: 12_200 });
    assert.equal(done.applied, true);
    assert.equal((await s.completeItem({ itemId: paged.id, owner: 'w2', recordsJson: '[{"n":4}]', count: 4, streamed: true, now: 12_300 })).applied, false);
    assert.equal(await s.loadProgress(paged.id), null, 'the checkpoint goes with the completion');

    // A buffering adapter checkpoints too, but completes with its whole (merged) result: the chunks go.
    await s.saveProgress({ itemId: buffered.id, owner: 'w1', state: '{}', chunk: { recordsJson: '[{"b":1},{"b":1}]', count: 2 }, now: 10_200 });
    await s.heartbeat('w1', [buffered.id, broken.id], 60_000);
    await s.completeItem({ itemId: buffered.id, owner: 'w1', recordsJson: '[{"b":1}]', count: 1, note: 'step_budget: stopped early', now: 13_000 });
    const left = [];
    for await (const c of s.readChunks(buffered.id)) left.push(c);
    assert.deepEqual(left, []);

    // A retry keeps the checkpoint; failing for good drops it.
    await s.saveProgress({ itemId: broken.id, owner: 'w1', state: '{"k":1}', chunk: { recordsJson: '[{"x":1}]', count: 1 }, now: 10_300 });
    await s.failItem(broken.id, 'w1', 'network: reset', 14_000, 13_100);
    assert.deepEqual(await s.loadProgress(broken.id), { state: '{"k":1}', chunks: 1, records: 1 });
    const [retry] = await s.claimItems('w3', 1, 1_000, 14_000, [broken.id]);
    const end = await s.failItem(retry.id, 'w3', 'layout_changed: gone', null, 14_100);
    assert.equal(await s.loadProgress(broken.id), null);
    assert.equal(end.finished?.status, 'Success');
    assert.equal(end.finished?.usage, 5, 'four streamed records and one buffered, each billed once; the failed query is free');
    assert.equal(end.finished?.records, 5);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(10) - 5 * µ(0.1));
    const lines = await s.usageForPeriod(a.id, 0, 20_000);
    assert.equal(lines[0].quantity, 5);

    const parts = [];
    for await (const x of s.readResults(r.id)) parts.push([x.queryIndex, x.recordsJson, x.count, x.error, !!x.more]);
    assert.deepEqual(parts, [
      [0, '[{"n":1},{"n":2}]', 4, null, true], [0, '[{"n":3}]', 4, null, true], [0, '[{"n":4}]', 4, null, false],
      [1, '[{"b":1}]', 1, 'step_budget: stopped early', false], [2, '[]', 0, 'layout_changed: gone', false],
    ]);
    if (s.getRequestWithResults) {
      const both = await s.getRequestWithResults(r.id, 20);
      assert.deepEqual(both?.first.map((x) => [x.queryIndex, x.recordsJson, !!x.more]), parts.map((p) => [p[0], p[1], p[4]]));
    }
    assert.equal(await s.purge(20_000, 0), 1);
    const gone = [];
    for await (const c of s.readChunks(paged.id)) gone.push(c);
    assert.deepEqual(gone, [], 'purge drops the chunks with the results');
  });

  t('a per-deployment secret is created once and read back the same', async (s) => {
    const [x, y] = await Promise.all([s.secret('cursor'), s.secret('cursor')]);
    assert.equal(x, y);
    assert.ok(x.length >= 32);
    assert.equal(await s.secret('cursor'), x);
    assert.notEqual(await s.secret('other'), x);
  });

  t('tasks: create, find by request and file token, list by tag with paging', async (s) => {
    const a = await account(s);
    const base = { accountId: a.id, requestId: null, spec: {}, status: 'PENDING' as const, format: 'csv', fileToken: null, filePath: null,
      results: [], created: 1, updated: 1, queueTaskId: randomUUID() };
    await s.createTask({ ...base, id: '20260101000000aaaa', serviceName: 'engine_maps_service_v2', queries: ['pizza'], tags: ['food'] });
    await s.createTask({ ...base, id: '20260101000001bbbb', serviceName: 'engine_maps_reviews_service_v3', queries: ['x'], tags: ['other'] });
    await s.createTask({ ...base, id: '20260101000002cccc', serviceName: 'engine_maps_service_v2', queries: ['sushi'], tags: ['food'], requestId: 'req-1' });
    assert.deepEqual((await s.listTasks(a.id, { limit: 2 })).map((t) => t.id), ['20260101000002cccc', '20260101000001bbbb']);
    assert.deepEqual((await s.listTasks(a.id, { limit: 2, lastId: '20260101000001bbbb' })).map((t) => t.id), ['20260101000000aaaa']);
    assert.deepEqual((await s.listTasks(a.id, { limit: 10, tag: 'food' })).map((t) => t.id), ['20260101000002cccc', '20260101000000aaaa']);
    assert.deepEqual((await s.listTasks('nobody', { limit: 10 })).length, 0);
    assert.equal((await s.getTaskByRequest('req-1'))?.id, '20260101000002cccc');
    // A task whose request ended while the task stayed PENDING is stranded (a crash between the two).
    const r = request(a.id, ['q']);
    await s.createRequest(r);
    await s.createTask({ ...base, id: '20260101000003dddd', serviceName: 'x', queries: ['q'], tags: [], requestId: r.id });
    assert.deepEqual(await s.strandedTasks(10), []);
    const [it] = await s.claimItems('w', 1, 60_000, 10_000, [`${r.id}:0`]);
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 10_001 });
    assert.deepEqual((await s.strandedTasks(10)).map((t) => t.id), ['20260101000003dddd']);
    await s.updateTask('20260101000000aaaa', { status: 'SUCCESS', fileToken: 'tok', results: [{ product_name: 'p', quantity: 2, file_url: 'u' }], updated: 5 });
    const t1 = await s.getTaskByFileToken('tok');
    assert.equal(t1?.status, 'SUCCESS');
    assert.deepEqual(t1?.results, [{ product_name: 'p', quantity: 2, file_url: 'u' }]);
  });
}
