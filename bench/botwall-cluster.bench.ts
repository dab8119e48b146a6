/**
 * `npm run bench -- botwall-cluster`: the bot wall (bench/botwall-lib.ts) against a cluster, issue 35.
 * The wall and its loopback proxies run in a process of their own; the work runs on the real queue
 * (PostgreSQL store, Redis queue, as scale-out runs: test/support/cluster.ts) in 1, 2 and 4 `trawl
 * worker` processes (test/support/serve-test.ts with the wall's adapter, test/support/wall-source.ts),
 * every one given the same PROXY_URLS and PER_PROXY_RPS: their shared pacing (src/fetch/cluster) must
 * keep the rate each proxy's IP sends to the wall's per-IP rate, however many processes run.
 *
 * 1. Limits that bind: PROXIES proxies (BANNED banned from the start, FLAKY refusing 10% of tunnels),
 *    the wall at RPS per IP, burst BURST. wall_ratio = the run's time (first request created to last
 *    finished, store clock) / the least the wall allows the whole cluster: (queries − burst·IPs) /
 *    (rps·IPs) over the IPs not banned.
 * 2. Limits that do not bind (FREE_PROXIES proxies at 2000 requests/s each): queries/s by workers,
 *    until the cores run out.
 * 3. What a start costs: STARTS starts on one capped key through the in-process pacer and through
 *    each shared store (µs of the client's CPU per start, starts per round trip).
 *
 * One line per worker count, then the summary line. BOTWALL_CLUSTER_QUERIES (default 6000),
 * BOTWALL_CLUSTER_FREE_QUERIES (default 3000), BOTWALL_CLUSTER_WORKERS (default 1,2,4),
 * BOTWALL_CLUSTER_INFLIGHT (items in flight over the cluster, default 240). PostgreSQL and Redis
 * from TEST_DATABASE_URL / TEST_REDIS_URL, else the CI defaults.
 */
import os from 'node:os';
import { openCluster, sleep, stopTrawl, type Cluster, type TrawlProc } from '../test/support/cluster.ts';
import { startSite } from './botwall-lib.ts';
import { table, writeSection } from './lib.ts';
import { Pacer } from '../src/fetch/pacing.ts';
import { ClusterLink } from '../src/fetch/cluster/link.ts';
import { RedisClusterStore } from '../src/fetch/cluster/redis.ts';
import { PostgresClusterStore } from '../src/fetch/cluster/postgres.ts';
import type { ClusterStore } from '../src/fetch/cluster/store.ts';
import { deleteKeys, uniquePrefix } from '../src/engine/backends/redis-testing.ts';
import { openScratchPostgresStore } from '../src/store/postgres/testing.ts';

const DB = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUERIES = Number(process.env.BOTWALL_CLUSTER_QUERIES ?? 6000);
const FREE_QUERIES = Number(process.env.BOTWALL_CLUSTER_FREE_QUERIES ?? 3000);
const WORKERS = (process.env.BOTWALL_CLUSTER_WORKERS ?? '1,2,4').split(',').map(Number);
const INFLIGHT = Number(process.env.BOTWALL_CLUSTER_INFLIGHT ?? 240);
const RPS = 25;
const BURST = 10;
const PROXIES = 16;
const BANNED = 2;
const FLAKY = 2;
const FREE_PROXIES = 8;
const FREE_RPS = 2000;
const STARTS = 4000;
const PER_REQUEST = 120;

interface Run {
  workers: number;
  queries: number;
  completed: number;
  bans: number;
  incoherent: number;
  rate_violations: number;
  wall_s: number;
  least_s: number;
  wall_ratio: number;
  queries_per_s: number;
}

type Wall = { rps: number; proxies: number; banned: number; flaky: number; burst: number };

/** One arm: one PostgreSQL schema, Redis prefix and API process; per worker count a fresh wall and
 *  fresh worker processes (started one after another: a loaded box starts them slowly). */
