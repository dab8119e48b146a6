/**
 * `npm run bench -- botwall`: the executor against a loopback bot wall (bench/botwall-lib.ts)
 * through 40 loopback proxies (one 127.0.0.x IP each; 4 banned from the start, 4 dropping 10% of
 * tunnels), each query run the way the engine runs it (retries after the wait an error asks for).
 * Two arms, each in its own process with a fresh wall: the browser-true transport (FETCH_PROFILE
 * browser) and undici (FETCH_PROFILE node), which shows what the wall does to Node's own handshake.
 * The wall and the proxies run in a process of their own beside each arm's (`site`), as a real site
 * and real proxies are other machines: CPU ms/query is the client's alone.
 *
 * wall_ratio = wall time / the least the wall allows: (queries - burst·IPs) / (rps·IPs) over the
 * IPs not banned at the start. Last line: one JSON object. BOTWALL_QUERIES (default 100000),
 * BOTWALL_NODE_QUERIES (default 2000), BOTWALL_RPS per IP (default 25).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { Executor } from '../src/fetch/executor.ts';
import { WebTransport } from '../src/fetch/impersonate.ts';
import { isSourceError } from '../src/sources/_kit/errors.ts';
import { startSite, type WallOutcome } from './botwall-lib.ts';
import { table, writeSection } from './lib.ts';

const PROXIES = 40;
const BANNED = 4;
const FLAKY = 4;
const BURST = 10;
const CONCURRENCY = 400;
const ATTEMPTS = 6;

interface ArmResult extends WallOutcome {
  arm: string;
  /** The client's CPU (executor and transport) per query. */
  cpu_ms_per_query: number;
  /** The site process's (wall and proxies). */
  site_cpu_ms_per_query: number;
  attempts: number;
}

