/**
 * Shared by the responsiveness benches (bench/responsive*.bench.ts): the /health prober in its own
 * process, percentiles, and the stores they start from (one finished 1000 x 500 request; N finished
 * 1-query requests past retention and history, the janitor's backlog).
 */
import { createInterface } from 'node:readline';
import { spawn, type ChildProcess } from 'node:child_process';
import type { SqliteStore } from '../src/store/sqlite/store.ts';

/** The prober in its own process; `measure(fn)` gives its latencies while fn runs. */
export async function startProbe(healthUrl: string) {
  const child: ChildProcess = spawn(process.execPath, ['bin/run-ts.js', 'bench/probe.ts', healthUrl], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const next = () => new Promise<any>((r) => lines.once('line', (l) => r(JSON.parse(l))));
  await next();
  return {
    async measure(fn: () => Promise<unknown>): Promise<number[]> {
      child.stdin!.write('start\n');
      await fn();
      const got = next();
      child.stdin!.write('stop\n');
      return (await got).ms as number[];
    },
    close() { child.stdin!.end(); },
  };
}

export const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
/** A table's three `/health` cells from probe latencies: median, p99 (one decimal), worst (whole ms). */
export const healthCells = (ms: number[]): string[] => [pct(ms, 0.5).toFixed(1), pct(ms, 0.99).toFixed(1), Math.max(...ms).toFixed(0)];

export const record = (q: number, i: number) => ({ query: `q${q}`, name: `Place ${q}-${i}`, place_id: `ChIJ${q}x${i}`, engine_id: `0x${q.toString(16)}:0x${i.toString(16)}`, full_address: '12 Example Street, Athens 105 57, Greece', latitude: 37.97 + i / 1e4, longitude: 23.72 + q / 1e4, rating: 4.5, reviews: 120 + i, phone: '+30 21 0000 0000', site: 'https://example.com/', category: 'Coffee shop', subtypes: 'Coffee shop, Cafe', working_hours: { Monday: '8AM-8PM', Tuesday: '8AM-8PM' }, business_status: 'OPERATIONAL' });

/** A finished 1000 x 500 request `id` of `accountId`. */
export async function addBigResult(store: SqliteStore, accountId: string, id = 'big-request') {
  await store.createRequest({ id, accountId, endpoint: '/maps/search', params: {}, queries: Array.from({ length: 1000 }, (_, i) => `q${i}`), webhook: null, product: 'p', unit: 'place', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
  for (const it of await store.claimItems('bench', 1000, 3_600_000, Date.now())) {
    await store.completeItem({ itemId: it.id, owner: 'bench', recordsJson: JSON.stringify(Array.from({ length: 500 }, (_, i) => record(it.queryIndex, i))), count: 500, now: Date.now() });
  }
}

/** `n` finished 1-query requests of `accountId`, all past retention and history. */
export function addExpiredRequests(store: SqliteStore, accountId: string, n: number) {
  const old = Date.now() - 3 * 24 * 3600_000;
  const rec = JSON.stringify([record(0, 0)]).replace(/'/g, "''");
  store.db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
    INSERT INTO requests (id, account_id, endpoint, params, status, queries_total, queries_done, queries_ok, records, product, unit, unit_price_micros, empty_costs_one, drop_duplicates, created_at, finished_at)
      SELECT printf('req-%08d', i), '${accountId}', '/maps/search', '{}', 'Success', 1, 1, 1, 1, 'p', 'place', 0, 0, 0, ${old}, ${old} + 1000 FROM n;
    INSERT INTO work_items (id, request_id, query_index, query, state, max_attempts, run_after) SELECT id || ':0', id, 0, 'q', 'done', 1, ${old} FROM requests WHERE id LIKE 'req-%';
    INSERT INTO results (request_id, query_index, records, count) SELECT id, 0, '${rec}', 1 FROM requests WHERE id LIKE 'req-%';`);
}
