/**
 * The dashboard as a newcomer meets it (issue 27), in Debian's Chromium driven by playwright-core
 * against real `trawl serve` processes: the landing page within its own policy, plain help with an
 * example and a cost estimate, results brought into view, failure reasons on Run and in the
 * Requests list (status colours, paging, times with their zone), a map with offline borders and
 * labels on hover (and the operator's tiles when set), the Businesses page's map and empty-state
 * hint, an area picked on Run and its coverage once searched (loopback map site), and every page at 390 px. Screenshots go to test-artifacts/dashboard/ (not committed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startServe, type Served } from './support/serve-real.ts';
import { startTrawl, stopTrawl, type TrawlProc } from './support/cluster.ts';
import { TrawlClient } from '../clients/typescript/src/client.ts';
import { mapSite } from './support/map-site.ts';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM} (CI installs Debian's chromium; set CHROMIUM_PATH)`;
const SHOTS = join('test-artifacts', 'dashboard');
// A 1×1 PNG: what the stand-in tile server answers for every tile.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let real: Served;
let browser: Browser;
let page: Page;
const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

async function signedIn(url: string, key: string, o: { width?: number; timezoneId?: string } = {}): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: o.width ?? 1280, height: 860 }, timezoneId: o.timezoneId });
  const p = await ctx.newPage();
  p.setDefaultTimeout(30_000);
  await p.goto(`${url}/app`);
  await p.fill('#api-key', key);
  await p.click('button[type=submit]');
  await p.waitForSelector('#endpoint');
  return p;
}

/** The violations of the page's content security policy the browser reports, from the page's start. */
async function watchPolicy(p: Page): Promise<string[]> {
  const seen: string[] = [];
  p.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text()); });
  return seen;
}

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  [real, browser] = await Promise.all([startServe(), chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] })]);
  page = await signedIn(real.url, real.key);
});
after(async () => {
  await browser?.close();
  await real?.close();
});

test('landing page: styled by its own stylesheet with nothing its policy refuses, a favicon, and it fits 390 px', { skip, timeout: 60_000 }, async () => {
  for (const width of [1280, 390]) {
    const p = await browser.newPage({ viewport: { width, height: 860 } });
    const violations = await watchPolicy(p);
    const res = await p.goto(real.url);
    assert.match(res!.headers()['content-security-policy'], /style-src 'self'/);
    await p.waitForLoadState('load');
    assert.deepEqual(violations, []);
    // Styled: the heading is white on the dark band, the primary link is a blue button.
    assert.equal(await p.$eval('h1', (e) => getComputedStyle(e).color), 'rgb(255, 255, 255)');
    assert.equal(await p.$eval('a.button.primary', (e) => getComputedStyle(e).backgroundColor), 'rgb(37, 99, 235)');
    const icon = await p.$eval('link[rel=icon]', (e) => (e as HTMLLinkElement).href);
    const fav = await p.request.get(icon);
    assert.equal(fav.headers()['content-type'], 'image/svg+xml');
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth) <= width, 'no sideways scrolling');
    await shot(p, `landing-${width}`);
    await p.close();
  }
});