async function arm(counts: number[], queries: number, o: Wall): Promise<Run[]> {
  const c = await openCluster({ databaseUrl: DB, redisUrl: REDIS, env: {
    ALLOW_PRIVATE_TARGETS: 'true', FETCH_PROFILE: 'browser', RETRY_BASE_MS: '200', FETCH_TIMEOUT_MS: '10000', PER_PROXY_RPS: String(o.rps),
  } });
  const out: Run[] = [];
  try {
    const api = await c.api();
    for (const n of counts) {
      const site = await startSite({ rps: o.rps, burst: o.burst, banAfter: 5, proxies: o.proxies, banned: o.banned, flaky: o.flaky, flakyShare: 0.1 });
      try {
        const perWorker = String(Math.ceil(INFLIGHT / n));
        const env = { WALL_URL: site.ready.url, PROXY_URLS: [...site.ready.proxies].sort(() => Math.random() - 0.5).join(','), CONCURRENCY: perWorker, PER_HOST_CONCURRENCY: perWorker };
        const workers: TrawlProc[] = [];
        for (let i = 0; i < n; i++) workers.push(await c.worker(env));
        const r = await run(c, api, n, queries, o, site);
        await Promise.all(workers.map((w) => stopTrawl(w)));
        out.push(r);
      } finally {
        await site.close();
      }
    }
  } finally {
    await c.close();
  }
  return out;
}

/** `queries` queries submitted through the API to `n` running workers; waits for the last. */
async function run(c: Cluster, api: TrawlProc, n: number, queries: number, o: Wall, site: Awaited<ReturnType<typeof startSite>>): Promise<Run> {
  const tag = `w${n}r${Math.random().toString(36).slice(2, 6)}`;
  const ids = await Promise.all(Array.from({ length: Math.ceil(queries / PER_REQUEST) }, async (_, r) => {
    const count = Math.min(PER_REQUEST, queries - r * PER_REQUEST);
    const qs = Array.from({ length: count }, (_, i) => `query=${tag}q${r * PER_REQUEST + i}`).join('&');
    const res = await fetch(`${api.url}/maps/search?${qs}`, { headers: { 'x-api-key': api.key } });
    if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
    return (await res.json() as { id: string }).id;
  }));
  const end = Date.now() + 600_000;
  let row: { pending: number; t0: string; t1: string; ok: number };
  for (;;) {
    [row] = await c.sql(`SELECT COUNT(*) FILTER (WHERE status = 'Pending')::int AS pending, MIN(created_at) AS t0, MAX(finished_at) AS t1, SUM(queries_ok)::int AS ok
                           FROM requests WHERE id = ANY($1)`, [ids]) as typeof row[];
    if (row.pending === 0) break;
    if (Date.now() > end) throw new Error(`${n} workers did not finish in 600 s`);
    await sleep(200);
  }
  if (row.ok < queries) {
    const why = await c.sql(`SELECT left(error, 100) AS e, COUNT(*)::int AS n FROM work_items WHERE request_id = ANY($1) AND error IS NOT NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 5`, [ids]);
    console.error(`${n} worker(s): ${queries - row.ok} queries failed: ${JSON.stringify(why)}`);
  }
  const stats = await site.stats();
  const usable = o.proxies - o.banned;
  const wallS = (Number(row.t1) - Number(row.t0)) / 1000;
  const leastS = Math.max(0, queries - o.burst * usable) / (o.rps * usable);
  return {
    workers: n, queries, completed: Number((row.ok / queries).toFixed(4)), bans: stats.bans, incoherent: stats.incoherent, rate_violations: stats.rateViolations,
    wall_s: Number(wallS.toFixed(1)), least_s: Number(leastS.toFixed(1)), wall_ratio: Number((wallS / leastS).toFixed(3)), queries_per_s: Number((queries / wallS).toFixed(1)),
  };
}

/** µs of this process's CPU per start, and starts per round trip, through one pacer. */
async function startCost(label: string, store?: ClusterStore): Promise<{ store: string; cpu_us_per_start: number; starts_per_round_trip: number }> {
  const link = store ? new ClusterLink(store) : undefined;
  await link?.start();
  const pacer = new Pacer({ targetConcurrency: 1e6, maxDelayMs: 1000, ...(link ? { slots: link, onBackOff: () => undefined } : {}) });
  // A key capped at 0.01 ms a start: the cap never waits, so what is measured is the reservation.
  const slot = [{ key: `cost-${uniquePrefix('k')}`, minDelayMs: 0.01 }];
  for (let i = 0; i < 200; i++) (await pacer.wait(slot)).done(); // warm-up
  const leases0 = link?.stats.leases ?? 0;
  const cpu0 = process.cpuUsage();
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next++ < STARTS) {
      const s = await pacer.wait(slot);
      pacer.record(slot, 1, 'ok');
      s.done();
    }
  }));
  const cpu = process.cpuUsage(cpu0);
  const trips = (link?.stats.leases ?? 0) - leases0;
  await link?.close();
  return { store: label, cpu_us_per_start: Number(((cpu.user + cpu.system) / STARTS).toFixed(1)), starts_per_round_trip: trips ? Number((STARTS / trips).toFixed(2)) : 0 };
}

