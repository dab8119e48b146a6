/**
 * The billing part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins the billing rule of decision 20 and the credit rule of decision 26 (src/billing/rule.ts, src/billing/credit.ts) on every store, under real concurrency.
 *
 * @example billingConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import type { ItemOutcome, NewRequest, Store } from '../contract.ts';
import { toMicros as µ } from '../../billing/money.ts';
import { BALANCE_EXHAUSTED } from '../../billing/credit.ts';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

export function billingConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('billing', name, open, opts);

  t('prices: an account price, else the default price, else none', async (s) => {
    const a = await account(s);
    await s.setPrice('p', 2_000);
    await s.setPrice('p', 1_000, a.id);
    assert.equal(await s.getPrice('p', a.id), 1_000);
    assert.equal(await s.getPrice('p', 'other'), 2_000);
    assert.equal(await s.getPrice('q', a.id), null);
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

  t('credit rule: the dropDuplicates surcharge at the end is cut to what the account can still take, never past -credit_limit', async (s) => {
    const keys = (n: number) => Array.from({ length: n }, () => 'same');
    for (const [balance, credit, surcharge] of [[10, 5, 14], [10, 0, 9], [1_000, 0, 51]] as const) {
      // 1 kept (billed 1), 51 dropped: a surcharge of 51 units, as far as the balance plus credit covers it.
      const a = await account(s, balance, { creditLimitMicros: µ(credit) });
      const r = request(a.id, ['q0', 'q1'], { dropDuplicates: true, unitPriceMicros: µ(1) });
      await s.createRequest(r);
      const [x, y] = (await s.claimItems('w', 2, 60_000, 10_000, [`${r.id}:0`, `${r.id}:1`])).sort((p, q) => p.queryIndex - q.queryIndex);
      await s.completeItem({ itemId: x.id, owner: 'w', recordsJson: JSON.stringify(keys(26)), count: 26, dedupeKeys: keys(26), now: 10_001 });
      const end = await s.completeItem({ itemId: y.id, owner: 'w', recordsJson: JSON.stringify(keys(26)), count: 26, dedupeKeys: keys(26), now: 10_002 });
      assert.equal(end.finished?.usage, 1 + surcharge, `balance ${balance}, credit ${credit}`);
      const left = (await s.getAccount(a.id))!.balanceMicros;
      assert.equal(left, µ(balance - 1 - surcharge));
      assert.ok(left >= -µ(credit), 'the surcharge never passes -credit_limit');
    }
  });

  t('credit rule: once an operator flags the account past due, its running work stops with balance_exhausted, undelivered and unbilled', async (s) => {
    const a = await account(s, 100);
    const r = request(a.id, ['q0', 'q1', 'q2'], { unitPriceMicros: µ(1) });
    await s.createRequest(r);
    const [x, y, z] = (await s.claimItems('w', 3, 60_000, 10_000)).sort((p, q) => p.queryIndex - q.queryIndex);
    assert.equal((await s.completeItem({ itemId: x.id, owner: 'w', recordsJson: '[{}]', count: 1, now: 10_001 })).balanceExhausted, undefined);
    await s.updateAccount(a.id, { pastDue: true });
    const refused = await s.completeItem({ itemId: y.id, owner: 'w', recordsJson: '[{},{}]', count: 2, now: 10_002 });
    assert.deepEqual([refused.applied, refused.balanceExhausted], [true, true]);
    await s.updateAccount(a.id, { pastDue: false });
    const end = await s.completeItem({ itemId: z.id, owner: 'w', recordsJson: '[{}]', count: 1, now: 10_003 });
    assert.equal(end.balanceExhausted, undefined, 'cleared: work is billed again');
    assert.deepEqual([end.finished?.status, end.finished?.usage, end.finished?.records], ['Success', 2, 2]);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(98));
    const results = [];
    for await (const q of s.readResults(r.id)) results.push([q.queryIndex, q.count, q.error]);
    assert.deepEqual(results, [[0, 1, null], [1, 0, BALANCE_EXHAUSTED], [2, 1, null]]);
  });

  t('credit rule: 20 concurrent direct charges stop one charge past the limit', async (s) => {
    const a = await account(s, 0.05);
    const oks = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      s.chargeUsage({ accountId: a.id, key: `c${i}`, product: 'businesses', unit: 'business', quantity: 3, unitPriceMicros: µ(0.01), now: 11_000 })));
    assert.equal(oks.filter(Boolean).length, 2);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, µ(0.05) - 2 * µ(0.03));
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
}
