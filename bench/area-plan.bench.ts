/**
 * What an area request costs the API thread (issue 39 item 1, issue 33): `trawl serve` as
 * test/support/serve-test.ts runs it (its own process, the real /maps/search adapter against the
 * loopback map site served from this process), a fresh service per round, two area requests one
 * after the other (the first covering of the process, then another phrase over the same area),
 * each waited for to its end, while bench/probe.ts (its own process) asks `/health` every 5 ms.
 * Two modes, rounds interleaved:
 *   here      PARSE_THREADS=0: the covering's plan and its pages' parses on the API thread (what
 *             serve-test did before: its adapters were not the served table, so no parse thread)
 *   thread    the service's parse thread plans and parses the covering (adapter.offThread)
 * Per request: ms to its 202, to its end, the API thread's own CPU ms (its /proc counters, less what
 * it spends idle answering the probe), and /health p50 / p99 / max meanwhile. The machine's load
 * average is printed beside the figures.
 * AREA (default US>Nevada), AREA_PLACES (default 5000), ROUNDS (default 3), WARM_MS (default 5000:
 * the check thread's warming after the service listens, so the first submit does not wait for it).
 * MODE=here|thread runs one mode; PROF_DIR=<dir> starts each service with --cpu-prof there.
 * Run: node bin/run-ts.js bench/area-plan.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, procCpuMs, sleep, startProcess, stop, table } from './lib.ts';
import { healthCells, startProbe } from './responsive-lib.ts';
import { mapSite } from '../test/support/map-site.ts';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';

const AREA = process.env.AREA ?? 'US>Nevada';
const PLACES = Number(process.env.AREA_PLACES ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARM_MS = Number(process.env.WARM_MS ?? 5000);
const modes: Array<[string, Record<string, string>]> = [['here', { PARSE_THREADS: '0' }], ['thread', { PARSE_THREADS: '1' }]].filter(([m]) => !process.env.MODE || m === process.env.MODE) as Array<[string, Record<string, string>]>;

const area = resolveArea(AREA);
const site = mapSite({ area, places: PLACES, seed: 1 });
const http = await site.listen();
const la = () => loadavg().map((x) => x.toFixed(1)).join(' ');

interface Cell { accept: number; end: number; cpu: number; health: number[] }
const cells = new Map<string, Cell[]>();

async function round(mode: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-area-plan-'));
  const s = await startProcess([...(process.env.PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF_DIR}`] : []), 'bin/run-ts.js', 'test/support/serve-test.ts'], { DATA_DIR: dir, PORT: '0', MAP_SITE_URL: http.url, ALLOW_PRIVATE_TARGETS: 'true', ...env });
  const probe = await startProbe(`${s.info.url}/health`);
  const cpu = () => procCpuMs(s.info.pid).main;
  const get = async (path: string) => (await fetch(`${s.info.url}${path}`, { headers: { 'x-api-key': s.info.key } })).json() as Promise<any>;
  try {
    await sleep(WARM_MS);
    let c0 = cpu(), t0 = performance.now();
    await probe.measure(() => sleep(1_000));
    const idleRate = (cpu() - c0) / (performance.now() - t0);
    for (const [k, q] of [['first', 'dentist'], ['second', 'bakery']] as const) {
      let accept = 0, end = 0;
      c0 = cpu();
      t0 = performance.now();
      const health = await probe.measure(async () => {
        const sub = await get(`/maps/search?query=${q}&limit=1000000&area=${encodeURIComponent(AREA)}`);
        accept = performance.now() - t0;
        for (;;) {
          const r = await get(`/requests/${sub.id}`);
          if (r.status === 'Success' || r.status === 'Failure') break;
          await sleep(100);
        }
        end = performance.now() - t0;
      });
      const api = Math.max(0, cpu() - c0 - idleRate * (performance.now() - t0));
      const key = `${mode}|${k}`;
      cells.set(key, [...(cells.get(key) ?? []), { accept, end, cpu: api, health }]);
      console.log(`${mode} ${k}: 202 in ${accept.toFixed(0)} ms, end ${end.toFixed(0)} ms, API thread CPU ${api.toFixed(0)} ms, /health p50/p99/max ${healthCells(health).join(' / ')} ms (load ${la()})`);
    }
  } finally {
    probe.close();
    await stop(s.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const load0 = la();
for (let r = 0; r < ROUNDS; r++) for (const [mode, env] of modes) await round(mode, env);
await http.close();
const rows = [...cells].map(([key, xs]) => {
  const [mode, k] = key.split('|');
  const all = xs.flatMap((x) => x.health);
  return [mode!, k!, median(xs.map((x) => x.accept)).toFixed(0), median(xs.map((x) => x.end)).toFixed(0), median(xs.map((x) => x.cpu)).toFixed(0),
    xs.map((x) => Math.max(...x.health).toFixed(0)).join(' / '), ...healthCells(all).slice(0, 2)];
});
console.log(`\n${AREA}, ${PLACES} places on the site, ${ROUNDS} rounds; load average ${load0} at the start, ${la()} at the end\n`);
console.log(table(['mode', 'request', '202 ms (median)', 'end ms (median)', 'API thread CPU ms (median)', '/health max per round', '/health p50', '/health p99'], rows));