const binding = await arm(WORKERS, QUERIES, { rps: RPS, proxies: PROXIES, banned: BANNED, flaky: FLAKY, burst: BURST });
for (const r of binding) console.log(JSON.stringify(r));
const free = await arm(WORKERS, FREE_QUERIES, { rps: FREE_RPS, proxies: FREE_PROXIES, banned: 0, flaky: 0, burst: FREE_RPS });
for (const r of free) console.error(`limits not binding, ${r.workers} worker(s): ${r.queries_per_s} queries/s (completed ${r.completed})`);

const costs = [await startCost('in-process')];
const prefix = uniquePrefix('clcost');
const redisStore = new RedisClusterStore({ url: REDIS, prefix });
await redisStore.ready();
costs.push(await startCost('redis', redisStore));
await redisStore.close();
await deleteKeys(REDIS, prefix);
const pgStore = await openScratchPostgresStore(DB);
const pgCluster = new PostgresClusterStore(pgStore.clientConfig());
costs.push(await startCost('postgres', pgCluster));
await pgCluster.close();
await pgStore.close();

const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const text = [
  '# Bot wall, cluster (`npm run bench -- botwall-cluster`)',
  '',
  `The wall of \`botwall\` and its loopback proxies in a process of their own; the work on the real queue (PostgreSQL store, Redis queue and shared pacing, as scale-out runs) in 1, 2 and 4 \`trawl worker\` processes, every one given the same PROXY_URLS and PER_PROXY_RPS=${RPS} (the wall's rate per IP), ${INFLIGHT} items in flight over the cluster; each query one page of the wall, retried the engine's way. ${PROXIES} proxies, ${BANNED} banned from the start, ${FLAKY} refusing 10% of tunnels; burst ${BURST}. wall_ratio = the run's time (store clock) / the least the wall's per-IP limits allow the whole cluster: (queries − burst·IPs) / (rps·IPs) over the ${PROXIES - BANNED} IPs not banned.`,
  '',
  table(['workers', 'queries', 'completed', 'bans', 'incoherent', '429s', 'wall s', 'least s', 'wall_ratio'], binding.map((r) => [r.workers, r.queries, r.completed.toFixed(4), r.bans, r.incoherent, r.rate_violations, r.wall_s, r.least_s, r.wall_ratio])),
  '',
  `Limits that do not bind (${FREE_PROXIES} proxies at ${FREE_RPS} requests/s each): throughput by workers.`,
  '',
  table(['workers', 'queries', 'completed', 'queries/s', 'bans', 'incoherent'], free.map((r) => [r.workers, r.queries, r.completed.toFixed(4), r.queries_per_s, r.bans, r.incoherent])),
  '',
  `What a start on a capped key costs the client (${STARTS} starts, 8 waiting at once, the cap never waiting): CPU µs per start and starts per round trip to the store.`,
  '',
  table(['pacing', 'CPU µs/start', 'starts/round trip'], costs.map((c) => [c.store, c.cpu_us_per_start, c.starts_per_round_trip || '-'])),
  '',
  `Targets: completed ≥ 0.995, bans 0, incoherent 0 for every worker count, worst wall_ratio ≤ 1.15. Load average at the end: ${load} (a shared 2-core box).`,
].join('\n');
writeSection('docs/performance/botwall-cluster.md', text);
console.log(JSON.stringify({
  workers: binding.map((r) => r.workers), completed_min: Math.min(...binding.map((r) => r.completed)), bans: binding.reduce((a, r) => a + r.bans, 0),
  incoherent: binding.reduce((a, r) => a + r.incoherent, 0), worst_wall_ratio: Math.max(...binding.map((r) => r.wall_ratio)), throughput_by_workers: free.map((r) => r.queries_per_s),
}));
process.exit(0);
