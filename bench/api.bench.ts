/**
 * API benchmarks (issue: platform core), each against a baseline measured in the same run:
 *  1. async submit of 1-query requests vs a bare Fastify server answering a small JSON (same framework);
 *  2. GET /requests/{id} of a finished 1-query result;
 *  3. engine overhead: queries/s end to end with an instantaneous test adapter;
 *  4. GET /requests/{id} of a 1000-query x 500-record result: streamed, peak RSS above idle, time vs
 *     JSON.stringify of the same data.
 * Servers run as separate processes on loopback; autocannon drives them from this process, on the
 * same 2 cores: each comparison is given by requests/s and by server CPU per request.
 * Run: node bin/run-ts.js bench/api.bench.ts [--write]  (REPS=3 by default). With --write, writes docs/performance/api-last-run.md
 * (docs/performance/api.md keeps the quoted runs and their reading).
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { median, procCpuMs, rssKb, sleep, startProcess, stop, table, writeSection } from './lib.ts';

const REPS = Number(process.env.REPS ?? 3);
const DURATION = Number(process.env.DURATION ?? 5);

/**
 * One autocannon run against the server process `pid`. autocannon runs in this process and shares
 * the 2 cores with the server, so requests/s alone undercounts a server that needs less CPU: its
 * CPU per request (all threads, from /proc) is measured over the same run.
 */
async function cannon(pid: number, url: string, headers: Record<string, string>, requests?: autocannon.Request[]) {
  const c0 = procCpuMs(pid).all;
  const r = await autocannon({ url, connections: 50, pipelining: 1, duration: DURATION, headers, requests });
  const usPerReq = ((procCpuMs(pid).all - c0) * 1000) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, usPerReq, non2xx: r.non2xx, errors: r.errors };
}

