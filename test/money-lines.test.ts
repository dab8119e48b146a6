/**
 * Money lines add up (issue 38): two phone lookups at 0.002 and six locations at 0.001 make a total of
 * 0.01, a line alone rounding to 0.00. /profile/balance gives each line's exact micros (summing to the
 * total's) and rounded amounts that sum to the rounded total; `trawl balance` prints every line with six
 * decimals from the micros and they add up to the total it prints. Against a real `trawl serve`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startServe, type Served } from './support/serve-real.ts';
import { parseMicros } from '../src/billing/money.ts';

let s: Served;
before(async () => { s = await startServe(); });
after(async () => { await s?.close(); });

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const cents = (n: number) => Math.round(n * 100);

test('/profile/balance and trawl balance: the lines add up to the total, exactly', { timeout: 120_000 }, async () => {
  const get = (path: string) => fetch(`${s.url}${path}`, { headers: { 'x-api-key': s.key } });
  const phones = await get(`/directory-phones?query=${encodeURIComponent('+12125551234')}&query=${encodeURIComponent('+442079460958')}&async=false`);
  assert.equal(phones.status, 200, await phones.clone().text());
  const points = Array.from({ length: 6 }, (_, i) => `query=${encodeURIComponent(`${40 + i / 100} -74`)}`).join('&');
  assert.equal((await get(`/reverse-geocoding?${points}&async=false`)).status, 200);

  const b = await (await get('/profile/balance')).json() as any;
  const inv = b.upcoming_invoice;
  assert.equal(inv.total_micros, 10_000);
  assert.equal(inv.total, 0.01);
  const lines = inv.products_lines as any[];
  assert.deepEqual(lines.map((l) => [l.quantity, l.amount_micros]).sort((x, y) => x[1] - y[1]), [[2, 4_000], [6, 6_000]]);
  assert.equal(sum(lines.map((l) => l.amount_micros)), inv.total_micros, 'exact micros add up');
  assert.equal(sum(lines.map((l) => cents(l.amount))), cents(inv.total), 'rounded amounts add up to the rounded total');
  for (const l of lines) {
    assert.equal(sum(l.lines.map((x: any) => x.amount_micros)), l.amount_micros);
    assert.equal(sum(l.lines.map((x: any) => cents(x.amount))), cents(l.amount));
  }
  assert.equal(inv.amount_due_micros + inv.applied_balance_micros, inv.total_micros);
  assert.equal(cents(inv.amount_due) + cents(inv.applied_balance), cents(inv.total));
  assert.equal(b.balance_micros, 100_000_000 - 10_000);

  const usage = await (await get('/profile/usage?days=1')).json() as any;
  assert.equal(sum(usage.days[0].products.map((p: any) => p.amount_micros)), inv.total_micros);

  const cli = spawnSync(process.execPath, ['bin/trawl.js', 'balance'], { env: { ...process.env, TRAWL_API_KEY: s.key, TRAWL_URL: s.url }, encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /^balance: 99\.990000 USD \(valid\)/);
  const total = /total (\d+\.\d{6}) USD/.exec(cli.stdout)?.[1];
  assert.equal(total, '0.010000', cli.stdout);
  const printed = cli.stdout.split('\n').map((l) => /\s(\d+\.\d{6})\s*$/.exec(l)?.[1]).filter((x): x is string => !!x);
  assert.deepEqual(printed.sort(), ['0.004000', '0.006000'], cli.stdout);
  assert.equal(sum(printed.map((x) => parseMicros(x)!)), parseMicros(total!));
});
