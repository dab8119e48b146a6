/**
 * The conformance section of a request stored before its work items (issue 39): a request of more
 * than ITEMS_AT_ONCE queries is stored with its queries waiting as chunks that `writeWaitingItems`
 * turns into items. Every backend runs it through storeConformance (../conformance.ts).
 *
 * @example waitingConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';
import { ITEMS_AT_ONCE, type WrittenItems } from './contract.ts';
import type { Store } from '../contract.ts';

const N = 2 * ITEMS_AT_ONCE + 500;
const queries = Array.from({ length: N }, (_, i) => `q${i}`);

/** Claims every item claimable at `now`, as one worker. */
async function claimAll(s: Store, owner: string, now: number) {
  const all = [];
  for (let got; (got = await s.claimItems(owner, 500, 60_000, now)).length;) all.push(...got);
  return all;
}

export function waitingConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('requests, waiting items', name, open, opts);

  t('a request past ITEMS_AT_ONCE is stored with its queries waiting; each chunk is written once, at its indexes; it ends after its last item', async (s) => {
    const a = await account(s);
    const small = request(a.id, queries.slice(0, ITEMS_AT_ONCE));
    await s.createRequest(small);
    assert.equal(await s.writeWaitingItems(), null, 'a request of ITEMS_AT_ONCE queries is stored with its items');
    assert.equal((await claimAll(s, 'w0', 20_000)).length, ITEMS_AT_ONCE);
    const r = request(a.id, queries, { emptyCostsOne: false });
    await s.createRequest(r);
    assert.equal((await s.getRequest(r.id))?.queriesTotal, N, 'every query counts from the start');
    assert.deepEqual(await claimAll(s, 'w', 20_000), [], 'no item before its chunk is written');
    assert.deepEqual(await s.writeWaitingItems(), { requestId: r.id, from: 0, to: ITEMS_AT_ONCE });
    const first = await claimAll(s, 'w', 20_000);
    assert.deepEqual(first.map((i) => i.queryIndex).sort((x, y) => x - y), Array.from({ length: ITEMS_AT_ONCE }, (_, i) => i));
    // The first chunk's items all end before the rest are written: the request keeps running.
    for (const it of first) assert.ok((await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 20_100 })).applied);
    const row = await s.getRequest(r.id);
    assert.deepEqual([row?.status, row?.finishedAt, row?.queriesDone], ['Pending', null, ITEMS_AT_ONCE]);

    const written: WrittenItems[] = [];
    for (let w; (w = await s.writeWaitingItems());) written.push(w);
    assert.deepEqual(written, [{ requestId: r.id, from: ITEMS_AT_ONCE, to: 2 * ITEMS_AT_ONCE }, { requestId: r.id, from: 2 * ITEMS_AT_ONCE, to: N }]);
    const rest = await claimAll(s, 'w', 20_200);
    assert.deepEqual(rest.map((i) => [i.id, i.queryIndex, i.query, i.params, i.maxAttempts]).sort((x, y) => (x[1] as number) - (y[1] as number)),
      queries.slice(ITEMS_AT_ONCE).map((q, i) => [`${r.id}:${ITEMS_AT_ONCE + i}`, ITEMS_AT_ONCE + i, q, r.params, r.maxAttempts]));
    for (const [k, it] of rest.entries()) {
      const fan = await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 20_300 });
      assert.equal(fan.finished !== null, k === rest.length - 1, `item ${k} of ${rest.length} ends the request only if it is the last`);
    }
    assert.equal((await s.getRequest(r.id))?.queriesDone, N);
    assert.equal(await s.writeWaitingItems(), null);
  });

  t('writers at once write each waiting chunk once', async (s) => {
    const a = await account(s);
    const rs = [request(a.id, queries), request(a.id, queries.slice(0, ITEMS_AT_ONCE + 1), { createdAt: 10_001 })];
    for (const r of rs) await s.createRequest(r);
    // Three writers, as three processes would: each keeps writing until nothing waits.
    const writer = async () => { const got: WrittenItems[] = []; for (let w; (w = await s.writeWaitingItems());) got.push(w); return got; };
    const all = (await Promise.all([writer(), writer(), writer()])).flat();
    const expected = [[rs[0].id, 0, ITEMS_AT_ONCE], [rs[0].id, ITEMS_AT_ONCE, 2 * ITEMS_AT_ONCE], [rs[0].id, 2 * ITEMS_AT_ONCE, N],
      [rs[1].id, 0, ITEMS_AT_ONCE], [rs[1].id, ITEMS_AT_ONCE, ITEMS_AT_ONCE + 1]];
    assert.deepEqual(all.map((w) => [w.requestId, w.from, w.to]).sort(), expected.sort());
    const items = await claimAll(s, 'w', 20_000);
    assert.equal(items.length, N + ITEMS_AT_ONCE + 1);
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'no item twice');
  });

  t('cancel drops the waiting queries, counted as done; a chunk of an ended request is never written', async (s) => {
    const a = await account(s);
    const r = request(a.id, queries);
    await s.createRequest(r);
    const w = await s.writeWaitingItems();
    assert.deepEqual(w, { requestId: r.id, from: 0, to: ITEMS_AT_ONCE });
    const [leased] = await s.claimItems('w', 1, 60_000, 20_000);
    const c = await s.cancelRequest(r.id, 20_100);
    assert.equal(c.finished?.status, 'Failure');
    assert.deepEqual([c.finished?.queriesDone, c.finished?.queriesTotal], [N, N], 'items and waiting queries alike');
    assert.equal(await s.writeWaitingItems(), null, 'nothing waits after the cancel');
    assert.deepEqual(await s.claimItems('w2', 10, 60_000, 20_200), []);
    assert.equal((await s.completeItem({ itemId: leased.id, owner: 'w', recordsJson: '[]', count: 0, now: 20_300 })).applied, false);
    assert.equal((await s.itemCounts()).queued, 0);
  });
}
