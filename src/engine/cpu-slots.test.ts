import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuSlots } from './cpu-slots.ts';
import { Runner } from './runner.ts';
import { EmbeddedQueue } from './backends/embedded.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import type { Store } from '../store/contract.ts';
import type { WebAdapter } from '../sources/_kit/adapter.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('CpuSlots: at most N at once, first come first served, a slot freed when its work throws; 0 = no limit', async () => {
  const slots = new CpuSlots(2);
  const order: number[] = [];
  let now = 0;
  let most = 0;
  const work = (i: number) => slots.run(async () => {
    most = Math.max(most, ++now);
    order.push(i);
    await sleep(5);
    now--;
    if (i === 1) throw new Error('boom');
    return i;
  });
  const results = await Promise.allSettled([0, 1, 2, 3, 4].map(work));
  assert.equal(most, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(results[1].status, 'rejected');
  assert.equal(slots.running(), 0);
  const open = new CpuSlots(0);
  let together = 0;
  await Promise.all([1, 2, 3].map(() => open.run(async () => { together++; await sleep(1); })));
  assert.equal(together, 3);
});

test('CpuSlots: work that waited for a slot starts on a later event-loop turn, so I/O runs between queued phases', async () => {
  const slots = new CpuSlots(1);
  const busy = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };
  // Ten 5 ms phases queued at once; a timer due after the first must fire before the last starts.
  let timerAt = -1;
  const started: number[] = [];
  setTimeout(() => { timerAt = started.length; }, 1);
  await Promise.all(Array.from({ length: 10 }, (_, i) => slots.run(() => { started.push(i); busy(5); })));
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.ok(timerAt > 0 && timerAt < 10, `the timer fired after phase ${timerAt} (10 = only after all of them)`);
});

test('the runner: fetches of many queries overlap, their completions hold the CPU slots one at a time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-cpu-slots-'));
  const real = await openSqliteStore(join(dir, 'trawl.db'));
  try {
    let completing = 0;
    let mostCompleting = 0;
    const store = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'completeItem') {
          return async (...args: Parameters<Store['completeItem']>) => {
            mostCompleting = Math.max(mostCompleting, ++completing);
            try {
              await sleep(10);
              return await target.completeItem(...args);
            } finally { completing--; }
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Store;
    await real.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    const queries = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
    await real.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries, webhook: null, product: 'p', unit: 'place', unitPriceMicros: 1_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
    const adapter = {
      kind: 'web', endpoint: '/maps/search',
      plan: ({ query }) => [{ kind: 'page', url: `https://example.test/${query}`, expect: 'json' }],
      parse: (step) => ({ records: [{ engine_id: step.url }] }),
    } as WebAdapter;
    let fetching = 0;
    let mostFetching = 0;
    const fetchStep = async () => {
      mostFetching = Math.max(mostFetching, ++fetching);
      await sleep(20);
      fetching--;
      return { status: 200, url: 'https://example.test/', headers: {}, body: '{}' };
    };
    const runner = new Runner({ store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, fetchStep, owner: 'w', cpuSlots: 1 });
    const items = await store.claimItems('w', queries.length, 60_000, Date.now());
    await Promise.all(items.map((i) => runner.run(i)));
    assert.equal(mostFetching, queries.length, 'every query fetched at once');
    assert.equal(mostCompleting, 1, 'one completion at a time');
    const done = await real.getRequest('r');
    assert.equal(done?.status, 'Success');
    assert.equal(done?.records, queries.length);
  } finally {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