test('Run: plain help on every endpoint, an example to click, and a cost estimate from the account\'s prices', { skip, timeout: 120_000 }, async () => {
  const violations = await watchPolicy(page);
  const paths = await page.$$eval('#endpoint option', (o) => o.map((x) => (x as HTMLOptionElement).value));
  for (const path of paths) {
    await page.selectOption('#endpoint', path);
    const text = await page.$eval('form', (f) => (f as HTMLElement).innerText);
    for (const jargon of ['`', 'Extension (not in the interface)', 'Forces ui=true', 'Forces async=true', 'Service id', 'interface table', 'Also read as']) {
      assert.ok(!text.includes(jargon), `${path}: "${jargon}" in the help`);
    }
  }
  await page.selectOption('#endpoint', '/maps/search');
  await page.click('#use-example');
  assert.equal(await page.inputValue('#queries'), 'coffee shops in Athens, Greece\nbakeries in Lyon, France');
  // 2 queries × 20 places × 0.003 (the default price) = 0.12; with an enrichment of 0.0005 a place, 0.14.
  await page.fill('#p-limit', '20');
  await page.waitForFunction(() => document.querySelector('#estimate')?.textContent?.includes('at most 0.12 USD'));
  assert.match(await page.textContent('#estimate') ?? '', /2 queries × up to 20 places × 0\.003 USD/);
  await page.check('#p-enrichment input[value=phones_enricher_service]');
  await page.waitForFunction(() => document.querySelector('#estimate')?.textContent?.includes('at most 0.14 USD'));
  await page.fill('#p-limit', '');
  await page.waitForFunction(() => document.querySelector('#estimate')?.textContent?.includes('at most 3.50 USD'), null, { timeout: 5_000 });
  await shot(page, 'run-help');
  await page.selectOption('#endpoint', '/reverse-geocoding');
  await page.click('#use-example');
  await page.waitForFunction(() => document.querySelector('#estimate')?.textContent?.includes('at most 0.002 USD'));
  assert.deepEqual(violations, []);
});

test('Run: the records are scrolled into view; a map of them over offline borders labels a place on hover', { skip, timeout: 120_000 }, async () => {
  await page.selectOption('#endpoint', '/reverse-geocoding');
  await page.fill('#queries', '48.8584 2.2945');
  assert.ok(await page.$eval('#queries', (e) => e.getBoundingClientRect().top) < 860);
  await page.click('button[type=submit]');
  await page.waitForSelector('.vt-row');
  await page.waitForFunction(() => { const r = document.querySelector('.vt')!.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight - 100; }, null, { timeout: 5_000 });
  await page.click('.tabs button:has-text("Map")');
  await page.waitForSelector('.map[data-drawn=borders]');
  // One point: the map is centred on it (hover: the canvas scrolled into view, the pointer on its centre).
  await page.hover('.map canvas');
  await page.waitForSelector('.map .tip[data-kind=place]');
  assert.match(await page.textContent('.map .tip') ?? '', /Paris/);
  // Off the point: the country under the cursor.
  const b = (await page.$eval('.map canvas', (c) => ({ width: c.clientWidth, height: c.clientHeight })));
  await page.hover('.map canvas', { position: { x: b.width / 2 + 150, y: b.height / 2 + 60 } });
  await page.waitForSelector('.map .tip[data-kind=region]');
  assert.match(await page.textContent('.map .tip') ?? '', /France/);
  await shot(page, 'run-map');
  // At street level the offline coastline is not exact: land and sea are not filled, and the map says so.
  assert.ok(await page.isVisible('.map .legend-note'));
  // Zoomed out (the buttons) to France and its neighbours: land, sea and borders all drawn, so the
  // canvas holds the colours of land and sea (and more: lines, the point).
  for (let i = 0; i < 11; i++) await page.click('.map-zoom button[title="Zoom out"]');
  await page.waitForTimeout(300);
  const colours = await page.$eval('.map canvas', (c) => {
    const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return [...seen];
  });
  assert.ok(colours.includes(0xf7f5ef) && colours.includes(0xdbe8f5) && colours.length > 4, `land and sea: ${colours.length} colours`);
  assert.ok(!(await page.isVisible('.map .legend-note')));
  await shot(page, 'run-map-europe');
});