async function arm(name: 'browser' | 'node', queries: number, rps: number): Promise<ArmResult> {
  const wallSite = await startSite({ rps, burst: BURST, banAfter: 5, proxies: PROXIES, banned: BANNED, flaky: FLAKY, flakyShare: 0.1 });
  const wall = wallSite.ready;
  // Proxies in shuffled order, so the banned and flaky ones are not all first in rotation.
  const urls = [...wall.proxies].sort(() => Math.random() - 0.5);
  const ex = new Executor({
    allowPrivateTargets: true, fetchProfile: name, proxyUrls: urls, perProxyRps: rps, perHostConcurrency: CONCURRENCY, pacingTargetConcurrency: Number(process.env.BOTWALL_TARGET ?? 10),
    retries: 2, retryBaseMs: 100, retryMaxMs: 1000, timeoutMs: 10_000,
  }, { transport: new WebTransport({ insecure: true, guard: { allowPrivate: true } }) });
  let done = 0;
  let attempts = 0;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= queries) return;
      const key = `q${i}`;
      for (let a = 0; a < (name === 'node' ? 1 : ATTEMPTS); a++) {
        attempts++;
        try {
          const res = await ex.run({ kind: 'page', url: `${wall.url}/search?q=${i}`, expect: 'html' }, key);
          if (res.body.includes(`data-q="${i}"`)) done++;
          if (process.env.BOTWALL_DEBUG && done % Math.ceil(queries / 10) === 0) console.error(`${done} at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
          break;
        } catch (e) {
          // The engine's way: a retryable error waits what it asks for (at least a little), then retries.
          if (process.env.BOTWALL_DEBUG) console.error(`${((performance.now() - t0) / 1000).toFixed(1)} s q${i}: ${(e as Error).message}`);
          if (!isSourceError(e) || !e.retryable) break;
          await new Promise((r) => setTimeout(r, Math.min(30_000, Math.max(200, e.retryAfterMs ?? 0))));
        }
      }
      ex.releaseSession(key);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const stats = await wallSite.stats();
  await ex.close();
  await wallSite.close();
  const usable = PROXIES - BANNED;
  const leastS = Math.max(0, queries - BURST * usable) / (rps * usable);
  return {
    arm: name, queries, completed: done / queries, bans: stats.bans, incoherent: stats.incoherent, rate_violations: stats.rateViolations,
    wall_s: Number(wallS.toFixed(1)), least_s: Number(leastS.toFixed(1)), wall_ratio: Number((wallS / leastS).toFixed(3)),
    cpu_ms_per_query: Number(((cpu.user + cpu.system) / 1000 / queries).toFixed(3)), site_cpu_ms_per_query: Number((stats.cpuMs / queries).toFixed(3)), attempts,
  };
}

const role = process.argv[2];
if (role === 'arm') {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // undici's arm must accept the loopback certificate too
  const r = await arm(process.argv[3] as 'browser' | 'node', Number(process.argv[4]), Number(process.argv[5]));
  console.log(JSON.stringify(r));
  process.exit(0);
} else {
  const rps = Number(process.env.BOTWALL_RPS ?? 25);
  const runs: ArmResult[] = [];
  for (const [name, n] of [['browser', Number(process.env.BOTWALL_QUERIES ?? 100_000)], ['node', Number(process.env.BOTWALL_NODE_QUERIES ?? 2000)]] as const) {
    const p = spawnSync(process.execPath, ['bin/run-ts.js', 'bench/botwall.bench.ts', 'arm', name, String(n), String(rps)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    const line = p.stdout.trim().split('\n').pop() ?? '';
    runs.push(JSON.parse(line) as ArmResult);
  }
  const rows = runs.map((r) => [r.arm, r.queries, r.completed.toFixed(4), r.bans, r.incoherent, r.rate_violations, r.attempts, r.wall_s, r.least_s, r.wall_ratio, r.cpu_ms_per_query, r.site_cpu_ms_per_query]);
  const text = [
    '# Bot wall (`npm run bench -- botwall`)',
    '',
    `A loopback wall that reads every connection's ClientHello and HTTP/2 preface and checks them against the User-Agent, checks pseudo-header order and client hints, keeps a token bucket per IP (${rps} requests/s, burst ${BURST}), answers violations with soft blocks (empty page, captcha redirect, 429 with Retry-After) and bans an IP at 5 violations within a minute. ${PROXIES} loopback CONNECT proxies, one 127.0.0.x IP each: ${BANNED} banned from the start, ${FLAKY} refusing 10% of tunnels. The executor runs with PER_PROXY_RPS=${rps} (the wall's documented rate; pacing keeps 5 % under it), pooled identities and ${CONCURRENCY} queries in flight; each query is retried the way the engine retries (up to ${ATTEMPTS} runs). The wall and the proxies run in one process, the client in another, on a shared 2-core box (noisy): CPU ms/query is the client's, site CPU the wall's and proxies'. least_s = (queries − burst·IPs) / (rps·IPs) over the ${PROXIES - BANNED} IPs not banned at the start.`,
    '',
    table(['arm', 'queries', 'completed', 'bans', 'incoherent', '429s', 'attempts', 'wall s', 'least s', 'wall_ratio', 'CPU ms/query', 'site CPU ms/query'], rows),
    '',
    `Targets on the browser-true arm: completed ≥ 0.995, bans = 0, incoherent = 0, wall_ratio ≤ 1.1. Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}.`,
  ].join('\n');
  console.log(text);
  writeSection('docs/performance/botwall.md', text);
  const b = runs[0]!;
  const n = runs[1]!;
  console.log(JSON.stringify({ queries: b.queries, completed: b.completed, bans: b.bans, incoherent: b.incoherent, wall_ratio: b.wall_ratio, rate_violations: b.rate_violations, cpu_ms_per_query: b.cpu_ms_per_query,
    node: { queries: n.queries, completed: n.completed, bans: n.bans, incoherent: n.incoherent, wall_ratio: n.wall_ratio } }));
}
