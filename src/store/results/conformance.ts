/**
 * The results part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins checkpoints and streamed results: chunks saved step by step, read back in order, billed once.
 *
 * @example resultConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { toMicros as µ } from '../../billing/money.ts';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

export function resultConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('results', name, open, opts);

  t('checkpoints: chunks saved step by step become a streamed result, billed once over all chunks', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['paged', 'buffered', 'broken'], { unitPriceMicros: µ(0.1) });
    await s.createRequest(r);
    const items = await s.claimItems('w1', 3, 1_000, 10_000);
    const [paged, buffered, broken] = [0, 1, 2].map((i) => items.find((x) => x.queryIndex === i)!);
    assert.equal(await s.loadProgress(paged.id), null, 'no checkpoint before the first step');
    assert.deepEqual(items.map((x) => x.checkpointed), [false, false, false], 'a first claim says there is no checkpoint (the runner reads none)');
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w1', state: '{"step":1}', chunk: { recordsJson: '[{"n":1},{"n":2}]', count: 2 }, now: 10_100 }), true);
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w1', state: '{"step":2}', now: 10_150 }), true, 'a step without records moves the state only');
    assert.equal(await s.saveProgress({ itemId: paged.id, owner: 'w9', state: '{"step":9}', chunk: { recordsJson: '[{"n":9}]', count: 1 }, now: 10_160 }), false,
      'only the lease owner checkpoints');
    assert.deepEqual(await s.loadProgress(paged.id), { state: '{"step":2}', chunks: 1, records: 2 });
    // The worker dies; its lease runs out and another takes the item over from the checkpoint.
    const [again] = await s.claimItems('w2', 3, 1_000, 12_000, [paged.id]);
    assert.equal(again.id, paged.id);
    assert.equal(again.checkpointed, true, 'a taken-over item says it has a checkpoint');
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
    assert.equal(retry.checkpointed, true, 'a retried item says it has a checkpoint');
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

  t('a result given with its UTF-8 bytes (a big result the runner encoded a slice a turn) reads back as its text, its answer the same bytes', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['big'], { unitPriceMicros: µ(0.001) });
    await s.createRequest(r);
    const [item] = await s.claimItems('w1', 1, 60_000, 10_000);
    const records = Array.from({ length: 300 }, (_, i) => ({ i, name: `Café «${i}» – ⋅ 𝄞`, about: { 'Service options': { Takeout: true } } }));
    const json = JSON.stringify(records);
    const fan = await s.completeItem({ itemId: item.id, owner: 'w1', recordsJson: json, recordsUtf8: Buffer.from(json), count: records.length, now: 10_100 });
    assert.equal(fan.applied, true);
    assert.equal(fan.finished?.usage, 300, 'billed once, per record');
    if (fan.stored?.recordsUtf8) assert.ok(fan.stored.recordsUtf8.equals(Buffer.from(json)), 'the answer sends the same bytes');
    const read = [];
    for await (const q of s.readResults(r.id)) read.push(q.recordsJson);
    assert.deepEqual(read, [json]);
  });

  t('a result given as its text alone is stored and answered as that text\'s UTF-8, byte for byte, one completion\'s bytes not another\'s', async (s) => {
    const a = await account(s, 10);
    const r = request(a.id, ['first', 'second'], { unitPriceMicros: µ(0.001) });
    await s.createRequest(r);
    const items = await s.claimItems('w1', 2, 60_000, 10_000);
    const text = (tag: string) => JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ i, name: `${tag} Café «${i}» – ⋅ 𝄞 \ud800` })));
    const fans = [];
    for (const item of items.sort((x, y) => x.queryIndex - y.queryIndex)) {
      fans.push(await s.completeItem({ itemId: item.id, owner: 'w1', recordsJson: text(item.query), count: 20, now: 10_100 }));
    }
    fans.forEach((fan, i) => {
      assert.equal(fan.applied, true);
      if (fan.stored?.recordsUtf8) assert.ok(fan.stored.recordsUtf8.equals(Buffer.from(text(['first', 'second'][i]))), 'the answer sends the text\'s own bytes');
    });
    const read = [];
    for await (const q of s.readResults(r.id)) read.push(q.recordsJson);
    assert.deepEqual(read, [text('first'), text('second')]);
  });
}
