import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/store.ts';
import { EmbeddedQueue } from './backends/embedded.ts';
import { Runner } from './runner.ts';
import type { Step, WebAdapter } from '../sources/_kit/adapter.ts';
import { SourceError } from '../sources/_kit/errors.ts';

const page = (n: number): Step => ({ kind: 'page', url: `https://source.example/p${n}`, expect: 'json', state: { n } });

/** Pages of `size` records, `pages` of them (Infinity: never ends). */
function pager(size: number, pages: number, finish?: WebAdapter['finish']): WebAdapter {
  return {
    kind: 'web', endpoint: '/t', finish,
    plan: () => [page(0)],
    parse: (step) => {
      const n = Number(step.state!.n);
      return { records: Array.from({ length: size }, (_, i) => ({ id: n * size + i })), next: n + 1 < pages ? [page(n + 1)] : [] };
    },
  };
}

async function setup(params: Record<string, unknown>) {
  const store = await openSqliteStore(':memory:');
  await store.createAccount({ id: 'a', name: 'a', balanceMicros: 100_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
  await store.createRequest({ id: 'r', accountId: 'a', endpoint: '/t', params, queries: ['q'], webhook: null, product: 'p', unit: 'record', unitPriceMicros: 1_000_000,
    emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
  return store;
}

async function results(store: SqliteStore) {
  const out: { records: unknown[]; error: string | null } = { records: [], error: null };
  for await (const q of store.readResults('r')) { out.records.push(...JSON.parse(q.recordsJson)); out.error = q.error; }
  return out;
}

test('a retried query resumes at the step that failed: finished pages are never fetched again, records once, billed once', async () => {
  const store = await setup({ limit: 100 });
  const fetched: string[] = [];
  let failOnce = true;
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(5, 6), owner: 'w', backoffBaseMs: 1,
    fetchStep: async (step) => {
      if (step.url.endsWith('p3') && failOnce) { failOnce = false; throw new SourceError('network', 'reset'); }
      fetched.push(step.url);
      return { status: 200, url: step.url, headers: {}, body: '{}' };
    },
  });
  const [first] = await store.claimItems('w', 1, 60_000, Date.now());
  await runner.run(first);
  assert.deepEqual(await store.loadProgress(first.id).then((p) => p && [p.chunks, p.records]), [3, 15], 'three pages checkpointed');
  const [again] = await store.claimItems('w', 1, 60_000, Date.now() + 60_000);
  await runner.run(again);
  assert.deepEqual(fetched.map((u) => u.slice(-2)), ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'], 'no page fetched twice');
  const r = await store.getRequest('r');
  assert.equal(r?.status, 'Success');
  assert.equal(r?.usage, 30);
  assert.deepEqual((await results(store)).records.map((x: any) => x.id), Array.from({ length: 30 }, (_, i) => i));
  await store.close();
});

test('the step budget follows the limit; running out ends the query with its records, flagged step_budget', async () => {
  const store = await setup({ limit: 2 });
  let calls = 0;
  // Pages without records, forever: only the budget (3 + limit 2) stops it.
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(0, Infinity), owner: 'w', maxStepsPerQuery: 3,
    fetchStep: async (step) => { calls++; return { status: 200, url: step.url, headers: {}, body: '{}' }; },
  });
  const [item] = await store.claimItems('w', 1, 60_000, Date.now());
  await runner.run(item);
  assert.equal(calls, 5);
  const r = await store.getRequest('r');
  assert.equal(r?.status, 'Success', 'not layout_changed: the query ended with what it had');
  assert.match((await results(store)).error ?? '', /^step_budget: stopped after 5 steps with 0 records/);
  await store.close();
});

test('a buffering adapter (finish) resumes with the records of its finished steps read back', async () => {
  const store = await setup({});
  let failOnce = true;
  const seen: number[] = [];
  const finish: WebAdapter['finish'] = (records) => { seen.push(records.length); return records.filter((x: any) => x.id % 2 === 0); };
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(4, 3, finish), owner: 'w', backoffBaseMs: 1,
    fetchStep: async (step) => {
      if (step.url.endsWith('p2') && failOnce) { failOnce = false; throw new SourceError('network', 'reset'); }
      return { status: 200, url: step.url, headers: {}, body: '{}' };
    },
  });
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now() + 60_000))[0]);
  assert.deepEqual(seen, [12], 'finish saw all 12 records once');
  assert.deepEqual((await results(store)).records.map((x: any) => x.id), [0, 2, 4, 6, 8, 10]);
  assert.equal((await store.getRequest('r'))?.usage, 6);
  await store.close();
});

