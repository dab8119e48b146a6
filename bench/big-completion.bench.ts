/**
 * How long each step of a big query's completion holds the API thread (issue 39 item 1): one
 * `/maps/search` query ending with N places (default 5,000 and 20,000: an area query's size),
 * through the steps the runner and the service take, in order, each on a real store (SQLite
 * in-memory file, and PostgreSQL when TEST_DATABASE_URL is set: a scratch schema):
 *   finish    the adapter's merge (dedupe, limit) of the raw records
 *   prepare   each record given its `query` (src/engine/runner.ts prepare)
 *   encode    the records' JSON text (and its UTF-8 bytes) for the completion: encodeRecords where
 *             the tree has it (src/engine/encode-records.ts), else JSON.stringify
 *   complete  store.completeItem: the one transaction that stores (SQLite: compresses) the result,
 *             bills the item and ends the request (the fan-in)
 *   capture   the business capture of the places (src/app/business-capture.ts add + flush)
 *   read      the whole result read back as GET /requests/{id} reads it (store.readResults, expanded)
 *   get       the GET's whole answer as the service sends it (requestView's body, each string chunk
 *             encoded as the socket would)
 *   whole     the same completion end to end through the real Runner (a local adapter answering the
 *             merged places: the credit fit, prepare, encode, completeItem, the request's end, then
 *             the capture as the service wires it, afterComplete), on a fresh request
 * Per step: wall ms and the longest the event loop went without a turn meanwhile ("held": a
 * setImmediate chain runs beside the step and records its longest gap), the median of ROUNDS
 * (default 3). Records: the maps search fixture's 20 places (about 2.2 KB each), copied with new ids.
 * Run: FIXTURES_DIR=/work/shared/fixtures node bin/run-ts.js bench/big-completion.bench.ts
 * SIZES=5000,20000 ROUNDS=3 STORES=sqlite,postgres SKIP=capture,whole (steps not run)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { median, table } from './lib.ts';
import { adapter } from '../src/sources/maps-search/adapter.ts';
import { fixture, SEARCH } from '../src/sources/_maps/test-support.ts';
import { withQuery } from '../src/engine/record-fields.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openScratchPostgresStore, pgTestUrl } from '../src/store/postgres/testing.ts';
import { BusinessCapture } from '../src/app/business-capture.ts';
import { unpackRecords } from '../src/store/records-codec.ts';
import type { Store, WorkItem } from '../src/store/contract.ts';
import { Runner } from '../src/engine/runner.ts';
import { requestView } from '../src/app/results.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';

// The runner's encoding where this tree has it (src/engine/encode-records.ts), else JSON.stringify
// as before it: the same file runs on a copy of an older main for a paired figure.
const encoder = await import('../src/engine/encode-records.ts' as string).then((m) => m.encodeRecords as (r: unknown[]) => Promise<{ json: string; utf8?: Buffer }>, () => null);

type Rec = Record<string, unknown>;
const SIZES = (process.env.SIZES ?? '5000,20000').split(',').map(Number);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const STORES = (process.env.STORES ?? 'sqlite,postgres').split(',');
const SKIP = new Set((process.env.SKIP ?? '').split(','));
const la = () => loadavg().map((x) => x.toFixed(1)).join(' ');

const ctx = { query: 'coffee', params: {} as any };
const step = adapter.plan(ctx)[0]!;
const base = adapter.parse(step, { status: 200, body: fixture(SEARCH), headers: {}, url: String(step.url) }, ctx).records as Rec[];

/** N raw records as the steps collected them: the fixture's places, each copy with its own ids. */
function rawRecords(n: number): Rec[] {
  return Array.from({ length: n }, (_, i) => {
    const b = base[i % base.length]!;
    return { ...b, engine_id: `0x${i.toString(16)}:0x${(i * 7).toString(16)}`, place_id: `ChIJbench${i}`, name: `${b.name} ${i}` };
  });
}

/** Runs `fn`, measuring its wall time and the longest gap between two event-loop turns meanwhile. */
export async function held(fn: () => unknown): Promise<{ wall: number; max: number }> {
  let last = performance.now(), max = 0, on = true;
  const spin = () => { const t = performance.now(); if (t - last > max) max = t - last; last = t; if (on) setImmediate(spin); };
  setImmediate(spin);
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  on = false;
  const t = performance.now();
  if (t - last > max) max = t - last;
  return { wall, max };
}

async function openStore(kind: string): Promise<{ s: Store; done(): Promise<void> }> {
  if (kind === 'postgres') {
    const url = pgTestUrl();
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const s = await openScratchPostgresStore(url);
    return { s, done: () => s.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-big-completion-'));
  const s = await openSqliteStore(join(dir, 'db.sqlite'));
  return { s, done: async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); } };
}