test('Businesses: an empty database says how to fill it; once filled, the page\'s businesses are on the map', { skip, timeout: 180_000 }, async (t) => {
  await page.goto(`${real.url}/app#/businesses`);
  await page.waitForSelector('#biz-query');
  await page.click('#biz-search');
  await page.waitForSelector('#biz-empty');
  assert.match(await page.textContent('#biz-empty') ?? '', /The business database is empty\..*npx trawl businesses import/s);
  await shot(page, 'businesses-empty');
  const monaco = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm', 'monaco.osm.gz');
  if (!existsSync(monaco)) return t.skip(`fixture ${monaco} absent (see ../shared/fixtures/osm/SOURCES.md)`);
  const imported = spawnSync(process.execPath, ['bin/trawl.js', 'businesses', 'import', monaco, '--country', 'MC'], { env: { ...process.env, DATA_DIR: real.dir }, encoding: 'utf8' });
  assert.equal(imported.status, 0, imported.stderr);
  await page.fill('#biz-query', 'restaurants in monaco');
  await page.click('#biz-search');
  await page.waitForSelector('#biz-results tr[data-os-id]');
  const rows = (await page.$$('#biz-results tr[data-os-id]')).length;
  await page.waitForSelector('#biz-results .map[data-drawn=borders]');
  assert.equal(Number(await page.getAttribute('#biz-results .map', 'data-points')), rows, 'every business of the page has coordinates');
  await shot(page, 'businesses-map');
});

test('the operator\'s tile server: allowed by the policy, drawn under the borders, credited', { skip, timeout: 120_000 }, async () => {
  const asked: string[] = [];
  const tiles: Server = createServer((req, res) => { asked.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'image/png' }).end(PNG); });
  await new Promise<void>((r) => tiles.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
  const s = await startServe({ MAP_TILE_URL: `${origin}/tiles/{z}/{x}/{y}.png`, MAP_TILE_ATTRIBUTION: '© Test tiles' });
  try {
    const p = await signedIn(s.url, s.key);
    const violations = await watchPolicy(p);
    assert.match((await p.request.get(`${s.url}/app`)).headers()['content-security-policy'], new RegExp(`img-src 'self' data: blob: ${origin};`));
    await p.goto(`${s.url}/app#/run?endpoint=/reverse-geocoding`);
    await p.waitForSelector('#queries');
    await p.fill('#queries', '40.7580 -73.9855\n40.6892 -74.0445');
    await p.click('button[type=submit]');
    await p.waitForSelector('.vt-row');
    await p.click('.tabs button:has-text("Map")');
    await p.waitForSelector('.map[data-drawn=tiles]');
    await p.waitForFunction(() => Number(document.querySelector<HTMLElement>('.map')?.dataset.tiles) > 0);
    assert.ok(asked.length > 0 && asked.every((u) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(u)), asked.join());
    const z = Number(asked[0].split('/')[2]);
    assert.ok(z >= 9 && z <= 16, `zoom ${z} for two points 7 km apart`);
    assert.equal(await p.textContent('.map .attribution'), '© Test tiles');
    assert.deepEqual(violations, []);
    await shot(p, 'map-tiles');
    await p.context().close();
  } finally {
    await s.close();
    tiles.close();
  }
});

