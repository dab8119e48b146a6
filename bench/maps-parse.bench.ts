/**
 * Map parsers' throughput on the real captures: the parser (text → complete 2.3 records) against
 * bare JSON.parse of the same body (the floor: the parser cannot be faster than parsing the JSON).
 * Each row is the median of 3 runs; each run repeats the parse for ~1.5 s after a warm-up. Speeds are
 * by CPU time of this process (the dev box is shared), wall-clock speeds in brackets.
 *
 *   node bin/run-ts.js bench/maps-parse.bench.ts
 *
 * Needs FIXTURES_DIR (default ../shared/fixtures) with google-maps/ in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripXssi } from '../src/sources/_kit/xssi.ts';
import { parseSearchBody } from '../src/sources/_maps/search-body.ts';
import { extractPlaceFromHtml, parsePlaceBody } from '../src/sources/_maps/place-parse.ts';
import { appInitState } from '../src/sources/_maps/html.ts';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { median } from './lib.ts';

const dir = fixturePath('google-maps');
if (!existsSync(dir)) {
  console.error(`fixtures not found at ${dir} (set FIXTURES_DIR)`);
  process.exit(1);
}
const read = (f: string) => readFileSync(resolve(dir, f), 'utf8');
const search = ")]}'\n" + read('search_tbm-map_coffee_2024-12.json');
const placeEn = ")]}'\n" + read('place_kipriakon_en_2023-09.json');
const html = read('place_page_tipsy-sticks_2023-04.html');

const RUN_MS = 1500;
let sink = 0;

/**
 * One timed run of `fn`: MB/s by CPU time (user + system of this process, so other load on the box
 * does not count) and by wall time. 1 MB = 10^6 bytes of body text (UTF-8).
 */
function run(bytes: number, fn: () => number): { cpu: number; wall: number } {
  for (let i = 0; i < 30; i++) sink += fn();
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let el = 0;
  while (el < RUN_MS) {
    for (let i = 0; i < 10; i++) sink += fn();
    n += 10;
    el = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  const c = process.cpuUsage(c0);
  const mb = (bytes * n) / 1e6;
  return { cpu: mb / ((c.user + c.system) / 1e6), wall: mb / (el / 1000) };
}

interface Row { name: string; bytes: number; base: string; baseFn: () => number; fn: () => number }

const rows: Row[] = [
  {
    name: 'search body (20 places) → records',
    bytes: Buffer.byteLength(search),
    base: 'JSON.parse',
    baseFn: () => (JSON.parse(stripXssi(search)) as unknown[]).length,
    fn: () => parseSearchBody(search, { query: 'coffee' }).length,
  },
  {
    name: 'place body (Kipriakon en) → record',
    bytes: Buffer.byteLength(placeEn),
    base: 'JSON.parse',
    baseFn: () => (JSON.parse(stripXssi(placeEn)) as unknown[]).length,
    fn: () => (parsePlaceBody(placeEn).name ? 1 : 0),
  },
  {
    name: 'place page HTML (730 KB) → record',
    bytes: Buffer.byteLength(html),
    base: 'state literal cut + JSON.parse',
    baseFn: () => (appInitState(html) ? 1 : 0),
    fn: () => (extractPlaceFromHtml(html).name ? 1 : 0),
  },
];

const out: string[] = [];
out.push(`node ${process.version}, ${RUN_MS} ms per run, median of 3 runs; MB/s by CPU time (wall time in brackets)`);
out.push('');
out.push('| input | bytes | parser MB/s | baseline | baseline MB/s | parser / baseline |');
out.push('|---|---:|---:|---|---:|---:|');
for (const r of rows) {
  const p: Array<{ cpu: number; wall: number }> = [];
  const b: Array<{ cpu: number; wall: number }> = [];
  for (let k = 0; k < 3; k++) {
    // Interleaved so drift (thermal, other load) hits both alike.
    b.push(run(r.bytes, r.baseFn));
    p.push(run(r.bytes, r.fn));
  }
  const pc = median(p.map((x) => x.cpu));
  const bc = median(b.map((x) => x.cpu));
  const pw = median(p.map((x) => x.wall));
  const bw = median(b.map((x) => x.wall));
  out.push(`| ${r.name} | ${r.bytes} | ${pc.toFixed(1)} (${pw.toFixed(1)}) | ${r.base} | ${bc.toFixed(1)} (${bw.toFixed(1)}) | ${(pc / bc).toFixed(2)} |`);
}
console.log(out.join('\n'));
if (sink === 0.5) console.log(sink);