/** The chunk sizes of the checkpoints the store is asked to save, as they happen. */
function checkpoints(store: SqliteStore): number[] {
  const saves: number[] = [];
  const save = store.saveProgress.bind(store);
  store.saveProgress = (c) => { saves.push(c.chunk?.count ?? 0); return save(c); };
  return saves;
}

test('a query done in one step completes with its records in one write (no checkpoint, no chunk); the capture gets them without a read back', async () => {
  const store = await setup({});
  const saves = checkpoints(store);
  const handed: unknown[][] = [];
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(3, 1), owner: 'w',
    fetchStep: async (step) => ({ status: 200, url: step.url, headers: {}, body: '{}' }),
    afterComplete: async (_item, records) => { handed.push(records ?? []); },
  });
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
  assert.deepEqual(saves, [], 'nothing checkpointed');
  assert.equal((store.db.prepare('SELECT count(*) AS n FROM result_chunks').get() as { n: number }).n, 0);
  const expected = [{ query: 'q', id: 0 }, { query: 'q', id: 1 }, { query: 'q', id: 2 }];
  assert.deepEqual((await results(store)).records, expected);
  assert.deepEqual(handed, [expected], 'the capture got the records as stored');
  assert.equal((await store.getRequest('r'))?.usage, 3);
  await store.close();
});

test('a query whose limit the first step fills is done in one step too, though the source has more pages', async () => {
  const store = await setup({ limit: 3 });
  const saves = checkpoints(store);
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(3, 5), owner: 'w',
    fetchStep: async (step) => ({ status: 200, url: step.url, headers: {}, body: '{}' }),
  });
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
  assert.deepEqual(saves, []);
  assert.deepEqual((await results(store)).records.map((x: any) => x.id), [0, 1, 2]);
  assert.equal((await store.getRequest('r'))?.usage, 3);
  await store.close();
});

test('a buffering adapter (finish) done in one step is not checkpointed either; finish sees its records', async () => {
  const store = await setup({});
  const saves = checkpoints(store);
  const seen: number[] = [];
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(4, 1, (records) => { seen.push(records.length); return records.slice(1); }), owner: 'w',
    fetchStep: async (step) => ({ status: 200, url: step.url, headers: {}, body: '{}' }),
  });
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
  assert.deepEqual([saves, seen], [[], [4]]);
  assert.deepEqual((await results(store)).records.map((x: any) => x.id), [1, 2, 3]);
  await store.close();
});

test('a query of several steps still checkpoints each, and the capture reads them back', async () => {
  const store = await setup({});
  const saves = checkpoints(store);
  let handed: unknown = 'not called';
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(2, 2), owner: 'w',
    fetchStep: async (step) => ({ status: 200, url: step.url, headers: {}, body: '{}' }),
    afterComplete: async (_item, records) => { handed = records; },
  });
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0]);
  assert.deepEqual(saves, [2, 2]);
  assert.equal(handed, null, 'streamed in chunks: not held in memory');
  assert.deepEqual((await results(store)).records.map((x: any) => x.id), [0, 1, 2, 3]);
  await store.close();
});

test('the run frees its queue slot once the item is stored and billed, its session ended, before the request\'s end is announced and before the capture (issue 37)', async () => {
  const store = await setup({});
  const events: string[] = [];
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => pager(3, 1), owner: 'w',
    fetchStep: async (step) => ({ status: 200, url: step.url, headers: {}, body: '{}' }),
    endSession: () => { events.push('session ended'); },
    onRequestFinished: () => { events.push('end announced'); },
    afterComplete: async () => { events.push('capture'); },
  });
  const slotFree = () => {
    const r = store.db.prepare('SELECT status, usage FROM requests WHERE id = ?').get('r') as { status: string; usage: number };
    events.push(`slot freed (${r.status}, usage ${r.usage})`);
  };
  await runner.run((await store.claimItems('w', 1, 60_000, Date.now()))[0], slotFree);
  assert.deepEqual(events, ['session ended', 'slot freed (Success, usage 3)', 'end announced', 'capture']);
  await store.close();
});
