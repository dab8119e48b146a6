/**
 * contacts_n_leads bench: the contacts of N places (default 1,000), each with its own constructed
 * website on loopback (its own address 127.1.x.y, so per-host limits apply per site as on the web),
 * fetched through the real executor with the operator switch that allows private targets. Every
 * response (pages and robots.txt) waits BENCH_SERVICE_MS (default 100 ms) before it is sent: the
 * injected service time. Each site has a home page linking four likely pages; CONTACTS_MAX_PAGES
 * (3) of them are read.
 *
 * The bound: a site's likely pages are links of its home page, so a site needs at least
 *   rounds = 1 (home, with robots.txt beside it) + ceil(maxPages / perHostConcurrency)
 * service times, and places are enriched PLACES_AT_ONCE at a time, so
 *   bound = ceil(N / PLACES_AT_ONCE) × rounds × service time.
 * (The throughput form, requests × service time / requests in flight, is lower but not reachable:
 * in the home round a site has one page to fetch whatever the limits allow.)
 *
 * Baseline in the same run: a bare undici client doing the same schedule (home and robots.txt,
 * then the likely pages at once, PLACES_AT_ONCE sites at a time), no parsing: the floor this box
 * reaches for the bound's schedule.
 *
 * Run: node bin/run-ts.js bench/contacts.bench.ts  (BENCH_SITES, BENCH_SERVICE_MS, BENCH_REPS)
 * One file, three roles (--role=server|client); the default role orchestrates.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { median, writeSection } from './lib.ts';

const SELF = fileURLToPath(import.meta.url);
const args = Object.fromEntries(process.argv.slice(2).map((s) => s.replace(/^--/, '').split('=')));
const role = args.role ?? 'main';
const SITES = Number(process.env.BENCH_SITES ?? 1000);
const SERVICE_MS = Number(process.env.BENCH_SERVICE_MS ?? 100);
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** The defaults the service runs with (src/enrich/index.ts, src/fetch/settings.ts). */
const MAX_PAGES = 3;
const PLACES_AT_ONCE = 8;
const PER_HOST = 10;

/** Site i's address: its own loopback IP (Linux answers on all of 127/8). */
const addressOf = (i: number) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** Constructed pages of site i: a home page linking contact, imprint, team and about pages. */
function sitePages(i: number): Record<string, string> {
  const filler = `<p>${'Fresh coffee, pastries and light lunches every day. '.repeat(40)}</p>`;
  const nav = '<nav><a href="/">Home</a> <a href="/menu">Menu</a> <a href="/contact">Contact</a> <a href="/impressum">Impressum</a> <a href="/team">Team</a> <a href="/about-us">About us</a></nav>';
  return {
    '/': `<!doctype html><html><head><title>Cafe ${i}</title><meta name="generator" content="WordPress 6.4"></head><body>${nav}
      <h1>Cafe ${i}</h1>${filler}<p>Call us: <a href="tel:+302101${String(i).padStart(6, '0')}">210 1${String(i).padStart(6, '0')}</a></p>
      <a href="https://www.facebook.com/cafe${i}">Facebook</a> <a href="https://www.instagram.com/cafe${i}/">Instagram</a></body></html>`,
    '/contact': `<!doctype html><html><body>${nav}<h1>Contact</h1>${filler}<p>Write to info [at] cafe${i} [dot] test or
      <a href="mailto:orders@cafe${i}.test">orders</a>.</p></body></html>`,
    '/impressum': `<!doctype html><html><body>${nav}<h1>Impressum</h1><p>Cafe ${i} GmbH, owner@cafe${i}.test</p>${filler}</body></html>`,
    '/team': `<!doctype html><html><body>${nav}<div class="team"><div class="team-member"><h3>Anna ${i}</h3><p class="role">Owner</p>
      <a href="mailto:anna@cafe${i}.test">mail</a></div><div class="team-member"><h3>Ben ${i}</h3><p class="role">Barista</p></div></div>${filler}</body></html>`,
    '/about-us': `<!doctype html><html><body>${nav}<h1>About</h1>${filler}</body></html>`,
    '/robots.txt': 'User-agent: *\nDisallow: /private\n',
  };
}

