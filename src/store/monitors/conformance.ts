/**
 * The monitors part's conformance suite (./contract.ts), run on every store: one owner per due time
 * under concurrent claims, a take-over of a dead claim exactly once, a run ended once, changes paged
 * in order, account isolation, delete with everything the monitor had.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../contract.ts';
import type { MonitorRow, RunEnd } from './contract.ts';
import { monitorStoreOf } from './index.ts';

export function monitor(id: string, patch: Partial<MonitorRow> = {}): MonitorRow {
  return {
    id, accountId: 'acc1', name: `monitor ${id}`, endpoint: '/maps/search', queries: ['coffee austin'], params: { limit: 20 },
    schedule: { every_s: 3600, time_zone: 'UTC' }, compare: { identity: ['place_id'], fields: ['phone'] }, webhook: null, status: 'active', pausedReason: null,
    nextRunAt: 1_000, lastRunAt: null, runs: 0, created: 1, updated: 1, ...patch,
  };
}

const end = (patch: Partial<RunEnd> = {}): RunEnd => ({
  status: 'done', reason: null, counts: { new: 1, gone: 0, changed: 0, new_reviews: 0, removed: 0, records: 1 }, changes: [], seen: [], gone: [], now: 5_000, ...patch,
});

export function monitorConformance(name: string, open: () => Promise<Store>, opts: { skip?: string | false } = {}): void {
  const t = (title: string, fn: (s: Store) => Promise<void>) => test(`${name} monitors: ${title}`, { skip: opts.skip }, async () => {
    const s = await open();
    try { await fn(s); } finally { await s.close(); }
  });

  t('concurrent claims of one due time make one run; the monitor moves on; nothing is due before its time', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('m1'));
    let ids = 0;
    const claims = await Promise.all(Array.from({ length: 8 }, () => m.claimDueRun(2_000, () => 3_600_000, () => `req-${++ids}`)));
    const won = claims.filter(Boolean);
    assert.equal(won.length, 1);
    const { run, monitor: after } = won[0]!;
    assert.deepEqual([run.status, run.dueAt, run.baseline, after.nextRunAt], ['claimed', 1_000, true, 3_600_000]);
    assert.equal((await m.getMonitor('acc1', 'm1'))!.nextRunAt, 3_600_000);
    // Due again, but its run is still in progress: not claimed until that run ends.
    assert.equal(await m.claimDueRun(4_000_000, () => 7_200_000, () => 'req-x'), null);
    await m.markRunning(run.id);
    assert.equal(await m.claimDueRun(4_000_000, () => 7_200_000, () => 'req-x'), null);
    assert.equal(await m.finishRun(run.id, end()), true);
    assert.equal(await m.finishRun(run.id, end()), false, 'a run ends once');
    const next = await m.claimDueRun(4_000_000, () => 7_200_000, () => 'req-y');
    assert.deepEqual([next?.run.dueAt, next?.run.baseline, next?.run.requestId], [3_600_000, false, 'req-y']);
    assert.equal((await m.getMonitor('acc1', 'm1'))!.runs, 1);
  });

  t('what a run learned of the view cap is kept on the monitor; a run that learned nothing keeps it', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('l'));
    assert.equal((await m.getMonitor('acc1', 'l'))!.learned, null);
    const learned = { caps: [100, 120], floor: 96, top: { 'dentist "a"': 87 } };
    const c1 = (await m.claimDueRun(2_000, () => 3_600_000, () => 'req-l1'))!;
    await m.markRunning(c1.run.id);
    await m.finishRun(c1.run.id, end({ learned }));
    assert.deepEqual((await m.getMonitor('acc1', 'l'))!.learned, learned);
    const c2 = (await m.claimDueRun(4_000_000, () => 7_200_000, () => 'req-l2'))!;
    await m.markRunning(c2.run.id);
    await m.finishRun(c2.run.id, end());
    assert.deepEqual((await m.getMonitor('acc1', 'l'))!.learned, learned);
  });

  t('a monitor paused with a reason keeps it, is never claimed, and loses it when resumed', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('r'));
    const why = 'its account cannot pay: \u00e9 "quoted"';
    const paused = await m.updateMonitor('acc1', 'r', { status: 'paused', pausedReason: why, nextRunAt: null }, 3_000);
    assert.deepEqual([paused?.status, paused?.pausedReason, paused?.nextRunAt], ['paused', why, null]);
    assert.equal((await m.listMonitors('acc1', { limit: 5 }))[0].pausedReason, why);
    assert.equal(await m.claimDueRun(9_000_000, () => null, () => 'req-r'), null);
    assert.equal(await m.updateMonitor('acc2', 'r', { pausedReason: null }, 4_000), null, 'another account\'s monitor is not touched');
    assert.equal((await m.getMonitor('acc1', 'r'))!.pausedReason, why);
    const resumed = await m.updateMonitor('acc1', 'r', { status: 'active', pausedReason: null, nextRunAt: 5_000 }, 5_000);
    assert.deepEqual([resumed?.status, resumed?.pausedReason], ['active', null]);
    assert.equal((await m.claimDueRun(9_000_000, () => null, () => 'req-r'))?.monitor.id, 'r');
  });

  t('a paused monitor is never claimed; a stale claim is taken over by exactly one caller', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('p', { status: 'paused', nextRunAt: null }));
    await m.createMonitor(monitor('a'));
    const c = await m.claimDueRun(2_000, () => 9_999_999, () => 'req-a');
    assert.equal(c?.monitor.id, 'a');
    assert.equal(await m.claimDueRun(2_000, () => 9_999_999, () => 'req-b'), null);
    assert.deepEqual((await m.staleClaims(1_000, 10)).map((r) => r.id), [], 'not stale yet');
    const stale = await m.staleClaims(10_000, 10);
    assert.deepEqual(stale.map((r) => r.requestId), ['req-a']);
    const takes = await Promise.all([1, 2, 3].map(() => m.retakeRun(stale[0].id, stale[0].claimedAt, 20_000)));
    assert.deepEqual(takes.filter(Boolean).length, 1);
    await m.markRunning(stale[0].id);
    assert.deepEqual((await m.runningRuns(10)).map((r) => r.id), [stale[0].id]);
  });

  t('a run\'s end stores its changes and what was seen, in order, paged and filtered; accounts see only their own', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('c'));
    const c = (await m.claimDueRun(2_000, () => 9_999_999, () => 'req-c'))!;
    await m.markRunning(c.run.id);
    const change = (i: number, kind: 'new' | 'changed' = 'new') => ({ monitorId: 'c', runId: c.run.id, at: 5_000 + i, kind, identity: `p${i}`,
      field: kind === 'changed' ? 'phone' : null, before: kind === 'changed' ? '1' : null, after: kind === 'changed' ? '\u0000\udfff' : null, record: { place_id: `p${i}`, n: i } });
    await m.finishRun(c.run.id, end({ changes: [change(0), change(1, 'changed'), change(2)], seen: [{ identity: 'p0', values: { phone: '1' } }, { identity: 'p1', values: { phone: '2' } }] }));
    const all = await m.listChanges('acc1', 'c', { limit: 10 });
    assert.deepEqual(all.map((x) => x.identity), ['p0', 'p1', 'p2']);
    assert.equal(all[1].after, '\u0000\udfff', 'any text value round-trips (NUL, a lone surrogate)');
    assert.deepEqual(all[0].record, { place_id: 'p0', n: 0 });
    const page2 = await m.listChanges('acc1', 'c', { afterSeq: all[0].seq, limit: 1 });
    assert.deepEqual(page2.map((x) => x.identity), ['p1']);
    assert.deepEqual((await m.listChanges('acc1', 'c', { kinds: ['changed'], limit: 10 })).map((x) => x.identity), ['p1']);
    assert.deepEqual((await m.listChanges('acc1', 'c', { from: 5_002, limit: 10 })).map((x) => x.identity), ['p2']);
    assert.deepEqual((await m.listChanges('acc1', 'c', { runId: c.run.id, limit: 10 })).length, 3);
    assert.deepEqual(await m.listChanges('other', 'c', { limit: 10 }), [], 'another account sees nothing');
    assert.equal(await m.getMonitor('other', 'c'), null);
    assert.deepEqual([...(await m.seenRecords('c')).keys()].sort(), ['p0', 'p1']);
    assert.deepEqual((await m.listRuns('acc1', 'c', { limit: 5 })).map((r) => [r.status, r.counts.new]), [['done', 1]]);
    assert.deepEqual(await m.listRuns('other', 'c', { limit: 5 }), []);
    // A later run removes what is gone.
    await m.updateMonitor('acc1', 'c', { nextRunAt: 3_000 }, 6_000);
    const c2 = (await m.claimDueRun(9_000, () => 9_999_999, () => 'req-c2'))!;
    await m.markRunning(c2.run.id);
    await m.finishRun(c2.run.id, end({ gone: ['p0'], now: 9_500 }));
    assert.deepEqual([...(await m.seenRecords('c')).keys()], ['p1']);
    assert.equal(await m.deleteMonitor('other', 'c'), false);
    assert.equal(await m.deleteMonitor('acc1', 'c'), true);
    assert.deepEqual([await m.getMonitor('acc1', 'c'), (await m.seenRecords('c')).size, await m.getRun(c.run.id)], [null, 0, null]);
  });

  t('list and update: newest first, paged; a patch changes only what it names', async (s) => {
    const m = monitorStoreOf(s);
    for (const id of ['m_a', 'm_b', 'm_c']) await m.createMonitor(monitor(id));
    await m.createMonitor(monitor('m_z', { accountId: 'acc2' }));
    assert.deepEqual((await m.listMonitors('acc1', { limit: 2 })).map((x) => x.id), ['m_c', 'm_b']);
    assert.deepEqual((await m.listMonitors('acc1', { lastId: 'm_b', limit: 2 })).map((x) => x.id), ['m_a']);
    assert.deepEqual([await m.countMonitors('acc1'), await m.countMonitors('acc2'), await m.countMonitors('nobody')], [3, 1, 0]);
    const u = await m.updateMonitor('acc1', 'm_a', { status: 'paused', nextRunAt: null, queries: ['tea'] }, 77);
    assert.deepEqual([u!.status, u!.nextRunAt, u!.queries, u!.params, u!.updated], ['paused', null, ['tea'], { limit: 20 }, 77]);
    assert.equal(await m.updateMonitor('acc2', 'm_a', { status: 'active' }, 78), null, 'not another account\'s');
  });

  t('the cap holds under 50 concurrent creates: count and insert are one transaction', async (s) => {
    const m = monitorStoreOf(s);
    for (let i = 0; i < 190; i++) assert.equal(await m.createMonitor(monitor(`m${String(i).padStart(3, '0')}`), 200), true);
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => m.createMonitor(monitor(`n${i}`), 200)));
    assert.equal(made.filter(Boolean).length, 10, 'exactly the room left');
    assert.equal(await m.countMonitors('acc1'), 200);
    const again = await Promise.all(Array.from({ length: 50 }, (_, i) => m.createMonitor(monitor(`o${i}`), 200)));
    assert.deepEqual([again.filter(Boolean).length, await m.countMonitors('acc1')], [0, 200], 'none past the cap');
    assert.equal(await m.createMonitor(monitor('other', { accountId: 'acc2' }), 200), true, 'the cap is per account');
  });

  t('history purge: finished runs and changes past their retention go, a monitor\'s newest done run stays', async (s) => {
    const m = monitorStoreOf(s);
    await m.createMonitor(monitor('h'));
    const change = (runId: string, at: number) => ({ monitorId: 'h', runId, at, kind: 'new' as const, identity: `x${at}`, field: null, before: null, after: null, record: { at } });
    const runs = [];
    for (const [due, status, at] of [[1_000, 'done', 1_500], [2_000, 'failed', 2_500], [3_000, 'done', 3_500]] as const) {
      const c = (await m.claimDueRun(due, () => due + 1_000, () => `req-${due}`))!;
      await m.markRunning(c.run.id);
      await m.finishRun(c.run.id, end({ status, now: at, changes: status === 'done' ? [change(c.run.id, at)] : [] }));
      runs.push(c.run.id);
    }
    const open = (await m.claimDueRun(4_000, () => 5_000, () => 'req-4000'))!;
    assert.equal(await m.purgeHistory(10_000, 2_000, 10), 3, 'two runs and one change');
    assert.deepEqual((await m.listRuns('acc1', 'h', { limit: 10 })).map((r) => r.id), [open.run.id, runs[2]], 'the newest done run and the open one stay');
    assert.deepEqual((await m.listChanges('acc1', 'h', { limit: 10 })).map((c) => c.at), [3_500]);
    assert.equal(await m.purgeHistory(10_000, 10_000, 10), 1, 'then the last change; the newest done run still stays');
    assert.equal(await m.purgeHistory(10_000, 10_000, 10), 0);
    await m.markRunning(open.run.id);
    await m.finishRun(open.run.id, end({ status: 'failed', now: 4_500 }));
    assert.equal((await m.claimDueRun(5_000, () => 6_000, () => 'req-5000'))?.run.baseline, false, 'the next run is still no baseline');
  });
}
