/**
 * Transport benchmark: client CPU per request of the browser-true transport (wreq-js, Chrome and
 * Firefox profiles, HTTP/2) against undici (FETCH_PROFILE=node, HTTP/1.1, the baseline), both
 * through the whole `Executor.run` (sessions, headers, limits, decoding) over TLS on loopback.
 * A server process (HTTPS, h2 and http/1.1, the test kit's certificate) answers every URL with the
 * same 120 KB HTML page, gzip-compressed like a real site's; each client is a fresh process
 * measured from its own /proc counters (all threads: wreq works on native threads too); runs are
 * interleaved by repetition; medians of BENCH_REPS (default 3).
 *
 * Run: npm run bench -- transport   (BENCH_N requests per client run, default 3000; BENCH_C, default 10)
 * One file, three roles (--role=server|client); the default role orchestrates.
 */
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Executor } from '../src/fetch/executor.ts';
import type { FetchProfile } from '../src/fetch/fingerprint.ts';
import { LOOPBACK_TLS } from '../src/fetch/handshake.testkit.ts';
import { WebTransport } from '../src/fetch/impersonate.ts';
import { median, procCpuMs, startProcess, stop, table, writeSection } from './lib.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const args = Object.fromEntries(process.argv.slice(2).map((s) => s.replace(/^--/, '').split('=')));
const role = args.role ?? 'main';

/** A constructed listing page: 120 KB of ordinary markup. */
function page(): Buffer {
  const rows = Array.from({ length: 400 }, (_, i) => `<li class="r"><a href="/p/${i}">Place ${i}</a><span>${'lorem ipsum '.repeat(12)}</span></li>`);
  return Buffer.from(`<!doctype html><html><head><meta charset="utf-8"><title>list</title></head><body><ul>${rows.join('\n')}</ul></body></html>`);
}

if (role === 'server') {
  const gz = zlib.gzipSync(page());
  const server = http2.createSecureServer({ ...LOOPBACK_TLS, allowHTTP1: true }, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': String(gz.length) });
    res.end(gz);
  });
  server.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ url: `https://127.0.0.1:${a.port}` })}\n`);
  });
} else if (role === 'client') {
  const profile = args.kind as FetchProfile;
  const n = Number(args.n);
  const c = Number(args.c);
  const ex = new Executor({ allowPrivateTargets: true, fetchProfile: profile, perHostConcurrency: c, retries: 0 }, { transport: new WebTransport({ guard: { allowPrivate: true }, insecure: true }) });
  const work = async (count: number) => {
    let next = 0;
    let bytes = 0;
    await Promise.all(Array.from({ length: c }, async () => {
      while (next < count) {
        const i = next++;
        const key = `q${i % 50}`;
        const res = await ex.run({ kind: 'page', url: `${args.url}/list?i=${i}`, expect: 'html' }, ex.sessionFor(key));
        bytes += res.body.length;
      }
    }));
    return bytes;
  };
  await work(c * 20); // warm-up: connections, JIT
  const cpu0 = procCpuMs(process.pid);
  const t0 = performance.now();
  const bytes = await work(n);
  const wall = performance.now() - t0;
  const cpu1 = procCpuMs(process.pid);
  process.stdout.write(`${JSON.stringify({ cpuAll: cpu1.all - cpu0.all, cpuMain: cpu1.main - cpu0.main, wall, bytes })}\n`);
  await ex.close();
  process.exit(0);
} else {
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const n = Number(process.env.BENCH_N ?? 3000);
  const c = Number(process.env.BENCH_C ?? 10);
  const certFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-')), 'loopback.pem');
  fs.writeFileSync(certFile, LOOPBACK_TLS.cert);
  const { child: server, info } = await startProcess(['--import', 'tsx', SELF, '--role=server'], {});
  const kinds: FetchProfile[] = ['node', 'chrome', 'firefox'];
  const runs = new Map<FetchProfile, Array<{ cpuAll: number; cpuMain: number; wall: number }>>(kinds.map((k) => [k, []]));
  try {
    for (let r = 0; r < reps; r++) {
      for (const kind of kinds) {
        // undici trusts the loopback certificate through NODE_EXTRA_CA_CERTS; wreq through `insecure`.
        const { child, info: out } = await startProcess(['--import', 'tsx', SELF, '--role=client', `--kind=${kind}`, `--url=${info.url}`, `--n=${n}`, `--c=${c}`], { NODE_EXTRA_CA_CERTS: certFile });
        await new Promise((res) => child.once('exit', res));
        runs.get(kind)!.push(out);
        process.stdout.write(`rep ${r + 1} ${kind}: ${((out.cpuAll * 1000) / n).toFixed(0)} µs CPU a request (main thread ${((out.cpuMain * 1000) / n).toFixed(0)}), ${((n * 1000) / out.wall).toFixed(0)} requests/s\n`);
      }
    }
  } finally {
    await stop(server);
    fs.rmSync(path.dirname(certFile), { recursive: true, force: true });
  }
  const med = (k: FetchProfile, f: 'cpuAll' | 'cpuMain' | 'wall') => median(runs.get(k)!.map((x) => x[f]));
  const base = med('node', 'cpuAll');
  const rows = kinds.map((k) => [
    k === 'node' ? 'undici (FETCH_PROFILE=node, HTTP/1.1) — baseline' : `wreq-js ${k} profile (HTTP/2)`,
    ((med(k, 'cpuAll') * 1000) / n).toFixed(0),
    ((med(k, 'cpuMain') * 1000) / n).toFixed(0),
    ((n * 1000) / med(k, 'wall')).toFixed(0),
    `${(med(k, 'cpuAll') / base).toFixed(2)}×`,
  ]);
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  const text = [
    '# Transport: browser-true (wreq-js) against undici',
    '',
    `\`npm run bench -- transport\`: ${n} requests a run through \`Executor.run\`, ${c} at once, 50 sessions, TLS on loopback, a 120 KB HTML page gzip-compressed; client CPU of all threads from /proc; median of ${reps} interleaved runs; load average at the end ${load} (a shared, noisy box).`,
    '',
    table(['client', 'CPU µs / request (all threads)', 'main thread µs', 'requests/s', 'CPU vs undici'], rows),
    '',
    'Target (issue 25): the browser-true transport within 1.5× undici\'s CPU per request.',
  ].join('\n');
  writeSection(path.join(ROOT, 'docs/performance/transport.md'), text);
  process.stdout.write(`${text}\n`);
  process.stdout.write(`${JSON.stringify({ n, c, undici_us: (base * 1000) / n, chrome_ratio: med('chrome', 'cpuAll') / base, firefox_ratio: med('firefox', 'cpuAll') / base })}\n`);
}