// ---------------------------------------------------------------- server role
async function server(): Promise<void> {
  let requests = 0;
  const urls: string[] = [];
  for (let i = 0; i < SITES; i++) {
    const pages = sitePages(i);
    const srv = http.createServer((req, res) => {
      if (req.url === '/__stats') { res.end(String(requests)); requests = 0; return; }
      requests++;
      const body = pages[(req.url ?? '/').split('?')[0]];
      setTimeout(() => {
        if (body === undefined) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found'); return; }
        res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, SERVICE_MS);
    });
    srv.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => srv.listen(0, addressOf(i), r));
    urls.push(`http://${addressOf(i)}:${(srv.address() as { port: number }).port}/`);
  }
  process.stdout.write(`${JSON.stringify({ urls })}\n`);
  process.on('SIGTERM', () => process.exit(0));
}

// ---------------------------------------------------------------- client role
async function client(): Promise<void> {
  const urls: string[] = JSON.parse(args.urls ? Buffer.from(args.urls, 'base64').toString() : '[]');
  let heapPeak = 0;
  const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size); }, 50);
  let pages = 0;
  let ok = 0;
  // Module loading (and the phone data the first page needs) is start-up, not per-place work.
  const { request } = await import('undici');
  const { Executor } = await import('../src/fetch/executor.ts');
  const { executorSettingsFromEnv } = await import('../src/fetch/settings.ts');
  const { enrichRecords } = await import('../src/enrich/index.ts');
  const { extractPage } = await import('../src/enrich/contacts/extract.ts');
  const { contactFields } = await import('../src/enrich/contacts/fields.ts');
  contactFields({ status: 'reachable', finalUrl: null, error: null, pages: [{ url: 'http://127.0.0.1/', html: '', facts: extractPage('<a href="tel:+302101000000">x</a> a@b.test', 'http://127.0.0.1/', 'GR') }] });
  let close = async () => {};
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  if (args.mode === 'undici') {
    const get = async (u: string) => { const r = await request(u); await r.body.text(); pages++; return r.statusCode; };
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const home = urls[next++];
        await Promise.all([get(home), get(new URL('/robots.txt', home).href)]);
        const s = await Promise.all(['/contact', '/impressum', '/team'].map((p) => get(new URL(p, home).href)));
        if (s.every((x) => x === 200)) ok++;
      }
    };
    await Promise.all(Array.from({ length: PLACES_AT_ONCE }, worker));
  } else {
    // As src/service/start.ts builds and calls it, with the operator switch for loopback sites on.
    const ex = new Executor({ ...executorSettingsFromEnv({ ALLOW_PRIVATE_TARGETS: 'true' }) }, {
      onEvent: (e) => { if (e.type === 'request') pages++; },
    });
    const never = new AbortController().signal;
    setMaxListeners(0, never); // as src/service/start.ts's NEVER
    const places = urls.map((site, i) => ({ place_id: `p${i}`, name: `Cafe ${i}`, site, country_code: 'GR' }));
    await enrichRecords('/maps/search', places, { enrichment: ['contacts_n_leads'] }, {}, (step) => ex.run(step, ex.sessionFor('enrichment'), never));
    // The work was done: each place has its four own addresses, a named contact and both profiles.
    for (const p of places as Record<string, unknown>[]) {
      if (p.site_status === 'reachable' && p.email_4 && (p.contacts as unknown[]).length === 2 && p.instagram && p.phone_1) ok++;
    }
    close = () => ex.close();
  }
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await close(); // closing 2,000 idle connections is shutdown, not enrichment
  clearInterval(sampler);
  heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size);
  console.log(JSON.stringify({ mode: args.mode, secs: +secs.toFixed(2), pages, ok, cpuMsPerPage: +((cpu.user + cpu.system) / 1000 / pages).toFixed(2), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), heapMB: Math.round(heapPeak / 2 ** 20) }));
}

