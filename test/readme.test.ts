/**
 * README.md runs as written (issue 27): every command block is pasted into bash, and every client
 * snippet saved and run, against a real `trawl serve` started as a new user starts it. Two things
 * differ from a user's shell, and only these: the key the server printed is already exported (the
 * block's `export TRAWL_API_KEY=trw_...` line is what the user edits), and the server listens on a
 * free port instead of 8080. Blocks not run, and why: `npm install && npm start` (this test is that
 * start) and the whole suite (`npm test`, run by CI itself).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { startServe, type Served } from './support/serve-real.ts';

interface Block { lang: string; section: string; text: string }
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks: Block[] = [];
{
  let section = '';
  const lines = README.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('## ')) section = lines[i].slice(3);
    const open = lines[i].match(/^```(\w*)$/);
    if (!open) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    blocks.push({ lang: open[1], section, text: body.join('\n') });
  }
}
const NOT_RUN = [/^npm install && npm start/, /^export TEST_DATABASE_URL/];
const sh = blocks.filter((b) => b.lang === 'sh' && !NOT_RUN.some((re) => re.test(b.text)));

/** Files the blocks write in the clone; removed after, unless they were there before. */
const WRITES = ['points.txt', 'places.xlsx', 'cafes.osm', 'monaco.csv', '.readme-script.ts', '.readme-script.py'];
const existed = new Set(WRITES.filter((f) => existsSync(f)));

let s: Served;
before(async () => { s = await startServe(); });
after(async () => {
  await s?.close();
  for (const f of WRITES) if (!existed.has(f)) rmSync(f, { force: true });
});

const asUser = (text: string) => text.split('\n').filter((l) => !/^export TRAWL_API_KEY=trw_\.\.\./.test(l)).join('\n').replaceAll('http://127.0.0.1:8080', s.url);
const env = () => ({ ...process.env, TRAWL_API_KEY: s.key, TRAWL_URL: s.url, DATA_DIR: s.dir, TRAWL_FROM_SOURCE: '' });
function bash(script: string) {
  return spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], { env: env(), encoding: 'utf8', timeout: 240_000 });
}

test('the README has the blocks this test knows', () => {
  assert.deepEqual(sh.map((b) => b.section), ['Quick start', 'Clients', 'The business database', 'The command line']);
  assert.equal(blocks.filter((b) => b.lang === 'ts').length, 1);
  assert.equal(blocks.filter((b) => b.lang === 'python').length, 1);
});

test('quick start: the curl calls answer', { timeout: 120_000 }, () => {
  const r = bash(asUser(sh[0].text));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /"city":"Manhattan"/);
  assert.match(r.stdout, /"city":"Palo Alto".*"match":"city"/);
  assert.match(r.stdout, /"international_number":"\+49 1512 3456789"|"query":"\+4915123456789"/);
  assert.match(r.stdout, /"status":"Pending"/);
});

test('clients: the command-line block writes its file and lists requests', { timeout: 240_000 }, () => {
  const r = bash(asUser(sh[1].text));
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.equal(readFileSync('places.xlsx').subarray(0, 2).toString('latin1'), 'PK');
  assert.match(r.stdout, /balance: /);
});

test('the command line: the fast path parses the item page the README names, one item with its options', { timeout: 120_000 }, () => {
  const block = sh.find((b) => b.section === 'The command line')!.text;
  assert.match(block, /^node bin\/trawl\.js parse /);
  const r = bash(block);
  assert.equal(r.status, 0, r.stderr);
  const recs = JSON.parse(r.stdout);
  assert.equal(recs.length, 1);
  assert.equal(recs[0].item_name, 'Chicken Burrito');
  assert.equal(recs[0].options.length, 3);
});

test('clients: the TypeScript and Python snippets print the city', { timeout: 120_000 }, () => {
  const ts = blocks.find((b) => b.lang === 'ts')!.text;
  assert.match(ts, /npx tsx script\.ts/);
  writeFileSync('.readme-script.ts', ts);
  const t = spawnSync('npx', ['tsx', '.readme-script.ts'], { env: env(), encoding: 'utf8', timeout: 100_000 });
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /Manhattan/);
  const py = blocks.find((b) => b.lang === 'python')!.text;
  assert.match(py, /PYTHONPATH=clients\/python python3 script\.py/);
  writeFileSync('.readme-script.py', py);
  const p = spawnSync('python3', ['.readme-script.py'], { env: { ...env(), PYTHONPATH: 'clients/python' }, encoding: 'utf8', timeout: 100_000 });
  if (p.error) return; // no python3 on this machine: the Python client's own test skips likewise
  assert.equal(p.status, 0, p.stderr);
  assert.match(p.stdout, /Manhattan/);
});

test('the business database: import a hand-written extract, search it in words, by curl, export it', { timeout: 240_000 }, () => {
  const r = bash(asUser(sh[2].text));
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /"businesses": 3/);
  assert.match(r.stdout, /read as: \{"types":\[.*"Cafe".*\],"country_code":"MC"\}/);
  assert.match(r.stdout, /Café de Paris\s+Cafe\s+Monaco\s+\+37798067623/);
  assert.match(r.stdout, /2 of 2/);
  assert.match(r.stdout, /"name": "Le Petit Café"/, 'outdoor seating');
  assert.doesNotMatch(r.stdout, /"name": "Café de Paris"[^]*"name": "Café de Paris"/);
  assert.match(r.stdout, /\{"items":\[\{"os_id":"bz_[0-9a-f]{24}","place_id":null,"engine_id":null,"name":"Pulcinella"/);
  const csv = readFileSync('monaco.csv', 'utf8');
  assert.equal(csv.trim().split('\n').length, 4, csv);
  // The prose after the block: `npx trawl businesses get <os_id>` reads one; an unknown id is exit 3.
  assert.match(README, /`npx trawl businesses get <os_id>`/);
  const id = r.stdout.match(/"os_id":"(bz_[0-9a-f]{24})","place_id":null,"engine_id":null,"name":"Pulcinella"/)![1];
  const one = bash(`npx trawl businesses get ${id}`);
  assert.equal(one.status, 0, one.stderr);
  assert.equal(JSON.parse(one.stdout).name, 'Pulcinella');
  const none = bash('npx trawl businesses get bz_000000000000000000000000');
  assert.equal(none.status, 3);
  assert.match(none.stderr, /404 Not Found: no business/);
});
