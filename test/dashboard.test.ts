/**
 * The dashboard (/app) in a real browser: Debian's Chromium driven by playwright-core, against a
 * real `trawl serve`. Sign in (and a 401 for a wrong key), a synchronous reverse-geocoding run, a
 * 200-query asynchronous request followed to 100 %, its table, map and JSON, a task downloaded in
 * each format, a key created and revoked; and 50,000 records in the table (test adapter's server).
 * Screenshots of every page go to test-artifacts/dashboard/ (not committed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServe, type Served } from './support/serve-real.ts';
import { startTrawl, stopTrawl, type TrawlProc } from './support/cluster.ts';
import { TrawlClient } from '../clients/typescript/src/client.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM} (CI installs Debian's chromium; set CHROMIUM_PATH)`;
const SHOTS = join('test-artifacts', 'dashboard');

let s: Served;
let browser: Browser;
let page: Page;
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  [s, browser] = await Promise.all([startServe(), chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] })]);
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(30_000);
});
after(async () => {
  await browser?.close();
  await s?.close();
});

test('sign in: linked from /, a wrong key is a 401, the key stays in session storage only', { skip, timeout: 120_000 }, async () => {
  await page.goto(s.url);
  await page.click('a[href="/app"]');
  await page.waitForSelector('#api-key');
  await shot('signin');
  await page.fill('#api-key', 'trw_wrong');
  await page.click('button[type=submit]');
  await page.waitForSelector('[role=alert]');
  assert.match(await page.textContent('[role=alert]') ?? '', /^401 Unauthorized/);
  await page.fill('#api-key', s.key);
  await page.click('button[type=submit]');
  await page.waitForSelector('#endpoint');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('trawl.apiKey')), s.key);
  assert.ok(!page.url().includes(s.key), 'never in the URL');
  assert.deepEqual(await page.evaluate(() => [document.cookie, localStorage.length]), ['', 0]);
});

test('Run: the form comes from the contract; a small reverse-geocoding job runs synchronously', { skip, timeout: 120_000 }, async () => {
  const options = await page.$$eval('#endpoint option', (o) => o.map((x) => (x as HTMLOptionElement).value));
  assert.ok(options.includes('/maps/search') && options.includes('/reverse-geocoding') && !options.includes('/validators/email'), options.join());
  assert.ok(!options.some((o) => /-v\d$/.test(o)), `aliases are not endpoints of their own: ${options.join()}`);
  await page.selectOption('#endpoint', '/maps/search');
  assert.equal(await page.$eval('#p-limit', (e) => (e as HTMLInputElement).placeholder), 'default 500');
  assert.ok((await page.$$('#p-enrichment input[type=checkbox]')).length >= 5, 'enum arrays are checkboxes');
  await page.selectOption('#endpoint', '/reverse-geocoding');
  // A pasted CSV: the column named (quoted fields with commas inside) becomes the queries.
  await page.selectOption('#query-source', 'csv');
  await page.fill('#csv-column', 'point');
  await page.fill('#queries', 'name,point\n"Rockefeller, NY","40.7580 -73.9855"\nEiffel,"48.8584,2.2945"\n');
  await page.waitForFunction(() => document.querySelector('#query-source')?.parentElement?.textContent?.includes('2 queries'));
  await page.click('button[type=submit]');
  await page.waitForSelector('.vt-row');
  const text = await page.textContent('.vt-body');
  assert.match(text ?? '', /New York City/);
  assert.match(text ?? '', /Paris/);
  await shot('run');
});

test('Requests: a 200-query request followed to 100 %, then its table, map and JSON', { skip, timeout: 180_000 }, async () => {
  await page.goto(`${s.url}/app#/run?endpoint=/reverse-geocoding`);
  await page.waitForSelector('#queries');
  const queries = Array.from({ length: 200 }, (_, i) => `${(40 + i / 100).toFixed(3)} ${(-100 + i / 50).toFixed(3)}`);
  await page.fill('#queries', queries.join('\n'));
  await page.click('button[type=submit]');
  await page.waitForURL(/#\/requests\/[0-9a-f-]{36}$/);
  await page.waitForSelector('strong.pct');
  const seen = new Set<string>();
  for (const end = Date.now() + 120_000; Date.now() < end;) {
    const pct = await page.textContent('strong.pct').catch(() => null);
    if (pct) seen.add(pct);
    if (pct === '100 %' && await page.$('.vt-body')) break;
    await page.waitForTimeout(100);
  }
  assert.ok(seen.has('100 %'), [...seen].join());
  assert.equal(await page.getAttribute('.vt-body', 'aria-rowcount'), '200');
  assert.ok((await page.$$('.vt-row')).length < 60, 'only the rows in view are in the page');
  const tops = await page.$$eval('.vt-row', (rs) => rs.map((r) => (r as HTMLElement).offsetTop));
  assert.equal(new Set(tops).size, tops.length, 'each row in its own place');
  await shot('request');
  // The points lie in Iowa, Kansas and Nebraska: sorted by state, Iowa comes first, then last. Points
  // on the Kansas-Nebraska line (latitude 40) have no state (reverse geocoding answers null within 1 km
  // of a line), so the first row that names a state is the one compared.
  const firstState = async () => (await page.$$eval('.vt-row', (rs) => rs.map((r) => r.textContent ?? '')))
    .map((t) => /Iowa|Kansas|Nebraska/.exec(t)?.[0]).find(Boolean);
  await page.click('.vt-head div:has-text("state")');
  assert.equal(await firstState(), 'Iowa');
  await page.click('.vt-head div:has-text("state")');
  assert.equal(await firstState(), 'Nebraska');
  await page.fill('input[aria-label=filter]', 'Kansas');
  await page.waitForFunction(() => /of 200 rows/.test(document.querySelector('.vt')?.previousElementSibling?.textContent ?? ''));
  await page.click('.tabs button:has-text("Map")');
  await page.waitForSelector('.map[data-points="200"] canvas');
  await page.waitForTimeout(300);
  await shot('map');
  await page.click('.tabs button:has-text("JSON")');
  assert.match(await page.textContent('pre.json') ?? '', /"country_code": "US"/);
  await page.click('a[href="#/requests"]');
  await page.waitForSelector('table.list tr.link');
  const id = page.url();
  assert.ok((await page.textContent('table.list') ?? '').includes('/reverse-geocoding'), id);
  await shot('requests');
});

test('Tasks and files: a task per format, each file downloaded', { skip, timeout: 180_000 }, async () => {
  await page.goto(`${s.url}/app#/tasks`);
  await page.waitForSelector('#task-service');
  const magic: Record<string, (b: Buffer) => boolean> = {
    xlsx: (b) => b.subarray(0, 2).toString('latin1') === 'PK',
    csv: (b) => /"query"/.test(b.toString('utf8').slice(0, 200)),
    json: (b) => Array.isArray(JSON.parse(b.toString('utf8'))),
    parquet: (b) => b.subarray(0, 4).toString('latin1') === 'PAR1',
  };
  for (const format of Object.keys(magic)) {
    await page.selectOption('#task-service', 'reverse_geocoding_service');
    await page.fill('#task-queries', '40.7580 -73.9855\n51.5007,-0.1246');
    await page.selectOption('#task-format', format);
    const previous = await page.$eval('.notice .mono', (e) => e.textContent).catch(() => null);
    await page.click('button[type=submit]');
    await page.waitForFunction((prev) => { const t = document.querySelector('.notice .mono')?.textContent; return t && t !== prev; }, previous);
    const id = (await page.textContent('.notice .mono'))!;
    const link = `tr[data-task="${id}"] a[download]`;
    await page.waitForSelector(link, { timeout: 60_000 });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
    const bytes = readFileSync((await dl.path())!);
    assert.ok(magic[format](bytes), `${format} file: ${JSON.stringify(bytes.subarray(0, 16).toString('latin1'))} (${bytes.length} bytes)`);
    assert.ok(dl.suggestedFilename().endsWith(`.${format}`), dl.suggestedFilename());
  }
  await shot('tasks');
});

test('Account: balance, invoice lines that add up to the total, usage chart, a key created (shown once) and revoked', { skip, timeout: 120_000 }, async () => {
  // Two phone lookups (0.004): a line that rounded alone read 0 USD under a total of cents (issue 38).
  assert.equal((await fetch(`${s.url}/directory-phones?query=%2B12125551234&query=%2B442079460958&async=false`, { headers: { 'x-api-key': s.key } })).status, 200);
  await page.goto(`${s.url}/app#/account`);
  await page.waitForSelector('#balance');
  assert.match(await page.textContent('#balance') ?? '', /^\d+\.\d{6} USD$/);
  const shown = await page.$$eval('#invoice-lines td[data-micros]', (tds) => tds.map((td) => td.textContent ?? ''));
  const total = await page.$eval('#invoice [data-micros]', (e) => e.textContent ?? '');
  assert.ok(shown.includes('0.004000 USD'), shown.join());
  const micros = (t: string) => Number(/^(\d+)\.(\d{6}) USD$/.exec(t)!.slice(1).join(''));
  assert.equal(shown.map(micros).reduce((a, b) => a + b, 0), micros(total), `${shown.join(' + ')} = ${total}`);
  await page.waitForSelector('.usage-bar');
  await page.waitForSelector('#create-key');
  const before = (await page.$$('tr[data-key]')).length;
  await page.click('#create-key');
  await page.waitForSelector('#new-key');
  const key = (await page.textContent('#new-key'))!;
  assert.match(key, /^trw_/);
  assert.equal((await page.$$('tr[data-key]')).length, before + 1);
  await shot('account');
  assert.equal((await new TrawlClient({ apiKey: key, baseUrl: s.url }).balance()).account_status, 'valid');
  const row = (await page.$$('tr[data-key]'))[0];
  await (await row.$('button.danger'))!.click();
  await page.waitForFunction(() => document.querySelector('tr[data-key]')?.textContent?.includes('revoked'));
  assert.equal(await page.$('#new-key'), null, 'the key is not shown again');
  await page.waitForTimeout(1_100); // keys seen within a second are cached by the server
  await assert.rejects(new TrawlClient({ apiKey: key, baseUrl: s.url }).balance(), /401 Unauthorized/);
});

test('Businesses: a natural-language search shows how it was read, its rows, pages by cursor, and a 422 for words not understood', { skip, timeout: 180_000 }, async (t) => {
  const monaco = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm', 'monaco.osm.gz');
  if (!existsSync(monaco)) return t.skip(`fixture ${monaco} absent (see ../shared/fixtures/osm/SOURCES.md)`);
  // The real Monaco extract, imported by the CLI into the served database as open data (99 businesses).
  const imported = spawnSync(process.execPath, ['bin/trawl.js', 'businesses', 'import', monaco, '--country', 'MC'], { env: { ...process.env, DATA_DIR: s.dir }, encoding: 'utf8' });
  assert.equal(imported.status, 0, imported.stderr);
  await page.goto(`${s.url}/app#/businesses`);
  await page.waitForSelector('#biz-query');
  await page.fill('#biz-query', 'restaurants in monaco');
  await page.click('#biz-search');
  await page.waitForSelector('#biz-results tr[data-os-id]');
  assert.equal(await page.textContent('#biz-parsed [data-filter=country_code]'), 'MC');
  assert.match(await page.textContent('#biz-parsed [data-filter=types]') ?? '', /Restaurant/);
  const firstPage = await page.$$eval('#biz-results tr[data-os-id]', (rs) => rs.map((r) => (r as HTMLElement).dataset.osId));
  assert.equal(firstPage.length, 10);
  const range = (await page.textContent('#biz-range'))!;
  const total = Number(range.match(/of (\d+)$/)![1]);
  assert.ok(total > 10, range);
  await shot('businesses');
  // Next follows the cursor to rows not seen; Previous comes back to the same first page.
  await page.click('#biz-next');
  await page.waitForFunction(() => document.querySelector('#biz-range')?.textContent?.startsWith('11–'));
  const second = await page.$$eval('#biz-results tr[data-os-id]', (rs) => rs.map((r) => (r as HTMLElement).dataset.osId));
  assert.ok(second.length > 0 && second.every((id) => !firstPage.includes(id)));
  await page.click('#biz-prev');
  await page.waitForFunction(() => document.querySelector('#biz-range')?.textContent?.startsWith('1–'));
  assert.deepEqual(await page.$$eval('#biz-results tr[data-os-id]', (rs) => rs.map((r) => (r as HTMLElement).dataset.osId)), firstPage);
  // A filter beside the query narrows it; the answer agrees with the API's.
  await page.selectOption('#biz-website', 'true');
  await page.click('#biz-search');
  const api = await new TrawlClient({ apiKey: s.key, baseUrl: s.url }).json<{ total: number }>('POST', '/businesses',
    { body: { query: 'restaurants in monaco', filters: { has_website: true }, include_total: true, limit: 1 } });
  await page.waitForFunction((n) => document.querySelector('#biz-range')?.textContent?.endsWith(`of ${n}`) || (n === 0 && !!document.querySelector('#biz-results p')), api.total);
  assert.ok(api.total < total);
  // Words not understood: the API's 422 message, naming them.
  await page.fill('#biz-query', 'restaurants with karaoke in monaco');
  await page.click('#biz-search');
  await page.waitForSelector('[role=alert]');
  assert.match(await page.textContent('[role=alert]') ?? '', /422 Unprocessable Entity.*not understood: "karaoke"/);
});

test('50,000 records scroll, sort and filter quickly; failure reasons; a running request cancelled (test adapter)', { skip, timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-dash-'));
  let t: TrawlProc | undefined;
  try {
    t = await startTrawl({ DATA_DIR: dir, PORT: '0' });
    const c = new TrawlClient({ apiKey: t.key, baseUrl: t.url });
    const r = await c.run('/maps/search', Array.from({ length: 100 }, () => 'n=500'), { limit: 500 });
    assert.equal(r.status, 'Success');
    const p = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await p.goto(`${t.url}/app`);
    await p.fill('#api-key', t.key);
    await p.click('button[type=submit]');
    await p.waitForSelector('#endpoint');
    await p.goto(`${t.url}/app#/requests/${r.id}`);
    await p.waitForSelector('.vt-row', { timeout: 120_000 });
    assert.equal(await p.getAttribute('.vt-body', 'aria-rowcount'), '50000');
    // Scroll through in 40 jumps, one frame each; the slowest frame says whether it stays smooth.
    const frames = await p.evaluate(async () => {
      const body = document.querySelector('.vt-body') as HTMLElement;
      const times: number[] = [];
      for (let i = 1; i <= 40; i++) {
        const t0 = performance.now();
        body.scrollTop = (body.scrollHeight * i) / 40;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        times.push(performance.now() - t0);
      }
      return { times, rows: document.querySelectorAll('.vt-row').length, last: [...document.querySelectorAll('.vt-row')].map((r) => Number((r as HTMLElement).dataset.index)).sort((a, b) => b - a)[0] };
    });
    assert.ok(frames.rows < 80, `${frames.rows} rows in the page`);
    assert.equal(frames.last, 49_999);
    const median = frames.times.sort((a, b) => a - b)[20];
    assert.ok(median < 100, `median scroll frame ${median.toFixed(1)} ms`);
    const sortMs = await p.evaluate(async () => {
      const t0 = performance.now();
      (document.querySelector('.vt-head div:nth-child(3)') as HTMLElement).click();
      await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t0;
    });
    assert.ok(sortMs < 3_000, `sort took ${sortMs} ms`);
    await p.fill('input[aria-label=filter]', 'record 499');
    await p.waitForFunction(() => /100 of 50,000 rows/.test(document.querySelector('.vt')?.previousElementSibling?.textContent ?? ''), null, { timeout: 10_000 });
    await p.screenshot({ path: join(SHOTS, 'table-50k.png') });
    // Failure reasons of the queries that failed, and a running request cancelled from its page.
    const partial = await c.run('/maps/search', ['n=2', 'fail']);
    await p.goto(`${t.url}/app#/requests/${partial.id}`);
    await p.waitForSelector('[role=alert]');
    assert.match(await p.textContent('[role=alert]') ?? '', /1 query failed\s*fail — layout_changed: /);
    const { id } = await c.submit('/engine-places-by-domain', ['sleep=30000', 'sleep=30000']);
    await p.goto(`${t.url}/app#/requests`);
    await p.waitForSelector(`tr[data-id="${id}"] button.danger`);
    await p.goto(`${t.url}/app#/requests/${id}`);
    await p.waitForSelector('strong.pct');
    assert.equal(await p.textContent('strong.pct'), '0 %');
    await p.screenshot({ path: join(SHOTS, 'request-running.png') });
    await p.click('button.danger:has-text("Cancel")');
    // Failure, shown as Cancelled since that is why it ended, with the reason.
    await p.waitForSelector('.status.Cancelled', { timeout: 15_000 });
    assert.match(await p.textContent('[role=alert]') ?? '', /^Reason: cancelled: /);
    assert.equal((await c.state(id)).status, 'Failure');
    await p.close();
  } finally {
    if (t) await stopTrawl(t);
    rmSync(dir, { recursive: true, force: true });
  }
});
