/**
 * `npm run bench -- botwall-cluster`: the bot wall (bench/botwall-lib.ts) against a cluster, issue 35.
 * The wall and its loopback proxies run in a process of their own; the work runs on the real queue
 * (PostgreSQL store, Redis queue, as scale-out runs: test/support/cluster.ts) in 1, 2 and 4 `trawl
 * worker` processes (test/support/serve-test.ts with the wall's adapter, test/support/wall-source.ts),
 * every one given the same PROXY_URLS and PER_PROXY_RPS: their shared pacing (src/fetch/cluster) must
 * keep the rate each proxy's IP sends to the wall's per-IP rate, however many processes run.
 *
 * 1. Limits that bind: PROXIES proxies (BANNED banned from the start, FLAKY refusing 10% of tunnels),
 *    the wall at RPS per IP with a bucket of BURST. The rate is low on purpose: the wall allows the
 *    whole cluster (PROXIES − BANNED)·RPS = 12 queries/s, a small part of what the workers can do even
 *    on the loaded shared box (the non-binding run below: 25-50 queries/s at load 20), so the run's
 *    time is the pacing's, not the cores'. (At 25 requests/s per IP, 350/s for the cluster, the box
 *    ran out of cores first: a wall ratio of 4-40 measured the box's load, not the pacing.)
 *    - wall_s: from the first request's created_at to the last request's finished_at, both on the
 *      store (the API's and the workers' clocks: one machine). It counts the submits (QUERIES /
 *      PER_REQUEST requests through the API), the queue's announcements and claims, the first
 *      connections through each proxy, finding the BANNED proxies banned and the flaky ones' refusals
 *      (retried), every fetch and every completion. It does not count starting the worker processes
 *      (they are up and idle before the first submit) nor the wall's start.
 *    - least_s: the least time the wall's per-IP limits allow the whole cluster for the queries:
 *      (QUERIES − BURST·IPs) / (RPS·IPs) over the IPs not banned (the buckets start full). The
 *      client paces 5 % under the cap (CAP_MARGIN in src/fetch/executor.ts) and does not spend the
 *      buckets' first tokens at once, so 1.05-1.07 is the floor of wall_ratio = wall_s / least_s.
 *    - where the time goes, from the wall's side (Date.now() of the same machine): lead_s from the
 *      first request created to the first page the wall served (submit, claim, first tunnel and
 *      handshake), pace_s from the first page served to the last, tail_s from the last page served
 *      to the last request finished (the last completions); cores: CPU seconds of the API, the
 *      workers and the site over wall_s (PostgreSQL and Redis not counted).
 * 2. Limits that do not bind (FREE_PROXIES proxies at 2000 requests/s each): queries/s by workers,
 *    and the cores they used, until the cores run out: by process (the API, the workers, the site),
 *    the idle workers' cores (3 s before the submit: heartbeats, change feed, queue polls), the
 *    PostgreSQL and Redis servers' cores meanwhile (every process named postgres or redis-server
 *    on the machine: theirs only on an otherwise quiet box) and CPU ms per query.
 * 3. What a start costs: STARTS starts on one capped key through the in-process pacer and through
 *    each shared store (µs of the client's CPU per start, starts per round trip).
 *
 * One line per worker count, then the summary line. BOTWALL_CLUSTER_QUERIES (default 1080: least_s
 * 89 s, so the first tunnels and the last completions weigh a few %), BOTWALL_CLUSTER_FREE_QUERIES
 * (default 1500; 0 skips that run), BOTWALL_CLUSTER_WORKERS (default 1,2,4), BOTWALL_CLUSTER_INFLIGHT
 * (items in flight over the cluster, default 240: 20 s of the wall's rate queue for their starts,
 * which is not timed: an attempt's time limit starts at its start). BOTWALL_DEBUG=1: the wall's
 * 429s, long gaps per IP, first and last page per IP. PostgreSQL and Redis from TEST_DATABASE_URL /
 * TEST_REDIS_URL, else the CI defaults.
 */
import os from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openCluster, sleep, stopTrawl, type Cluster, type TrawlProc } from '../test/support/cluster.ts';
import { startSite, type WallOutcome } from './botwall-lib.ts';
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
const QUERIES = Number(process.env.BOTWALL_CLUSTER_QUERIES ?? 1080);
const FREE_QUERIES = Number(process.env.BOTWALL_CLUSTER_FREE_QUERIES ?? 1500);
const WORKERS = (process.env.BOTWALL_CLUSTER_WORKERS ?? '1,2,4').split(',').map(Number);
const INFLIGHT = Number(process.env.BOTWALL_CLUSTER_INFLIGHT ?? 240);
const FREE_INFLIGHT = 240;
const RPS = 2;
const BURST = 2;
const PROXIES = 8;
const BANNED = 2;
const FLAKY = 2;
const FREE_PROXIES = 8;
const FREE_RPS = 2000;
const STARTS = 4000;
const PER_REQUEST = 120;