// ---------------------------------------------------------------- orchestration
function run(a: string[]): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ['bin/run-ts.js', SELF, ...a], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`${a.join(' ')} exited ${c}`)));
  });
  return { child, line };
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0].toFixed(1);
  const srv = run(['--role=server']);
  const { urls } = JSON.parse(await srv.line) as { urls: string[] };
  const enc = Buffer.from(JSON.stringify(urls)).toString('base64');
  const rounds = 1 + Math.ceil(MAX_PAGES / PER_HOST);
  const bound = (Math.ceil(SITES / PLACES_AT_ONCE) * rounds * SERVICE_MS) / 1000;
  const res: Record<string, any[]> = { undici: [], trawl: [] };
  for (let r = 0; r < REPS; r++) {
    for (const mode of ['undici', 'trawl']) {
      const c = run(['--role=client', `--mode=${mode}`, `--urls=${enc}`]);
      const out = JSON.parse(await c.line);
      await new Promise((ok) => c.child.once('exit', ok));
      console.log(JSON.stringify(out));
      res[mode].push(out);
    }
  }
  srv.child.kill('SIGTERM');
  const load = os.loadavg().map((x) => x.toFixed(1)).join(', ');
  const med = (m: string, k: string) => median(res[m].map((x) => x[k]));
  const t = med('trawl', 'secs');
  const u = med('undici', 'secs');
  const pages = med('trawl', 'pages');
  const lines = [
    '# contacts_n_leads: website contacts of many places',
    '',
    `${SITES} places, each with its own constructed site on loopback (own 127.1.x.y address), every response delayed ${SERVICE_MS} ms;`,
    `home page + robots.txt + ${MAX_PAGES} likely pages per site (per-host concurrency ${PER_HOST}, ${PLACES_AT_ONCE} places at once, the service defaults).`,
    `Bound = ceil(${SITES} / ${PLACES_AT_ONCE}) × ${rounds} rounds × ${SERVICE_MS} ms = ${bound.toFixed(2)} s (a site's likely pages are links of its home page: one round for`,
    'the home page with robots.txt beside it, then the likely pages at once). Baseline: bare undici doing the same schedule, no parsing.',
    `Medians of ${REPS} interleaved runs; load average (1 min) ${loadStart} at the start, ${load} (1, 5, 15 min) at the end, on 2 cores.`,
    '',
    '| client | wall s | / bound | pages/s | CPU ms/page | places complete | peak RSS MB | peak heap MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| trawl (executor + contacts extraction) | ${t.toFixed(2)} | ${(t / bound).toFixed(2)}× | ${Math.round(pages / t)} | ${med('trawl', 'cpuMsPerPage')} | ${med('trawl', 'ok')} / ${SITES} | ${med('trawl', 'rssMB')} | ${med('trawl', 'heapMB')} |`,
    `| undici, same schedule (baseline) | ${u.toFixed(2)} | ${(u / bound).toFixed(2)}× | ${Math.round(med('undici', 'pages') / u)} | ${med('undici', 'cpuMsPerPage')} | ${med('undici', 'ok')} / ${SITES} | ${med('undici', 'rssMB')} | ${med('undici', 'heapMB')} |`,
    '',
    `trawl / undici: ${(t / u).toFixed(2)}×. The schedule is the bound's (two round trips a site, test in`,
    'src/enrich/contacts/contacts.test.ts); what is left above it is CPU: pages × CPU ms/page has to fit in the bound on the',
    "CPU share the box's other load leaves this process, and the undici row shows how far the box itself is from the bound.",
  ];
  console.log(lines.join('\n'));
  writeSection('docs/performance/contacts.md', lines.join('\n'));
}

if (role === 'server') await server();
else if (role === 'client') await client();
else await main();