test('failure reasons on Run and in Requests; status colours; paging; times with their zone (test adapter)', { skip, timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-dash-'));
  let t: TrawlProc | undefined;
  try {
    t = await startTrawl({ DATA_DIR: dir, PORT: '0' });
    const c = new TrawlClient({ apiKey: t.key, baseUrl: t.url });
    const p = await signedIn(t.url, t.key, { timezoneId: 'Europe/Paris' });
    // A synchronous run that fails says why, both as a body (most endpoints) and as a 204's header.
    for (const endpoint of ['/maps/search', '/engine-places-by-domain']) {
      await p.goto(`${t.url}/app#/run?endpoint=${endpoint}`);
      await p.waitForSelector('#queries');
      await p.fill('#queries', 'fail');
      await p.click('button[type=submit]');
      await p.waitForSelector('[role=alert]');
      assert.match(await p.textContent('[role=alert]') ?? '', /layout_changed: test: no expected data/, endpoint);
    }
    await shot(p, 'run-failure');
    // 22 successes, then one cancelled: 25 requests, two pages of 20.
    for (let i = 0; i < 22; i++) await c.run('/maps/search', [`n=${i + 1}`]);
    const { id: cancelled } = await c.submit('/maps/search', ['sleep=20000']);
    await c.cancel(cancelled);
    await p.goto(`${t.url}/app#/requests`);
    await p.waitForSelector('table.list tr.link');
    assert.equal((await p.$$('table.list tr.link')).length, 20);
    const first = p.locator(`tr[data-id="${cancelled}"]`);
    assert.equal(await first.locator('.status').textContent(), 'Cancelled');
    assert.match(await first.locator('.reason').textContent() ?? '', /^cancelled: /);
    assert.equal(await first.locator('.bar > div').getAttribute('class'), 'Cancelled');
    assert.equal(await p.locator('tr.link .bar > div.Success').count() > 0, true);
    assert.notEqual(await p.$eval('.bar > div.Cancelled', (e) => getComputedStyle(e).backgroundColor), await p.$eval('.bar > div.Success', (e) => getComputedStyle(e).backgroundColor));
    // One convention: year first, the browser's zone named (Paris here).
    const created = await first.locator('td').nth(6).textContent();
    assert.match(created ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d (GMT\+1|GMT\+2|CET|CEST)$/);
    await shot(p, 'requests-page-1');
    await p.click('#requests-next');
    await p.waitForFunction(() => document.querySelector('#requests-page')?.textContent === 'Page 2');
    const second = await p.$$eval('table.list tr.link', (rs) => rs.map((r) => (r as HTMLElement).dataset.id));
    assert.equal(second.length, 5);
    assert.ok(!second.includes(cancelled));
    const failed = p.locator('tr.link', { has: p.locator('.status.Failure') });
    assert.equal(await failed.count(), 2, 'the two failed runs, oldest, on page 2');
    assert.match(await failed.first().locator('.reason').textContent() ?? '', /^layout_changed: /);
    await shot(p, 'requests-page-2');
    await p.click('#requests-prev');
    await p.waitForFunction(() => document.querySelector('#requests-page')?.textContent === 'Page 1');
    await p.context().close();
  } finally {
    if (t) await stopTrawl(t);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('390 px wide: every page fits (no sideways scrolling of the page), the navigation shows every tab', { skip, timeout: 180_000 }, async () => {
  const p = await signedIn(real.url, real.key, { width: 390 });
  for (const [hash, ready] of [['#/run', '#queries'], ['#/requests', 'table.list, p.muted'], ['#/tasks', '#task-service'], ['#/businesses', '#biz-query'], ['#/monitors', '#monitor-create'], ['#/account', '#balance']]) {
    await p.goto(`${real.url}/app${hash}`);
    await p.waitForSelector(ready);
    await p.waitForTimeout(300);
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth) <= 390, `${hash}: ${await p.evaluate(() => document.documentElement.scrollWidth)} px wide`);
    const tabs = await p.$$eval('header nav a', (as) => as.map((a) => { const r = a.getBoundingClientRect(); return r.right <= innerWidth && r.left >= 0 && r.height > 0; }));
    assert.deepEqual(tabs, [true, true, true, true, true, true], hash);
    await shot(p, `narrow-${hash.slice(2)}`);
  }
  await p.context().close();
});

test('Run: an area picked from the locations, drawn as a box, or pasted as GeoJSON is sent with the search; a wrong one is the API\'s 422', { skip, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-dash-'));
  let t: TrawlProc | undefined;
  try {
    t = await startTrawl({ DATA_DIR: dir, PORT: '0' });
    const p = await signedIn(t.url, t.key);
    await p.goto(`${t.url}/app#/run?endpoint=/maps/search`);
    await p.waitForSelector('#p-area');
    // A location: the country's list searched, one picked.
    await p.fill('#area-country', 'us');
    await p.press('#area-country', 'Tab');
    await p.waitForSelector('#area-search:not([disabled])');
    await p.fill('#area-search', 'nevada');
    await p.click('#area-results button[data-value="US>Nevada"]');
    assert.equal(await p.inputValue('#p-area'), 'US>Nevada');
    // A box: dragged on the world map, read back as west,south,east,north.
    await p.click('.area-modes button:has-text("A box on the map")');
    await p.waitForSelector('.area-map[data-drawn=borders]');
    const b = (await (await p.$('#area-map'))!.boundingBox())!;
    await p.mouse.move(b.x + b.width * 0.25, b.y + b.height * 0.3);
    await p.mouse.down();
    await p.mouse.move(b.x + b.width * 0.3, b.y + b.height * 0.4, { steps: 5 });
    await p.mouse.up();
    const box = (await p.inputValue('#p-area')).split(',').map(Number);
    assert.equal(box.length, 4);
    const [w, s, e, n] = box;
    assert.ok(w < e && s < n && w > -100 && e < -60 && s > 0 && n < 80, `a box in the western hemisphere's north: ${box}`);
    await shot(p, 'run-area-box');
    // Sent with the search (the test adapter finds its 3 records; the area is accepted).
    await p.fill('#queries', 'n=3');
    await p.click('button[type=submit]');
    await p.waitForSelector('.vt-row');
    // GeoJSON that crosses itself: the API's 422, naming the problem.
    await p.click('.area-modes button:has-text("GeoJSON")');
    await p.fill('#area-geojson', '{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}');
    assert.match(await p.inputValue('#p-area'), /^\{"type":"Polygon"/);
    await p.click('button[type=submit]');
    await p.waitForSelector('[role=alert]');
    assert.match(await p.textContent('[role=alert]') ?? '', /^422 Unprocessable Entity.*crosses itself/);
    await p.context().close();
  } finally {
    if (t) await stopTrawl(t);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an area search run from the dashboard ends with its coverage table and its places on the map (loopback map site)', { skip, timeout: 240_000 }, async () => {
  const AREA = '-115.35,36.0,-115.0,36.3';
  const dir = mkdtempSync(join(tmpdir(), 'trawl-dash-area-'));
  const site = mapSite({ area: resolveArea(AREA), places: 2000, seed: 7 });
  const http = await site.listen({ delayMs: 40 });
  let t: TrawlProc | undefined;
  try {
    t = await startTrawl({ DATA_DIR: dir, PORT: '0', MAP_SITE_URL: http.url, ALLOW_PRIVATE_TARGETS: 'true' });
    const p = await signedIn(t.url, t.key);
    await p.goto(`${t.url}/app#/run?endpoint=/maps/search`);
    await p.waitForSelector('#p-area');
    await p.fill('#queries', 'dentist');
    await p.fill('#p-area', AREA);
    await p.fill('#p-limit', '100000');
    await p.selectOption('#mode', 'async');
    await p.click('button[type=submit]');
    await p.waitForURL(/#\/requests\/[0-9a-f-]{36}$/);
    // While it runs: views searched of those planned, and the views still to search on a map.
    await p.waitForSelector('#area-progress .views-map[data-drawn=borders]', { timeout: 60_000 });
    assert.ok(Number(await p.getAttribute('#area-progress .views-map', 'data-views')) > 0);
    assert.match(await p.textContent('#area-progress') ?? '', /\d+ of \d+ views searched, \d+ saturated/);
    await shot(p, 'request-area-running');
    await p.waitForSelector('#area-coverage', { timeout: 180_000 });
    const row = await p.$$eval('#area-coverage tr:nth-child(2) td', (tds) => tds.map((td) => td.textContent ?? ''));
    assert.deepEqual(row.slice(0, 2), ['dentist', AREA], 'each query named with its area');
    assert.ok(Number(row[2].replace(/,/g, '')) > 5, `views searched: ${row[2]}`);
    assert.match(row[7], /^\d+\.\d %$/);
    const found = Number(row[5].replace(/,/g, ''));
    assert.ok(found >= 0.9 * site.insideCount, `${found} of ${site.insideCount} places`);
    await p.click('.tabs button:has-text("Map")');
    await p.waitForSelector('.map[data-drawn=borders]');
    const points = Number(await p.getAttribute('.map', 'data-points'));
    assert.ok(points >= 0.9 * site.insideCount && points <= found, `${points} places on the map, ${found} found`);
    await shot(p, 'request-area');
    await p.context().close();
  } finally {
    if (t) await stopTrawl(t);
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
