/**
 * The requests part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins what the engine relies on: exactly-once item completion, fan-in, leases, retries, cancellation, history and purge.
 *
 * @example requestConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { toMicros as µ } from '../../billing/money.ts';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

export function requestConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('requests', name, open, opts);

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

  t('a request created while its account may be charged is stored; otherwise nothing is, and the store says so', async (s) => {
    const rich = await account(s, 1);
    const broke = await account(s, 0);
    // In one turn, as concurrent submits are: each is checked against its own account.
    const [ok, refused, unchecked] = [request(rich.id, ['a']), request(broke.id, ['b', 'c']), request(broke.id, ['d'])];
    assert.deepEqual(await Promise.all([s.createRequest(ok, { whilePayable: true }), s.createRequest(refused, { whilePayable: true }), s.createRequest(unchecked)]),
      [true, false, true]);
    assert.equal((await s.getRequest(refused.id)), null, 'a refused request is not stored');
    assert.deepEqual((await s.claimItems('w', 10, 60_000, 20_000, [`${refused.id}:0`, `${refused.id}:1`])), [], 'nor its items');
    assert.equal((await s.getRequest(ok.id))?.queriesTotal, 1);
    await s.updateAccount(rich.id, { pastDue: true });
    assert.equal(await s.createRequest(request(rich.id, ['e']), { whilePayable: true }), false, 'past due: refused');
  });

  t('each query is stored as given, at its index, however it is spelled', async (s) => {
    const a = await account(s);
    // Stores may pass a request's queries as one JSON text (issue 39): none of these may change on the way.
    const queries = ['42', 'null', 'true', '[1, "x"]', '{"a": 1}', 'quote " and \\ backslash', "it's", 'café · Zürich 🍕', '  spaced  ', 'tab\there', 'line\nbreak', '\u2028', ''];
    const r = request(a.id, queries);
    await s.createRequest(r);
    const items = await s.claimItems('w', 100, 60_000, 20_000);
    assert.deepEqual(items.sort((x, y) => x.queryIndex - y.queryIndex).map((i) => [i.id, i.queryIndex, i.query]), queries.map((q, i) => [`${r.id}:${i}`, i, q]));
  });

  t('every claim carries its own request\'s parameters, whole, however many claims read them', async (s) => {
    const a = await account(s);
    // Stores may keep a request's parameters between its claims (a monitor run's are large): each
    // item still gets its request's, never another's, and one item's claim leaves them as they were.
    const big = { known: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { place: { id: i, name: `n${i}` } }])), limit: 2 };
    const r1 = request(a.id, ['a', 'b', 'c'], { params: big });
    const r2 = request(a.id, ['d', 'e'], { params: { limit: 9, sort: 'newest' } });
    await s.createRequest(r1);
    await s.createRequest(r2);
    const got = [];
    for (let i = 0; i < 5; i++) got.push(...await s.claimItems(`w${i}`, 1, 60_000, 20_000 + i));
    assert.equal(got.length, 5);
    for (const it of got) assert.deepEqual(it.params, it.requestId === r1.id ? big : r2.params, `${it.id}'s parameters`);
    assert.deepEqual((await s.getRequest(r1.id))?.params, big);
  });

  t('requestEnd says whether a request ended, as getRequest does, and null for none; endedRequests reads several', async (s) => {
    const a = await account(s);
    const r = request(a.id, ['a', 'b']);
    await s.createRequest(r);
    assert.equal(await s.requestEnd('no-such-request'), null);
    assert.deepEqual(await s.requestEnd(r.id), { finishedAt: null });
    const [it] = await s.claimItems('w', 1, 60_000, 20_000);
    await s.completeItem({ itemId: it!.id, owner: 'w', recordsJson: '[]', count: 0, now: 20_100 });
    assert.deepEqual(await s.requestEnd(r.id), { finishedAt: null }, 'one query of two ended: the request runs on');
    const [last] = await s.claimItems('w', 1, 60_000, 20_200);
    await s.completeItem({ itemId: last!.id, owner: 'w', recordsJson: '[]', count: 0, now: 20_300 });
    assert.deepEqual(await s.requestEnd(r.id), { finishedAt: 20_300 });
    assert.equal((await s.getRequest(r.id))?.finishedAt, 20_300);
    const other = request(a.id, ['c']);
    await s.createRequest(other);
    assert.deepEqual(await s.endedRequests([other.id, r.id, 'no-such-request']), [await s.getRequest(r.id)], 'the ended ones of several, whole rows');
    assert.deepEqual(await s.endedRequests([]), []);
  });

  t('an item completes once, bills once, and the last one ends the request', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['q0', 'q1']);
    await s.createRequest(r);
    const items = await s.claimItems('w1', 10, 60_000, 10_000);
    assert.equal(items.length, 2);
    assert.deepEqual(items.map((i) => i.query).sort(), ['q0', 'q1']);
    assert.deepEqual(items[0].params, { limit: 3 });
    assert.equal(items[0].unitPriceMicros, r.unitPriceMicros, 'the claim carries the request\'s unit price');
    assert.equal((await s.claimItems('w2', 10, 60_000, 10_001)).length, 0, 'leased items are not handed out twice');
    const first = items.find((i) => i.queryIndex === 0)!;
    const second = items.find((i) => i.queryIndex === 1)!;
    const done1 = await s.completeItem({ itemId: first.id, owner: 'w1', recordsJson: '[{"a":1},{"a":2}]', count: 2, now: 11_000 });
    const { stored, ...fan1 } = done1;
    assert.deepEqual(fan1, { applied: true, finished: null });
    // Optional (the synchronous answer is sent from it): when a store tells what it stored, it is
    // what it reads back.
    if (stored) {
      const { recordsUtf8, ...text } = stored;
      assert.deepEqual(text, { recordsJson: '[{"a":1},{"a":2}]', count: 2, error: null });
      if (recordsUtf8) assert.equal(recordsUtf8.toString('utf8'), stored.recordsJson);
    }
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

  t('a claim of fewer items than there are heads takes the least busy accounts\' first; of as many, every head', async (s) => {
    const [a, b, c] = [await account(s), await account(s), await account(s)];
    const ra = request(a.id, ['a0', 'a1', 'a2'], { createdAt: 10_000 });
    const rb = request(b.id, ['b0', 'b1'], { createdAt: 10_001 });
    await s.createRequest(ra);
    await s.createRequest(rb);
    await s.createRequest(request(c.id, ['c0', 'c1'], { createdAt: 10_002 }));
    assert.equal((await s.claimItems('w', 3, 60_000, 20_000, [`${ra.id}:0`, `${ra.id}:1`, `${rb.id}:0`])).length, 3);
    // Heads a2, b1, c0 (oldest request first); a runs 2 items, b 1, c none.
    const take = async (max: number) => (await s.claimItems('w', max, 60_000, 20_000)).map((i) => i.query).sort();
    assert.deepEqual(await take(1), ['c0'], 'the account running none first, though its request is the newest');
    assert.deepEqual(await take(1), ['b1'], 'b and c run one each: the older request');
    assert.deepEqual(await take(2), ['a2', 'c1'], 'as many as the heads: all of them');
  });

  t('a slot lent to others claims only other accounts\' heads; a given-back item spends no attempt', async (s) => {
    const a = await account(s);
    const b = await account(s);
    const c = await account(s);
    await s.createRequest(request(a.id, ['a0', 'a1']));
    await s.createRequest(request(b.id, ['b0', 'b1']));
    // Two queries each: whichever of b and c the first borrowed claim takes (a tie between accounts
    // with none leased), both still have a head for the next claim.
    await s.createRequest(request(c.id, ['c0', 'c1']));
    const [a0] = await s.claimItems('w', 1, 60_000, 10_000, undefined, [b.id, c.id]);
    assert.equal(a0.query, 'a0');
    const [x] = await s.claimItems('w', 1, 60_000, 10_000, undefined, [a.id]);
    assert.ok(x.accountId !== a.id, 'never the excluded account');
    const heads = await s.claimItems('w', 5, 60_000, 10_000, undefined, [a.id]);
    assert.deepEqual(heads.map((i) => i.accountId).sort(), [b.id, c.id].sort(), 'one head per account at most');
    assert.deepEqual(await s.claimItems('w', 5, 60_000, 10_000, undefined, [a.id, b.id, c.id]), []);
    assert.equal(await s.releaseItems('w', 10_500, [a0.id, 'no-such-item']), 1, 'only the item named');
    assert.equal((await s.itemCounts()).leased, 3, 'the others stay leased');
    const [again] = await s.claimItems('w', 1, 60_000, 11_000, [a0.id]);
    assert.equal(again.attempts, a0.attempts, 'the hand-back was not an attempt');
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
}