/** A one-query /maps/search request, its item claimed by `owner`. */
async function claimedItem(s: Store, owner: string): Promise<WorkItem> {
  const accountId = randomUUID();
  await s.createAccount({ id: accountId, name: 'a', balanceMicros: 1_000_000_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false,
    webhookSecret: 'secret', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1_000 });
  const id = randomUUID();
  await s.createRequest({ id, accountId, endpoint: '/maps/search', params: { limit: 1_000_000 }, queries: ['coffee'], webhook: null, product: 'maps_search',
    unit: 'record', unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
  const [item] = await s.claimItems(owner, 1, 60_000, Date.now(), [`${id}:0`]);
  if (!item) throw new Error('no item claimed');
  return item;
}

type Cell = Record<string, { wall: number; max: number }>;
const cells = new Map<string, Cell[]>();

async function round(kind: string, n: number): Promise<void> {
  const { s, done } = await openStore(kind);
  try {
    const owner = 'bench';
    const item = await claimedItem(s, owner);
    const raw = rawRecords(n);
    const c: Cell = {};
    let merged: Rec[] = [], records: Rec[] = [], json = '', utf8: Buffer | undefined;
    c.finish = await held(() => { merged = adapter.finish!(raw as any, { query: 'coffee', params: { limit: 1_000_000, area: 'US>Nevada' } as any }) as Rec[]; });
    c.prepare = await held(() => { records = withQuery(merged, item.query); });
    c.encode = await held(async () => { if (encoder) ({ json, utf8 } = await encoder(records)); else json = JSON.stringify(records); });
    c.complete = await held(async () => {
      const fan = await s.completeItem({ itemId: item.id, owner, now: Date.now(), recordsJson: json, recordsUtf8: utf8, count: records.length, extraProducts: [] } as any);
      if (!fan.applied || fan.finished?.status !== 'Success') throw new Error('completion not applied');
    });
    const capture = new BusinessCapture(s, { shared: false, now: Date.now });
    if (!SKIP.has('capture')) c.capture = await held(async () => { await capture.add(item, records); await capture.flush(); });
    c.read = await held(async () => { let k = 0; for await (const q of s.readResults(item.requestId)) k += unpackRecords(q.recordsJson).length; if (!k) throw new Error('nothing read'); });
    const app = { store: s, now: Date.now, settings: { streamYieldChars: 256 * 1024, retentionMs: 1e12 } } as any;
    const accountId = (await s.getRequest(item.requestId))!.accountId;
    c.get = await held(async () => {
      const view = await requestView(app, accountId, item.requestId, {});
      if (view.kind !== 'success') throw new Error(`GET answered ${view.kind}`);
      let bytes = 0;
      for await (const x of view.body) bytes += (typeof x === 'string' ? Buffer.from(x) : x).length;
      if (bytes < json.length) throw new Error('a short answer');
    });
    if (!SKIP.has('whole')) {
      const again = await claimedItem(s, owner);
      const local = { kind: 'local' as const, endpoint: '/maps/search', async lookup() { return merged; } };
      const runner = new Runner({ store: s, queue: new EmbeddedQueue(s), adapterFor: () => local as any, fetchStep: async () => { throw new Error('no fetch'); }, owner,
        afterComplete: (it, recs) => new BusinessCapture(s, { shared: false, now: Date.now }).add(it, recs) });
      c.whole = await held(() => runner.run(again));
      if ((await s.getRequest(again.requestId))?.records !== merged.length) throw new Error('the whole completion did not store every record');
    }
    const key = `${kind}|${n}`;
    cells.set(key, [...(cells.get(key) ?? []), c]);
    console.log(`${kind} ${n}: ${Object.entries(c).map(([k, v]) => `${k} ${v.wall.toFixed(0)}/${v.max.toFixed(0)}`).join(', ')} ms (wall/held; load ${la()})`);
  } finally {
    await done();
  }
}

const load0 = la();
for (let r = 0; r < ROUNDS; r++) for (const kind of STORES) for (const n of SIZES) await round(kind, n);
const steps = ['finish', 'prepare', 'encode', 'complete', 'capture', 'read', 'get', 'whole'].filter((k) => !SKIP.has(k));
const rows = [...cells].map(([key, xs]) => {
  const [kind, n] = key.split('|');
  return [kind!, n!, ...steps.map((k) => `${median(xs.map((x) => x[k]!.max)).toFixed(0)} (${median(xs.map((x) => x[k]!.wall)).toFixed(0)})`)];
});
console.log(`\n${ROUNDS} rounds; load average ${load0} at the start, ${la()} at the end; each cell: longest event-loop gap (wall) in ms, medians\n`);
console.log(table(['store', 'places', ...steps], rows));