interface Run extends WallOutcome {
  workers: number;
  lead_s: number;
  pace_s: number;
  tail_s: number;
  cores: number;
  queries_per_s: number;
  /** Cores by process: the API, all the workers, the site (wall and proxies). */
  api_cores: number;
  worker_cores: number;
  site_cores: number;
  /** Cores the idle workers took together before the submit (their timers: heartbeats, feed, queue). */
  idle_worker_cores: number;
  /** CPU ms of the API, the workers and the site per query. */
  cpu_ms_per_query: number;
  /** Cores of the PostgreSQL and Redis servers meanwhile (theirs for every user of them). */
  backend_cores: number;
}

type Wall = { rps: number; proxies: number; banned: number; flaky: number; burst: number; inflight: number };

/** CPU seconds a process (all its threads) has used so far, from /proc (0 where there is none). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL and Redis server process on this machine (shared with whatever
 *  else uses them: a figure for this run only when the box is otherwise quiet). */
function backendCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm === 'redis-server') total += cpuSeconds(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

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
        const perWorker = String(Math.ceil(o.inflight / n));
        const env = { WALL_URL: site.ready.url, PROXY_URLS: [...site.ready.proxies].sort(() => Math.random() - 0.5).join(','), CONCURRENCY: perWorker, PER_HOST_CONCURRENCY: perWorker };
        const workers: TrawlProc[] = [];
        for (let i = 0; i < n; i++) workers.push(await c.worker(process.env.BOTWALL_DEBUG ? { ...env, LOG_LEVEL: 'info' } : env));
        if (process.env.BOTWALL_DEBUG) workers.forEach((w, i) => createInterface({ input: w.child.stdout! }).on('line', (l) => { if (/cluster/.test(l)) console.error(`worker ${i}: ${l.slice(0, 300)}`); }));
        if (process.env.DEBUG_SEND) workers.forEach((w, i) => createInterface({ input: w.child.stderr! }).on('line', (l) => { if (/SENDDBG/.test(l)) console.error(`${(performance.now() / 1000).toFixed(2)} worker ${i}: ${l}`); }));
        // What the idle workers cost (heartbeats, the change feed, the queue's polls): 3 s before the submit.
        const idle0 = workers.reduce((a, w) => a + cpuSeconds(w.pid), 0);
        await sleep(3000);
        const idle = (workers.reduce((a, w) => a + cpuSeconds(w.pid), 0) - idle0) / 3;
        const r = await run(c, [api, ...workers], n, queries, o, site, idle);
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
async function run(c: Cluster, procs: TrawlProc[], n: number, queries: number, o: Wall, site: Awaited<ReturnType<typeof startSite>>, idleWorkerCores: number): Promise<Run> {
  const api = procs[0]!;
  const cpu0 = procs.reduce((a, p) => a + cpuSeconds(p.pid), 0);
  const api0 = cpuSeconds(api.pid);
  const backend0 = backendCpuSeconds();
  const site0 = await site.stats();
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
  if (process.env.BOTWALL_DEBUG) console.error(`${n} worker(s), served by IP: ${JSON.stringify(stats.servedByIp)}, gaps p10/50/90/99 ${stats.gapPercentiles.join('/')} ms`);
  const siteS = (stats.cpuMs - site0.cpuMs) / 1000;
  const backendS = backendCpuSeconds() - backend0;
  const apiS = cpuSeconds(api.pid) - api0;
  const cpuS = procs.reduce((a, p) => a + cpuSeconds(p.pid), 0) - cpu0 + siteS;
  const usable = o.proxies - o.banned;
  const t0 = Number(row.t0);
  const t1 = Number(row.t1);
  const wallS = (t1 - t0) / 1000;
  const s = (ms: number) => Number((ms / 1000).toFixed(1));
  const leastS = Math.max(0, queries - o.burst * usable) / (o.rps * usable);
  return {
    workers: n, queries, completed: Number((row.ok / queries).toFixed(4)), bans: stats.bans, incoherent: stats.incoherent, rate_violations: stats.rateViolations,
    wall_s: Number(wallS.toFixed(1)), least_s: Number(leastS.toFixed(1)), wall_ratio: Number((wallS / leastS).toFixed(3)),
    lead_s: s(stats.firstServedAt - t0), pace_s: s(stats.lastServedAt - stats.firstServedAt), tail_s: s(t1 - stats.lastServedAt), cores: Number((cpuS / wallS).toFixed(2)),
    queries_per_s: Number((queries / wallS).toFixed(1)),
    api_cores: Number((apiS / wallS).toFixed(2)), worker_cores: Number(((cpuS - siteS - apiS) / wallS).toFixed(2)), site_cores: Number((siteS / wallS).toFixed(2)),
    idle_worker_cores: Number(idleWorkerCores.toFixed(3)), cpu_ms_per_query: Number(((cpuS * 1000) / queries).toFixed(2)), backend_cores: Number((backendS / wallS).toFixed(2)),
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

const loadAtStart = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const binding = await arm(WORKERS, QUERIES, { rps: RPS, proxies: PROXIES, banned: BANNED, flaky: FLAKY, burst: BURST, inflight: INFLIGHT });
for (const r of binding) console.log(JSON.stringify(r));
const free = FREE_QUERIES <= 0 ? [] : await arm(WORKERS, FREE_QUERIES, { rps: FREE_RPS, proxies: FREE_PROXIES, banned: 0, flaky: 0, burst: FREE_RPS, inflight: FREE_INFLIGHT });
for (const r of free) console.error(`limits not binding, ${r.workers} worker(s): ${r.queries_per_s} queries/s, ${r.cores} cores (api ${r.api_cores}, workers ${r.worker_cores}, site ${r.site_cores}; idle workers ${r.idle_worker_cores}; PostgreSQL + Redis ${r.backend_cores}), ${r.cpu_ms_per_query} CPU ms/query (completed ${r.completed})`);

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
  table(['workers', 'queries', 'completed', 'bans', 'incoherent', '429s', 'wall s', 'least s', 'wall_ratio', 'lead s', 'pace s', 'tail s', 'cores'],
    binding.map((r) => [r.workers, r.queries, r.completed.toFixed(4), r.bans, r.incoherent, r.rate_violations, r.wall_s, r.least_s, r.wall_ratio, r.lead_s, r.pace_s, r.tail_s, r.cores])),
  '',
  'wall s: first request created → last request finished (store clock; submits, claims, fetches, retries and completions; not the workers\' start, which comes before). lead s: first request created → first page the wall served; pace s: first page served → last; tail s: last page served → last request finished. cores: CPU seconds of the API, the workers and the site per second of wall s (PostgreSQL and Redis not counted).',
  '',
  `Limits that do not bind (${FREE_PROXIES} proxies at ${FREE_RPS} requests/s each, ${FREE_INFLIGHT} items in flight over the cluster): throughput by workers, and the cores they took.`,
  '',
  table(['workers', 'queries', 'completed', 'queries/s', 'cores', 'api', 'workers\' cores', 'site', 'idle workers', 'PostgreSQL + Redis', 'CPU ms/query', 'bans', 'incoherent'],
    free.map((r) => [r.workers, r.queries, r.completed.toFixed(4), r.queries_per_s, r.cores, r.api_cores, r.worker_cores, r.site_cores, r.idle_worker_cores, r.backend_cores, r.cpu_ms_per_query, r.bans, r.incoherent])),
  '',
  `What a start on a capped key costs the client (${STARTS} starts, 8 waiting at once, the cap never waiting): CPU µs per start and starts per round trip to the store.`,
  '',
  table(['pacing', 'CPU µs/start', 'starts/round trip'], costs.map((c) => [c.store, c.cpu_us_per_start, c.starts_per_round_trip || '-'])),
  '',
  `Targets: completed ≥ 0.995, bans 0, incoherent 0 for every worker count, worst wall_ratio ≤ 1.15. Load average at the start: ${loadAtStart}, at the end: ${load} (a shared 2-core box).`,
].join('\n');
writeSection('docs/performance/botwall-cluster.md', text);
console.log(JSON.stringify({
  workers: binding.map((r) => r.workers), completed_min: Math.min(...binding.map((r) => r.completed)), bans: binding.reduce((a, r) => a + r.bans, 0),
  incoherent: binding.reduce((a, r) => a + r.incoherent, 0), worst_wall_ratio: Math.max(...binding.map((r) => r.wall_ratio)), throughput_by_workers: free.map((r) => r.queries_per_s),
}));
process.exit(0);
