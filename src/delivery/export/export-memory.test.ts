import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { writeExport, type ExportFormat, type Row } from './index.ts';
import { placeRow } from './test-rows.ts';

// A real gc() makes heap samples mean "still reachable", not "not yet collected". --expose-gc is
// not passed by the test runner, so turn the flag on at run time (Node allows it for this flag).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

// The brief's 200k for the streaming formats; parquet reads twice and encodes in row groups of
// 10k, so 100k rows (10 groups) show the bound at half the run time.
const ROWS: Record<ExportFormat, number> = { csv: 200_000, json: 200_000, xlsx: 200_000, parquet: 100_000 };
const SAMPLE_EVERY = 12_500;
// 200k place rows are ~200 MB as objects and ~160 MB as text; holding them would blow far past this.
const BOUND_MB = 48;

const dir = await mkdtemp(join(tmpdir(), 'trawl-export-mem-'));
test.after(() => rm(dir, { recursive: true, force: true }));

function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

async function tempSize(sub: string): Promise<number> {
  const tmp = (await readdir(sub)).find((n) => n.endsWith('.tmp'));
  return tmp ? (await stat(join(sub, tmp))).size : -1;
}

for (const format of ['csv', 'json', 'xlsx', 'parquet'] as ExportFormat[]) {
  test(`${format}: ${ROWS[format].toLocaleString('en-US')} rows stream with bounded memory, the file growing while rows are still produced`, async () => {
    const sub = await mkdtemp(join(dir, `${format}-`));
    // Let the previous test's streams finish closing and free their buffers before the baseline.
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    // Growth = highest minus lowest gc'd sample (the baseline included): external memory a previous
    // test's zlib streams still held at the baseline is freed during this one, so "minus baseline"
    // alone could under-read.
    let low = used();
    let high = low;
    let sizes: number[] = [];
    // Async and lazy, like a database cursor: each row exists only until the writer has used it.
    async function* rows(): AsyncGenerator<Row> {
      sizes = []; // parquet: keep the write pass's samples
      for (let i = 0; i < ROWS[format]; i++) {
        if (i > 0 && i % SAMPLE_EVERY === 0) {
          gc();
          const u = used();
          low = Math.min(low, u);
          high = Math.max(high, u);
          sizes.push(await tempSize(sub));
        }
        yield placeRow(i);
      }
    }
    // Explicit columns: one pass, as the engine does with a task's output_columns (parquet spools
    // to learn types; its spool is a file too, so memory stays bounded all the same).
    const columns = Object.keys(placeRow(0));
    // parquet reads twice either way; a factory makes both passes lazy so the write pass is sampled too.
    const source = format === 'parquet' ? rows : rows();
    const t0 = performance.now();
    const res = await writeExport(format, source, join(sub, `out.${format}`), { columns, rowGroupSize: 10_000 });
    const secs = (performance.now() - t0) / 1000;
    assert.equal(res.rows, ROWS[format]);
    const mb = (high - low) / 2 ** 20;
    assert.ok(mb < BOUND_MB, `${format}: reachable memory grew by ${mb.toFixed(1)} MB while writing (bound ${BOUND_MB} MB)`);
    {
      assert.ok(sizes[1] > 0, `${format}: the temp file exists mid-stream (${sizes.join(', ')})`);
      for (let k = 2; k < sizes.length; k++) assert.ok(sizes[k] > sizes[k - 1], `${format}: file grows mid-stream (${sizes.join(', ')})`);
    }
    console.log(`# ${format}: peak reachable growth ${mb.toFixed(1)} MB, file ${(res.bytes / 2 ** 20).toFixed(1)} MB, ${secs.toFixed(1)} s`);
  });
}
