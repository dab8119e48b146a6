/**
 * `trawl run --file` with more queries than one request takes (issue 38: 4,000 lines were a 422,
 * 20,000 a 431): the file goes as parts within the limits, one progress, one merged output in the
 * order of the lines. Over HTTP against a real `trawl serve` (phone lookups: no network), with
 * 20,000 lines; against a server with a short request target (MAX_TARGET_BYTES), whose 414s halve
 * the parts; and the merge itself (a part that fails) with a client answering from memory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type Served } from './support/serve-real.ts';
import { partsOf, runParts, PART_QUERY_BYTES } from '../src/cli/client/parts.ts';
import type { TrawlClient } from '../clients/typescript/src/client.ts';

interface Ran { code: number | null; out: string; err: string }
function trawl(args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** Distinct valid German mobile numbers, in a known order. */
const phones = (n: number) => Array.from({ length: n }, (_, i) => `+49151${String(10_000_000 + i * 37)}`);

let dir: string;
before(() => { dir = mkdtempSync(join(tmpdir(), 'trawl-run-parts-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

test('parts: in order, at most 1000 queries and the byte budget each; a query longer than the budget alone', () => {
  const qs = phones(2_500);
  const parts = partsOf(qs);
  assert.deepEqual(parts.map((p) => p.length), [1000, 1000, 500]);
  assert.deepEqual(parts.flat(), qs);
  const long = 'x'.repeat(3000);
  const byBytes = partsOf(['a', long, 'b', 'c'], { maxBytes: 2000 });
  assert.deepEqual(byBytes, [['a'], [long], ['b', 'c']]);
  // Percent-encoding counts: 500 queries of 100 bytes that encode to 300 bytes each.
  const wide = Array.from({ length: 500 }, (_, i) => `${'é'.repeat(50)}${i}`);
  for (const p of partsOf(wide)) assert.ok(p.reduce((n, q) => n + new URLSearchParams({ query: q }).toString().length + 1, 0) <= PART_QUERY_BYTES);
  assert.ok(partsOf(wide).length > 1);
  assert.deepEqual(partsOf([]), []);
});

test('merge: a part that ends in Failure keeps its place (empty results), the others in order', async () => {
  const qs = Array.from({ length: 7 }, (_, i) => `q${i}`);
  const parts = partsOf(qs, { maxQueries: 3 });
  let n = 0;
  const byId = new Map<string, string[]>();
  const polls = new Map<string, number>();
  // Answers from memory: part 2 (q3..q5) fails; each part is pending on its first look.
  const client = {
    async submit(_p: string, queries: string[]) { const id = `r${n++}`; byId.set(id, queries); return { id, status: 'Pending' }; },
    async requests() { return []; },
    async state(id: string) {
      const seen = (polls.get(id) ?? 0) + 1;
      polls.set(id, seen);
      const q = byId.get(id)!;
      if (seen === 1) return { id, status: 'Pending', progress: { queries_total: q.length, queries_done: 1, records: 1 } };
      if (q.includes('q3')) return { id, status: 'Failure', data: [], errors: [], reason: 'blocked: test' };
      return { id, status: 'Success', data: q.map((x) => [{ query: x }]), errors: [] };
    },
  } as unknown as TrawlClient;
  const seen: number[] = [];
  const r = await runParts(client, '/directory-phones', parts, {}, { pollMs: 1, window: 2, onProgress: (p) => seen.push(p.queries_done) });
  assert.deepEqual(r.data.map((q) => (q[0] as { query?: string } | undefined)?.query ?? null), ['q0', 'q1', 'q2', null, null, null, 'q6']);
  assert.deepEqual(r.failed, [{ id: 'r1', first: 3, queries: 3, reason: 'blocked: test' }]);
  assert.deepEqual(r.ids, ['r0', 'r1', 'r2']);
  assert.equal(seen.at(-1), 7);
  assert.ok(seen.every((v, i) => i === 0 || v >= seen[i - 1]!), `progress never goes back: ${seen}`);
});

describe('over HTTP', () => {
  let s: Served;
  before(async () => { s = await startServe(); });
  after(async () => { await s?.close(); });

  test('20,000 lines: 20 requests, one progress, every line\'s result once and in order, exit 0', { timeout: 600_000 }, async () => {
    const qs = phones(20_000);
    const file = join(dir, 'phones.txt');
    writeFileSync(file, `${qs.join('\n')}\n`);
    const out = join(dir, 'phones.json');
    const r = await trawl(['run', '/directory-phones', '--file', file, '--out', out], { TRAWL_API_KEY: s.key, TRAWL_URL: s.url });
    assert.equal(r.code, 0, r.err.slice(-2000));
    const lines = r.err.trim().split('\n');
    assert.match(lines[0]!, /^20000 queries are more than one request takes .*sent as 20 requests/);
    const progress = lines.filter((l) => /^\d+% \d+\/20000 queries/.test(l));
    assert.ok(progress.length >= 2, r.err);
    assert.equal(lines.filter((l) => /^100% 20000\/20000 queries · 20000 records/.test(l)).length, 1, 'one progress, ending once at the whole');
    const done = progress.map((l) => Number(/ (\d+)\/20000/.exec(l)![1]));
    assert.ok(done.every((v, i) => i === 0 || v >= done[i - 1]!), 'the progress never goes back');
    const data = JSON.parse(readFileSync(out, 'utf8')) as { query: string; e164: string }[][];
    assert.equal(data.length, 20_000);
    data.forEach((q, i) => {
      assert.equal(q.length, 1, `line ${i + 1}: one record`);
      assert.equal(q[0]!.query, qs[i], `line ${i + 1} in its place`);
      assert.equal(q[0]!.e164, qs[i]);
    });
    // Twenty requests of 1000, each billed for its own.
    const hist = await (await fetch(`${s.url}/requests?type=finished&pageSize=100`, { headers: { 'x-api-key': s.key } })).json() as { usage: string }[];
    assert.equal(hist.length, 20);
    assert.equal(hist.reduce((n, h) => n + Number(h.usage), 0), 20_000);
  });
});

describe('a server with a short request target', () => {
  let s: Served;
  before(async () => { s = await startServe({ MAX_TARGET_BYTES: '8192' }); });
  after(async () => { await s?.close(); });

  test('its 414s halve the parts; the merged csv has one header and every line once, in order', { timeout: 300_000 }, async () => {
    const qs = phones(1_500);
    const file = join(dir, 'short.txt');
    writeFileSync(file, qs.join('\n'));
    const out = join(dir, 'short.csv');
    const r = await trawl(['run', '/directory-phones', '--file', file, '--out', out], { TRAWL_API_KEY: s.key, TRAWL_URL: s.url });
    assert.equal(r.code, 0, r.err.slice(-2000));
    const rows = readFileSync(out, 'utf8').trim().split(/\r?\n/);
    // The query is the first column; a cell is quoted, its quotes doubled.
    const first = (l: string) => { const m = /^"((?:[^"]|"")*)"|^([^,]*)/.exec(l)!; return m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!; };
    assert.equal(first(rows[0]!), 'query', rows[0]);
    assert.equal(rows.filter((l) => l === rows[0]).length, 1, 'one header');
    assert.deepEqual(rows.slice(1).map(first).map((q) => q.replace(/^'/, '')), qs);
    const hist = await (await fetch(`${s.url}/requests?type=finished&pageSize=100`, { headers: { 'x-api-key': s.key } })).json() as { usage: string }[];
    assert.ok(hist.length >= 6, `parts of at most 8 KiB: ${hist.length} requests`);
    assert.equal(hist.reduce((n, h) => n + Number(h.usage), 0), 1_500);
  });
});
