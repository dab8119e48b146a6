/**
 * The `trawl` command line as a user runs it: accounts and keys, and `trawl parse` on real captures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURES_ROOT, fixtureMissing } from '../src/sources/_kit/fixtures.ts';

const FIXTURES = FIXTURES_ROOT;
const noFixtures = fixtureMissing(join(FIXTURES, 'google-maps'));

function trawl(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('accounts create prints id, api_key, webhook_secret; keys and balance commands work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
  try {
    const env = { DATA_DIR: dir };
    const c = trawl(['accounts', 'create', '--name', 'acme', '--balance', '25'], env);
    assert.equal(c.code, 0, c.err);
    const a = JSON.parse(c.out);
    assert.match(a.id, /^[0-9a-f-]{36}$/);
    assert.match(a.api_key, /^trw_/);
    assert.match(a.webhook_secret, /^whsec_/);
    assert.equal(a.balance, '25.000000', 'money in fixed decimals');
    const list = JSON.parse(trawl(['accounts', 'list'], env).out);
    assert.equal(list.length, 1);
    assert.equal(list[0].webhookSecret, undefined, 'secrets are not listed');
    assert.equal(JSON.parse(trawl(['accounts', 'balance', '--id', a.id, '--add', '5.001'], env).out).balance, '30.001000');
    const k = JSON.parse(trawl(['keys', 'create', '--account', a.id], env).out);
    assert.match(k.api_key, /^trw_/);
    const keys = JSON.parse(trawl(['keys', 'list', '--account', a.id], env).out);
    assert.equal(keys.length, 2);
    assert.ok(keys.every((x: any) => !('keyHash' in x) && !String(JSON.stringify(x)).includes(a.api_key)));
    assert.equal(trawl(['keys', 'revoke', '--id', k.key_id], env).code, 0);
    assert.notEqual(trawl(['keys', 'revoke', '--id', k.key_id], env).code, 0, 'revoking twice is an error');
    assert.notEqual(trawl(['accounts', 'create'], env).code, 0, 'missing --name');
    assert.equal(JSON.parse(trawl(['accounts', 'usage', '--id', a.id], env).out).lines.length, 0);
    assert.equal(trawl(['prices', 'set', '--product', 'engine_maps_service_v2', '--price', '0.01'], env).code, 0);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('trawl parse prints the records of a real search capture', { skip: noFixtures }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-parse-'));
  try {
    // As the site served it: with the anti-XSSI prefix the fixture had removed.
    const file = join(dir, 'search.json');
    writeFileSync(file, `)]}'\n${readFileSync(join(FIXTURES, 'google-maps/search_tbm-map_coffee_2024-12.json'), 'utf8')}`);
    const r = trawl(['parse', '/maps/search', file]);
    assert.equal(r.code, 0, r.err);
    const records = JSON.parse(r.out);
    assert.equal(records.length, 20);
    assert.ok(records.every((p: any) => p.name && p.place_id && typeof p.latitude === 'number'));
    const html = trawl(['parse', '/maps/search', join(FIXTURES, 'google-maps/place_page_tipsy-sticks_2023-04.html')]);
    assert.equal(html.code, 0, html.err);
    assert.equal(JSON.parse(html.out)[0].name, 'Tipsy Sticks');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('trawl parse refuses what the endpoint does not understand, with a clear message', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-parse-'));
  try {
    const file = join(dir, 'x.json');
    writeFileSync(file, '{"hello": "world"}');
    const r = trawl(['parse', '/maps/search', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /is not a response \/maps\/search understands/);
    assert.notEqual(trawl(['parse', '/nope', file]).code, 0);
    assert.notEqual(trawl(['parse', '/maps/search', join(dir, 'missing.json')]).code, 0);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('trawl serve on an empty store creates an account and prints its key once', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-serve-'));
  // PORT=0: the system picks a free port, read from the listening line (a random fixed port could be
  // one another test, or an outgoing connection, holds: the start then fails and prints no key).
  const child = spawn(process.execPath, ['bin/trawl.js', 'serve'], { env: { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => { stderr += d; });
  try {
    const { key, url } = await new Promise<{ key: string; url: string }>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no key and address printed within 30 s; stderr: ${stderr.slice(-2000)}`)), 30_000);
      child.once('exit', (code) => { clearTimeout(t); reject(new Error(`trawl serve exited (${code}) before its key and address; stderr: ${stderr.slice(-2000)}`)); });
      let key = '';
      createInterface({ input: child.stdout! }).on('line', (l) => {
        const m = l.match(/(trw_[A-Za-z0-9_-]+)/);
        if (m) key = m[1];
        const listening = /"msg":"trawl listening"/.test(l) ? (JSON.parse(l) as { url?: string }).url : undefined;
        if (listening && !key) { clearTimeout(t); reject(new Error('listening before the key was printed')); }
        if (listening && key) { clearTimeout(t); resolve({ key, url: listening }); }
      });
    });
    child.removeAllListeners('exit');
    let res: Response | null = null;
    for (let i = 0; i < 100 && !res; i++) {
      res = await fetch(`${url}/profile/balance`, { headers: { 'x-api-key': key } }).catch(() => null);
      if (!res) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(res?.status, 200);
    assert.equal(((await res!.json()) as any).balance, 100);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    // A second start on the same store creates nothing and prints no key.
    const again = spawnSync(process.execPath, ['bin/trawl.js', 'accounts', 'list'], { env: { ...process.env, DATA_DIR: dir }, encoding: 'utf8' });
    assert.equal(JSON.parse(again.stdout).length, 1);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('trawl serve on a port in use creates nothing, prints no key and names the setting to change', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-serve-busy-'));
  const busy = createNetServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  const port = (busy.address() as { port: number }).port;
  try {
    const data = join(dir, 'data');
    const r = trawl(['serve'], { DATA_DIR: data, PORT: String(port), HOST: '127.0.0.1' });
    assert.equal(r.code, 1);
    assert.equal(r.out, '', 'no account, no key');
    assert.equal(r.err.trim(), `trawl: port ${port} on 127.0.0.1 is already in use (another trawl, or another program): set PORT to a free port, or stop the other one`);
    assert.equal(existsSync(data), false, 'no store was created');
  } finally {
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('prices set refuses negative and non-numeric prices; accounts balance --id shows the balance', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
  try {
    const env = { DATA_DIR: dir };
    const a = JSON.parse(trawl(['accounts', 'create', '--name', 'acme', '--balance', '25'], env).out);
    for (const bad of ['-0.01', 'abc', '', ' ', '0x10', '1e400', 'NaN', 'Infinity', '-0', '0.0000001', '+1']) {
      const r = trawl(['prices', 'set', '--product', 'engine_maps_service_v2', '--price', bad], env);
      assert.notEqual(r.code, 0, `--price ${JSON.stringify(bad)} is refused`);
      assert.match(r.err, /--price must be a non-negative decimal number/);
    }
    assert.equal(trawl(['prices', 'set', '--product', 'engine_maps_service_v2', '--price', '0.0035'], env).code, 0);
    assert.equal(trawl(['prices', 'set', '--product', 'engine_maps_service_v2', '--price', '0'], env).code, 0, 'free is a price');
    const shown = trawl(['accounts', 'balance', '--id', a.id], env);
    assert.equal(shown.code, 0, shown.err);
    assert.deepEqual(JSON.parse(shown.out), { id: a.id, balance: '25.000000', credit_limit: '0.000000', currency: 'usd' });
    // 0.1 + 0.2 in floats is 0.30000000000000004; in micros it is 0.3.
    const tenth = JSON.parse(trawl(['accounts', 'create', '--name', 'tenth', '--balance', '0.1'], env).out);
    assert.equal(JSON.parse(trawl(['accounts', 'balance', '--id', tenth.id, '--add', '0.2'], env).out).balance, '0.300000');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