const BARE = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/maps/search', async (req, reply) => reply.code(202).send({ id: '00000000-0000-4000-8000-000000000000', status: 'Pending', results_location: 'http://x/requests/0' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(JSON.stringify({ url }) + '\\n');
process.on('SIGTERM', () => process.exit(0));
`;

async function main() {
  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-'));
  try {
    for (let rep = 1; rep <= REPS; rep++) {
      // 1. bare framework baseline, then trawl's submit (API only, and API with workers).
      const bare = await startProcess(['--input-type=module', '-e', BARE], {});
      const b = await cannon(bare.child.pid!, `${bare.info.url}/maps/search?query=x`, {});
      add('bare', b.rps);
      add('bare cpu', b.usPerReq);
      await stop(bare.child);
      for (const workers of [false, true]) {
        const d = join(dir, `submit-${rep}-${workers}`);
        const s = await startProcess(['bin/run-ts.js', 'test/support/serve-test.ts'], { DATA_DIR: d, PORT: '0', NO_WORKERS: workers ? '' : '1', CONCURRENCY: '16' });
        const r = await cannon(s.child.pid!, `${s.info.url}/maps/search?query=n%3D1`, { 'x-api-key': s.info.key });
        if (r.non2xx) throw new Error(`submit answered ${r.non2xx} non-2xx`);
        add(workers ? 'submit+workers' : 'submit', r.rps);
        add(workers ? 'submit+workers cpu' : 'submit cpu', r.usPerReq);
        await stop(s.child);
      }
      // 2 and 3: one server with workers.
      const d = join(dir, `engine-${rep}`);
      const s = await startProcess(['bin/run-ts.js', 'test/support/serve-test.ts'], { DATA_DIR: d, PORT: '0', CONCURRENCY: '32' });
      const h = { 'x-api-key': s.info.key };
      const one = await (await fetch(`${s.info.url}/maps/search?query=n%3D1&async=false`, { headers: h })).json() as { id: string };
      const got = await cannon(s.child.pid!, `${s.info.url}/requests/${one.id}`, h);
      if (got.non2xx) throw new Error('GET answered non-2xx');
      add('get', got.rps);
      add('get cpu', got.usPerReq);
      const qs = Array.from({ length: 1000 }, (_, i) => `query=n%3D1%3Bi%3D${i}`).join('&');
      const t0 = performance.now();
      const reqs = await Promise.all(Array.from({ length: 4 }, async () => (await (await fetch(`${s.info.url}/maps/search?${qs}`, { headers: h })).json() as { id: string }).id));
      for (const id of reqs) {
        for (;;) {
          const r = await fetch(`${s.info.url}/requests/${id}`, { headers: h });
          const b = await r.json() as { status: string };
          if (b.status === 'Success') break;
          await sleep(20);
        }
      }
      add('engine q/s', 4000 / ((performance.now() - t0) / 1000));
      await stop(s.child);
    }

    // 4. a 1000 x 500 result, streamed.
    const big = join(dir, 'big');
    const store = await openSqliteStore(join(big, 'trawl.db'));
    await store.createAccount({ id: 'bench', name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
    const record = (q: number, i: number) => ({ query: `q${q}`, name: `Place ${q}-${i}`, place_id: `ChIJ${q}x${i}`, engine_id: `0x${q.toString(16)}:0x${i.toString(16)}`, full_address: '12 Example Street, Athens 105 57, Greece', latitude: 37.97 + i / 1e4, longitude: 23.72 + q / 1e4, rating: 4.5, reviews: 120 + i, phone: '+30 21 0000 0000', site: 'https://example.com/', category: 'Coffee shop', subtypes: 'Coffee shop, Cafe', working_hours: { Monday: '8AM-8PM', Tuesday: '8AM-8PM' }, business_status: 'OPERATIONAL' });
    await store.createRequest({ id: 'big-request', accountId: 'bench', endpoint: '/maps/search', params: {}, queries: Array.from({ length: 1000 }, (_, i) => `q${i}`), webhook: null, product: 'p', unit: 'place', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
    const items = await store.claimItems('bench', 1000, 3_600_000, Date.now());
    const data: unknown[] = [];
    for (const it of items) {
      const recs = Array.from({ length: 500 }, (_, i) => record(it.queryIndex, i));
      data[it.queryIndex] = recs;
      await store.completeItem({ itemId: it.id, owner: 'bench', recordsJson: JSON.stringify(recs), count: 500, now: Date.now() });
    }
    await store.close();
    const stringifyMs: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      JSON.stringify({ id: 'big-request', status: 'Success', data });
      stringifyMs.push(performance.now() - t);
    }
    data.length = 0;
    const s = await startProcess(['bin/run-ts.js', 'test/support/serve-test.ts'], { DATA_DIR: big, PORT: '0', NO_WORKERS: '1' });
    // A key for the bench account: serve-test made its own account; use the same key against the big request by ownership.
    const db = await openSqliteStore(join(big, 'trawl.db'));
    db.db.prepare('UPDATE requests SET account_id = (SELECT account_id FROM api_keys LIMIT 1)').run();
    await db.close();
    await fetch(`${s.info.url}/health`);
    await sleep(500);
    const idle = rssKb(s.child.pid!, 'VmRSS');
    const getMs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      const res = await fetch(`${s.info.url}/requests/big-request`, { headers: { 'x-api-key': s.info.key } });
      bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      getMs.push(performance.now() - t);
    }
    const peak = rssKb(s.child.pid!, 'VmHWM');
    await stop(s.child);

    const m = (k: string) => median(rows[k]);
    // Each repetition measures trawl right after its own baseline; the paired ratio per repetition
    // cancels drift of the shared machine better than a ratio of medians (both are shown).
    const paired = (k: string) => median(rows[k].map((v, i) => v / rows.bare[i]));
    const pct = (k: string) => `${(paired(k) * 100).toFixed(0)} % (paired; ${(m(k) / m('bare') * 100).toFixed(0)} % of medians)`;
    // By server CPU: bare Fastify's CPU per request over trawl's (the share of trawl's per-request
    // cost that the framework alone takes), paired per repetition.
    const cpuPct = (k: string) => `${(median(rows[`${k} cpu`].map((v, i) => rows['bare cpu'][i] / v)) * 100).toFixed(0)} %`;
    const cpuLine = (k: string, what: string) => [`  server CPU per request, ${what}`, `${m(`${k} cpu`).toFixed(0)} us`, `bare Fastify ${m('bare cpu').toFixed(0)} us`, cpuPct(k), ''];
    const lines = [
      ['async submit, 1-query requests (API only)', `${m('submit').toFixed(0)} req/s`, `bare Fastify ${m('bare').toFixed(0)} req/s`, pct('submit'), '>= 2,000 req/s and >= 25 %'],
      cpuLine('submit', 'submit (API only)'),
      ['async submit, with in-process workers running the queries', `${m('submit+workers').toFixed(0)} req/s`, `bare Fastify ${m('bare').toFixed(0)} req/s`, pct('submit+workers'), ''],
      cpuLine('submit+workers', 'submit with workers (their CPU included)'),
      ['GET /requests/{id}, finished 1-query result', `${m('get').toFixed(0)} req/s`, `bare Fastify ${m('bare').toFixed(0)} req/s`, pct('get'), '>= 5,000 req/s'],
      cpuLine('get', 'GET'),
      ['engine, instantaneous adapter, 4 x 1000 queries end to end', `${m('engine q/s').toFixed(0)} queries/s`, '', '', '>= 2,000 queries/s'],
      ['GET of a 1000 x 500 result (streamed)', `${median(getMs).toFixed(0)} ms, ${(bytes / 1e6).toFixed(0)} MB`, `JSON.stringify ${median(stringifyMs).toFixed(0)} ms`, `${(median(getMs) / median(stringifyMs)).toFixed(2)} x`, '<= 2 x'],
      ['  peak RSS above idle during that GET', `${((peak - idle) / 1024).toFixed(0)} MB`, `idle ${(idle / 1024).toFixed(0)} MB`, '', '< 300 MB'],
    ];
    const md = table(['measure', 'trawl (median)', 'baseline (same run)', 'ratio', 'target'], lines);
    console.log(md);
    console.log(`raw: ${JSON.stringify({ ...rows, stringifyMs, getMs })}`);
    writeSection('docs/performance/api-last-run.md', `# API benchmarks\n\n\`node bin/run-ts.js bench/api.bench.ts\`, ${REPS} interleaved repetitions, ${DURATION} s autocannon runs with 50 connections, servers in their own processes on loopback, medians; load average ${loadavg().map((x) => x.toFixed(1)).join(', ')} at the end. autocannon runs in the bench process and shares the 2 cores with the server, so each ratio is given by requests/s and by the server's CPU per request (user + system of the server process, all threads, from /proc, over the same run).\n\n${md}\n\nRaw: \`${JSON.stringify({ ...rows, stringifyMs: stringifyMs.map(Math.round), getMs: getMs.map(Math.round) })}\`\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
