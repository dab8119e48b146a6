/**
 * The dashboard's Monitors page (issue 29) in Debian's Chromium against a service on a fake clock and
 * a world that changes between runs: a monitor made with the form, its baseline on the timeline, the
 * next run's changes (a phone before and after, a place new, one gone) on the timeline and its chart,
 * a failed run with its reason, pause, and the page at 390 px. Screenshots go to test-artifacts/dashboard/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHarness, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { worldAdapter, type WorldRecord } from './support/world-adapter.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM} (CI installs Debian's chromium; set CHROMIUM_PATH)`;
const SHOTS = join('test-artifacts', 'dashboard');

const world = new Map<string, WorldRecord>();
const broken = { on: false };
let hs: Harness;
let browser: Browser;

async function signedIn(width = 1280): Promise<Page> {
  const p = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
  p.setDefaultTimeout(30_000);
  await p.goto(`${hs.url}/app`);
  await p.fill('#api-key', hs.key);
  await p.click('button[type=submit]');
  await p.waitForSelector('#endpoint');
  return p;
}
const doneRuns = (p: Page, n: number) => p.waitForFunction((k) => document.querySelectorAll('li.run[data-status=done], li.run[data-status=failed]').length >= k, n);

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import('playwright-core');
  [hs, browser] = await Promise.all([
    startHarness({ adapters: registryOfAdapters([worldAdapter(world, broken)]), settings: { monitorTickMs: 40 } }),
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] }),
  ]);
});
after(async () => {
  await browser?.close();
  await hs?.close();
});

test('monitors page: made with the form, baseline, then each change on the timeline; a failed run says why; pause; 390 px', { skip, timeout: 120_000 }, async () => {
  world.set('a', { place_id: 'a', name: 'Alpha Café', phone: '+1 512 555 0100', rating: 4.5 });
  world.set('b', { place_id: 'b', name: 'Beta Bar', phone: '+1 512 555 0101', rating: 4.0 });
  const page = await signedIn();
  await page.click('header nav a[href="#/monitors"]');
  await page.waitForSelector('.empty-hint');
  assert.match(await page.textContent('.empty-hint') ?? '', /trawl monitors create/);

  await page.selectOption('#monitor-endpoint', '/maps/search');
  await page.fill('#monitor-name', 'austin coffee');
  await page.fill('#monitor-queries', 'coffee austin');
  await page.selectOption('#monitor-every', '3600');
  await page.click('#monitor-create');
  await page.waitForFunction(() => /^#\/monitors\/[^/]+$/.test(location.hash));
  const id = (await page.evaluate(() => location.hash)).split('/')[2];
  assert.equal((await hs.json(`/monitors/${id}`)).body.schedule.every_s, 3600, 'the form made the monitor the API shows');

  // The first run: the baseline, recorded on the timeline with its records.
  await doneRuns(page, 1);
  assert.match(await page.textContent('li.run') ?? '', /baseline: 2 records recorded/);
  assert.match(await page.textContent('#monitor-title') ?? '', /austin coffee\s*active/);

  // The world changes; an hour later the next run's changes are on the timeline, the newest first.
  world.get('a')!.phone = '+1 512 555 0199';
  world.delete('b');
  world.set('c', { place_id: 'c', name: 'Gamma Grill', phone: null, rating: 4.8 });
  hs.clock.offset += 3_600_000;
  await doneRuns(page, 2);
  const newest = page.locator('li.run').first();
  assert.match(await newest.textContent() ?? '', /1 new · 1 changed · 1 gone/);
  const changed = newest.locator('li[data-kind=changed]');
  assert.match(await changed.textContent() ?? '', /phone: \+1 512 555 0100 → \+1 512 555 0199/);
  assert.equal(await changed.locator('.before').evaluate((e) => getComputedStyle(e).textDecorationLine), 'line-through');
  assert.match(await newest.locator('li[data-kind=new]').textContent() ?? '', /Gamma Grill/);
  assert.equal(await newest.locator('li[data-kind=gone]').count(), 1);
  // The chart: one bar per kind of change of that run, with its count in the tooltip.
  assert.equal(await page.locator('#monitor-chart rect.run-bar').count(), 3);
  assert.match(await page.locator('#monitor-chart rect.run-bar.changed title').textContent() ?? '', /1 changed/);
  await page.screenshot({ path: join(SHOTS, 'monitor-timeline.png'), fullPage: true });

  // A run that fails shows its reason; the monitor goes on.
  broken.on = true;
  hs.clock.offset += 3_600_000;
  await doneRuns(page, 3);
  assert.equal(await page.locator('li.run').first().getAttribute('data-status'), 'failed');
  assert.match(await page.locator('li.run').first().locator('.reason').textContent() ?? '', /the site blocks us today/);

  // Pause: the monitor says so and has no next run.
  await page.click('#monitor-toggle');
  await page.waitForFunction(() => /paused/.test(document.querySelector('#monitor-title')?.textContent ?? ''));
  assert.equal(await page.textContent('#monitor-next'), 'none while paused');
  assert.equal((await hs.json(`/monitors/${id}`)).body.status, 'paused');

  // The list shows it with its schedule in words; a row opens its page.
  await page.goto(`${hs.url}/app#/monitors`);
  const row = page.locator(`tr[data-monitor="${id}"]`);
  assert.match(await row.textContent() ?? '', /austin coffee.*\/maps\/search: coffee austin.*every 1 h.*paused.*3/);

  // A phone's width: the timeline fits without sideways scrolling.
  const narrow = await signedIn(390);
  await narrow.goto(`${hs.url}/app#/monitors/${id}`);
  await narrow.waitForSelector('li.run');
  assert.ok(await narrow.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no sideways scrolling at 390 px');
  await narrow.screenshot({ path: join(SHOTS, 'monitor-390.png'), fullPage: true });
});

test('a monitor the service paused (its account could not pay) shows why, on its page and in the list', { skip, timeout: 60_000 }, async () => {
  const made = await hs.json('/monitors', { method: 'POST', body: JSON.stringify({ endpoint: '/maps/search', queries: ['tea'], schedule: { every_s: 3600 }, status: 'paused', name: 'unpaid tea' }), headers: { 'content-type': 'application/json' } });
  const id = made.body.id as string;
  const why = 'its account cannot pay a run (balance plus credit limit used up): top up, then resume it';
  // The state the scheduler leaves (test/monitors.test.ts makes it over the API on both stores).
  await monitorStoreOf(hs.svc.ctx.store).updateMonitor(hs.account.id, id, { pausedReason: why }, hs.svc.ctx.now());
  assert.equal((await hs.json(`/monitors/${id}`)).body.paused_reason, why);
  const page = await signedIn();
  await page.goto(`${hs.url}/app#/monitors/${id}`);
  await page.waitForSelector('#monitor-paused-reason');
  assert.equal(await page.textContent('#monitor-paused-reason'), why);
  assert.match(await page.textContent('#monitor-title') ?? '', /unpaid tea\s*paused: cannot pay/);
  await page.goto(`${hs.url}/app#/monitors`);
  const row = page.locator(`tr[data-monitor="${id}"]`);
  assert.match(await row.textContent() ?? '', /unpaid tea.*paused: cannot pay/);
  assert.equal(await row.locator('.status').getAttribute('title'), why);
  // Resumed by the user (the account can pay): the reason goes.
  await page.goto(`${hs.url}/app#/monitors/${id}`);
  await page.click('#monitor-toggle');
  await page.waitForFunction(() => /active/.test(document.querySelector('#monitor-title')?.textContent ?? ''));
  assert.equal(await page.locator('#monitor-paused-reason').count(), 0);
});
