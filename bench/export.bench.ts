/**
 * Export files: rows/s of writeExport per format for place-like rows, and of readExportAsJson
 * (convertFileResult) reading them back. Baseline, measured in the same run: JSON.stringify of
 * every row (no I/O) — the least any format can cost.
 *
 *   node bin/run-ts.js bench/export.bench.ts            # 100,000 rows, 3 write runs per format
 *   BENCH_READ=1 node bin/run-ts.js bench/export.bench.ts   # also time reading back (about doubles the run)
 *   BENCH_ROWS=20000 BENCH_RUNS=5 node bin/run-ts.js bench/export.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { exportFormats, readExportAsJson, writeExport, type ExportFormat } from '../src/delivery/export/index.ts';
import { placeRow } from '../src/delivery/export/test-rows.ts';
import { median } from './lib.ts';

const N = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const READ = process.env.BENCH_READ === '1';
const rows = Array.from({ length: N }, (_, i) => placeRow(i));
const dir = await mkdtemp(join(tmpdir(), 'trawl-export-bench-'));

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const load0 = loadavg()[0];
const started = performance.now();
try {
  const base: number[] = [];
  let textBytes = 0;
  for (let r = 0; r < RUNS; r++) {
    base.push(await time(() => {
      let n = 0;
      for (const row of rows) n += JSON.stringify(row).length;
      textBytes = n;
    }));
  }
  const baseMs = median(base);

  const results: { format: ExportFormat; write: number; read: number; bytes: number }[] = [];
  for (const format of exportFormats) {
    const path = join(dir, `bench.${format}`);
    const write: number[] = [];
    const read: number[] = [];
    let bytes = 0;
    for (let r = 0; r < RUNS; r++) {
      write.push(await time(async () => {
        bytes = (await writeExport(format, rows, path)).bytes;
      }));
      if (READ) read.push(await time(async () => {
        let k = 0;
        for await (const _ of readExportAsJson(format, path)) k++;
        if (k !== N) throw new Error(`${format}: read ${k} rows, wrote ${N}`);
      }));
    }
    results.push({ format, write: median(write), read: READ ? median(read) : NaN, bytes });
  }

  const rps = (ms: number) => (Number.isNaN(ms) ? '–' : Math.round(N / (ms / 1000)).toLocaleString('en-US'));
  const msText = (ms: number) => (Number.isNaN(ms) ? '–' : ms.toFixed(0));
  console.log(`\nExport files, ${N.toLocaleString('en-US')} place-like rows (${(textBytes / N).toFixed(0)} B of JSON each), median of ${RUNS} runs.`);
  console.log(`Node ${process.version}, ${cpus().length} CPU(s), 1-min load average ${load0.toFixed(1)} at start.\n`);
  console.log('| format | write ms | write rows/s | × baseline time | file MB | read ms | read rows/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(`| baseline: JSON.stringify each row (no I/O) | ${baseMs.toFixed(0)} | ${rps(baseMs)} | 1.0 | ${(textBytes / 2 ** 20).toFixed(1)} | – | – |`);
  for (const r of results) {
    console.log(`| ${r.format} | ${r.write.toFixed(0)} | ${rps(r.write)} | ${(r.write / baseMs).toFixed(1)} | ${(r.bytes / 2 ** 20).toFixed(1)} | ${msText(r.read)} | ${rps(r.read)} |`);
  }
  console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s.`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
