/**
 * The API's command-line client (`trawl run | wait | requests | tasks | balance | cancel`) against a
 * real `trawl serve`: real records from reverse geocoding and phone lookups (no network needed),
 * every output format, progress lines, resuming, and each documented exit code. Failure and
 * cancellation use the test adapter's server (test/support/serve-test.ts), whose queries say how
 * they end.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type Served } from './support/serve-real.ts';
import { startTrawl, stopTrawl, type TrawlProc } from './support/cluster.ts';
import { progressLine } from '../src/cli/client/progress.ts';
import { parseClientArgs } from '../src/cli/client/args.ts';

interface Ran { code: number | null; out: string; err: string }
function trawl(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, TRAWL_API_KEY: '', TRAWL_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const points = (n: number) => Array.from({ length: n }, (_, i) => `${(40 + i / 1000).toFixed(4)} ${(-74 + i / 1000).toFixed(4)}`);

let s: Served;
let dir: string;
let env: Record<string, string>;
before(async () => {
  s = await startServe();
  dir = mkdtempSync(join(tmpdir(), 'trawl-cli-client-'));
  env = { TRAWL_API_KEY: s.key, TRAWL_URL: s.url };
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('trawl run', () => {
  test('200 queries from a file: progress lines on a pipe, every record written as json, exit 0', { timeout: 120_000 }, async () => {
    const file = join(dir, 'points.txt');
    writeFileSync(file, `${points(200).join('\n')}\n\n`);
    const r = await trawl(['run', '/reverse-geocoding', '--file', file, '--out', join(dir, 'out.json')], env);
    assert.equal(r.code, 0, r.err);
    const lines = r.err.trim().split('\n');
    assert.match(lines[0], /^request [0-9a-f-]{36} submitted \(200 queries\)/);
    assert.ok(lines.some((l) => /^100% 200\/200 queries · 200 records · \d\d:\d\d elapsed$/.test(l)), r.err);
    assert.ok(!r.err.includes('\r'), 'no carriage returns when stderr is not a terminal');
    const data = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    assert.equal(data.length, 200);
    assert.equal(data[0][0].query, '40.0000 -74.0000');
    assert.equal(data[0][0].country_code, 'US');
    assert.equal(data[0][0].state, 'New Jersey');
  });

  test('on a terminal: a progress bar redrawn in place', { skip: spawnSync('script', ['--version']).status === 0 ? false : 'util-linux script (a pseudo-terminal) is not installed', timeout: 120_000 }, async () => {
    const file = join(dir, 'tty-points.txt');
    writeFileSync(file, points(50).join('\n'));
    // script(1) runs the command on a pseudo-terminal, so stderr is a TTY as in a user's shell.
    const cmd = [process.execPath, 'bin/trawl.js', 'run', '/reverse-geocoding', '--file', file, '--out', join(dir, 'tty.json')].map((a) => `'${a}'`).join(' ');
    const r = await new Promise<Ran>((resolve) => {
      const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.on('exit', (code) => resolve({ code, out, err: '' }));
    });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\r\[#{10,}\] 100% 50\/50 queries · 50 records · \d\d:\d\d elapsed\x1b\[K/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'tty.json'), 'utf8')).length, 50);
  });

  test('queries as arguments, a parameter passed through, jsonl on stdout', async () => {
    const r = await trawl(['run', 'directory-phones', '+12125551234', '+442079460958', '--format', 'jsonl', '--quiet'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '', '--quiet prints nothing on stderr');
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(recs.map((x) => [x.query, x.country_code]), [['+12125551234', 'US'], ['+442079460958', 'GB']]);
    const f = await trawl(['run', '/reverse-geocoding', '48.8584,2.2945', '--fields', 'query,city', '--quiet'], env);
    assert.equal(f.code, 0, f.err);
    assert.deepEqual(JSON.parse(f.out), [[{ query: '48.8584,2.2945', city: 'Paris' }]]);
  });

  test('csv, xlsx and parquet are the server\'s task files, chosen by --format or the extension of --out', { timeout: 120_000 }, async () => {
    for (const [fmt, magic] of [['csv', null], ['xlsx', 'PK'], ['parquet', 'PAR1']] as const) {
      const out = join(dir, `geo.${fmt}`);
      const r = await trawl(['run', '/reverse-geocoding', '40.7580 -73.9855', '51.5007,-0.1246', '--out', out], env);
      assert.equal(r.code, 0, `${fmt}: ${r.err}`);
      const bytes = readFileSync(out);
      if (magic) assert.equal(bytes.subarray(0, magic.length).toString('latin1'), magic, fmt);
      else {
        const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
        assert.match(text.split('\n')[0], /"query".*"city"/);
        assert.match(text, /"51\.5007,-0\.1246".*"London"/);
      }
    }
    const tasks = await trawl(['tasks'], env);
    assert.equal(tasks.code, 0, tasks.err);
    assert.equal(tasks.out.split('\n').filter((l) => l.includes('reverse_geocoding_service')).length, 3);
    assert.match(tasks.out, /SUCCESS/);
  });

  test('run --format csv --escape-formulas all|none: phones escaped too, or nothing; the default leaves phones as they are', { timeout: 120_000 }, async () => {
    const csvOf = async (...flags: string[]) => {
      const out = join(dir, `phones${flags.join('')}.csv`);
      const r = await trawl(['run', '/directory-phones', '+12125551234', '--format', 'csv', '--out', out, ...flags], env);
      assert.equal(r.code, 0, `${flags}: ${r.err}`);
      return readFileSync(out, 'utf8');
    };
    const plain = await csvOf();
    assert.match(plain, /"\+12125551234"/);
    assert.doesNotMatch(plain, /'\+1/, 'a phone cannot be a formula: written as it is by default');
    const all = await csvOf('--escape-formulas', 'all');
    assert.match(all, /"'\+12125551234"/);
    const none = await csvOf('--escape-formulas', 'none');
    assert.doesNotMatch(none, /'\+/);
    const bad = await trawl(['run', '/directory-phones', '+12125551234', '--format', 'csv', '--escape-formulas', 'some'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--escape-formulas must be all .* or none/);
    const notCsv = await trawl(['run', '/directory-phones', '+12125551234', '--format', 'xlsx', '--out', join(dir, 'p.xlsx'), '--escape-formulas', 'all'], env);
    assert.equal(notCsv.code, 2);
    assert.match(notCsv.err, /applies to --format csv/);
    // The API refuses it without csv too (a client other than this one).
    const api = await fetch(`${s.url}/directory-phones?query=1&escape_formulas=true&format=xlsx`, { headers: { 'x-api-key': s.key } });
    assert.equal(api.status, 422);
    assert.match((await api.json()).errorMessage, /escape_formulas applies to format=csv only/);
  });

  test('wait resumes an existing request; requests lists it; balance shows the usage', async () => {
    const sub = await fetch(`${s.url}/reverse-geocoding?query=${encodeURIComponent('35.6586 139.7454')}`, { headers: { 'x-api-key': s.key } });
    const { id } = (await sub.json()) as { id: string };
    const w = await trawl(['wait', id, '--format', 'json', '--quiet'], env);
    assert.equal(w.code, 0, w.err);
    assert.equal(JSON.parse(w.out)[0][0].country_code, 'JP');
    const list = await trawl(['requests', '--finished'], env);
    assert.equal(list.code, 0, list.err);
    const row = list.out.split('\n').find((l) => l.startsWith(id));
    assert.match(row ?? '', /\/reverse-geocoding\s+Success\s+1\/1\s+1\s+1\s/);
    const json = JSON.parse((await trawl(['requests', '--json'], env)).out);
    assert.ok(json.some((x: any) => x.id === id && x.status === 'Success'));
    const b = await trawl(['balance'], env);
    assert.equal(b.code, 0, b.err);
    assert.match(b.out, /^balance: 99\.\d+ USD \(valid\)/);
    assert.match(b.out, /reverse_geocoding_service\s+\d+\s+location/);
  });

  test('exit codes: 2 wrong arguments, 3 refused (401, 422, 404), 4 unreachable', async () => {
    const noKey = await trawl(['balance', '--url', s.url]);
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /--key or TRAWL_API_KEY/);
    assert.equal((await trawl(['run'], env)).code, 2);
    assert.equal((await trawl(['run', '/reverse-geocoding'], env)).code, 2, 'no queries');
    assert.equal((await trawl(['run', '/reverse-geocoding', '1 2', '--format', 'pdf'], env)).code, 2);
    const wrongKey = await trawl(['balance', '--key', 'trw_wrong'], { TRAWL_URL: s.url });
    assert.equal(wrongKey.code, 3);
    assert.match(wrongKey.err, /401 Unauthorized/);
    const bad = await trawl(['run', '/reverse-geocoding', 'not a point'], env);
    assert.equal(bad.code, 3);
    assert.match(bad.err, /422 Unprocessable Entity/);
    assert.equal((await trawl(['wait', '00000000-0000-4000-8000-000000000000'], env)).code, 3);
    const down = await trawl(['balance', '--url', 'http://127.0.0.1:9'], env);
    assert.equal(down.code, 4);
    assert.match(down.err, /cannot reach the server/);
  });
});

describe('failure, partial results and cancel (test adapter)', () => {
  let t: TrawlProc;
  let tenv: Record<string, string>;
  const tdir = mkdtempSync(join(tmpdir(), 'trawl-cli-fail-'));
  before(async () => {
    t = await startTrawl({ DATA_DIR: tdir, PORT: '0' });
    tenv = { TRAWL_API_KEY: t.key, TRAWL_URL: t.url };
  });
  after(async () => {
    if (t) await stopTrawl(t);
    rmSync(tdir, { recursive: true, force: true });
  });

  test('some queries failed: results written, reasons on stderr, exit 5', async () => {
    const r = await trawl(['run', '/maps/search', 'n=2', 'fail', '--quiet'], tenv);
    assert.equal(r.code, 5, r.err);
    assert.equal(JSON.parse(r.out)[0].length, 2);
    assert.match(r.err, /query "fail" failed: .*no expected data/);
  });

  test('cancel ends a running request; waiting on it then reports Failure with exit 1', async () => {
    const sub = await fetch(`${t.url}/engine-places-by-domain?query=sleep=20000&query=sleep=20000`, { headers: { 'x-api-key': t.key } });
    const { id } = (await sub.json()) as { id: string };
    const running = await trawl(['requests', '--running'], tenv);
    assert.match(running.out, new RegExp(`${id}\\s+/engine-places-by-domain\\s+Pending\\s+0/2`));
    const c = await trawl(['cancel', id], tenv);
    assert.equal(c.code, 0, c.err);
    assert.equal(c.out.trim(), `Request ${id} terminated`);
    // A second cancel finds it ended: the answer says so instead of "terminated" again.
    const again = await trawl(['cancel', id], tenv);
    assert.equal(again.out.trim(), `Request ${id} had already finished (Failure); nothing was terminated`);
    // Finished requests exist, running ones do not: the empty list says which it means.
    const none = await trawl(['requests', '--running'], tenv);
    assert.equal(none.out, 'no running requests\n');
    const w = await trawl(['wait', id], tenv);
    assert.equal(w.code, 1, w.err);
    assert.match(w.err, new RegExp(`request ${id} ended in Failure`));
  });
});

test('progress line: bar, percentage, records, elapsed and ETA', () => {
  assert.equal(progressLine({ queries_total: 200, queries_done: 50, records: 48, elapsedMs: 10_000 }), '25% 50/200 queries · 48 records · 00:10 elapsed · ETA 00:30');
  const bar = progressLine({ queries_total: 4, queries_done: 1, records: 1, elapsedMs: 3_723_000 }, 100);
  const m = bar.match(/^\[(#+)(\.+)\]  25% 1\/4 queries · 1 records · 1:02:03 elapsed · ETA 3:06:09$/);
  assert.ok(m, bar);
  assert.ok(bar.length <= 100, 'fits the terminal');
  assert.equal(Math.round((4 * m[1].length) / (m[1].length + m[2].length)), 1, 'a quarter of the bar is filled');
  // An area request also shows its views done / planned.
  const area = { views_planned: 40, views_done: 12, views_saturated: 3, places_found: 900, coverage: 0.99, planned: [] };
  assert.equal(progressLine({ queries_total: 1, queries_done: 0, records: 0, elapsedMs: 5_000, area }), '0% 0/1 queries · 12/40 views (3 saturated) · 0 records · 00:05 elapsed');
});

test('arguments: unknown options are endpoint parameters, repeated ones arrays', () => {
  const a = parseClientArgs(['/maps/search', 'pizza', '--limit', '5', '--enrichment=a', '--enrichment', 'b', '--out', 'x.csv', '--quiet', '--', '--literal'], { out: 'string', quiet: 'boolean' });
  assert.deepEqual(a, { positionals: ['/maps/search', 'pizza', '--literal'], options: { out: 'x.csv', quiet: true }, params: { limit: '5', enrichment: ['a', 'b'] } });
  assert.throws(() => parseClientArgs(['--limit'], {}), /--limit needs a value/);
});

describe('trawl monitors', () => {
  test('create, list, runs, changes, pause, resume, delete; a bad schedule is refused with exit 3', { timeout: 120_000 }, async () => {
    const made = await trawl(['monitors', 'create', '/reverse-geocoding', '40.7624,-73.9738', '--every', '1h', '--identity', 'query', '--fields', 'city,postal_code', '--name', 'midtown', '--json'], env);
    assert.equal(made.code, 0, made.err);
    const m = JSON.parse(made.out);
    assert.deepEqual([m.endpoint, m.schedule.every_s, m.compare.identity, m.name, m.status], ['/reverse-geocoding', 3600, ['query'], 'midtown', 'active']);
    const list = await trawl(['monitors', 'list'], env);
    assert.match(list.out, new RegExp(`${m.id}\\s+midtown\\s+/reverse-geocoding\\s+active`));
    // The first run comes at once: the baseline.
    let runs: Ran;
    for (let i = 0; ; i++) {
      runs = await trawl(['monitors', 'runs', m.id], env);
      if (/baseline/.test(runs.out) || i > 100) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(runs.out, /baseline\s+0\s+0\s+0\s+0\s+0\s+1/, runs.out);
    assert.equal((await trawl(['monitors', 'changes', m.id], env)).out, 'no changes\n');
    assert.match((await trawl(['monitors', 'pause', m.id], env)).out, new RegExp(`monitor ${m.id} paused`));
    assert.match((await trawl(['monitors', 'resume', m.id], env)).out, /active; next run \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const bad = await trawl(['monitors', 'create', '/reverse-geocoding', '1,1', '--every', '10s', '--identity', 'query'], env);
    assert.equal(bad.code, 3);
    assert.match(bad.err, /every_s must be a whole number of seconds from 60/);
    assert.equal((await trawl(['monitors', 'create', '/reverse-geocoding', '1,1'], env)).code, 2, 'no schedule: a usage error');
    assert.match((await trawl(['monitors', 'delete', m.id], env)).out, /deleted/);
    assert.equal((await trawl(['monitors', 'show', m.id], env)).code, 3);
  });
});
