/**
 * The dashboard on a 390 px phone (issue 38: chart labels were 4-5 px tall, tables clipped their
 * last column, the Revoke button), in Debian's Chromium against a real `trawl serve`: the smallest
 * text of every chart is at least 11 px as drawn, and no table overflows its card: it fits, or the
 * card scrolls it sideways and the card itself fits the screen, with the last column reachable.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startServe, type Served } from './support/serve-real.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = !existsSync(CHROMIUM) && `Chromium not found at ${CHROMIUM} (CI installs Debian's chromium; set CHROMIUM_PATH)`;

let s: Served;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  const { chromium } = await import('playwright-core');
  [s, browser] = await Promise.all([startServe(), chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] })]);
  // Usage to chart, invoice lines, and a second key: a table with a Revoke button in its last column.
  const get = (path: string) => fetch(`${s.url}${path}`, { headers: { 'x-api-key': s.key } });
  assert.equal((await get('/directory-phones?query=%2B12125551234&query=%2B442079460958&async=false')).status, 200);
  assert.equal((await get('/reverse-geocoding?query=48.8584,2.2945&async=false')).status, 200);
  assert.equal((await fetch(`${s.url}/profile/keys`, { method: 'POST', headers: { 'x-api-key': s.key } })).status, 200);
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  page = await ctx.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${s.url}/app`);
  await page.fill('#api-key', s.key);
  await page.click('button[type=submit]');
  await page.waitForSelector('#endpoint');
});
after(async () => {
  await browser?.close();
  await s?.close();
});

/** The smallest text of the page's charts as drawn, in CSS pixels (SVG text times its scale on screen). */
const smallestChartText = (p: Page) => p.evaluate(() => {
  let least = Infinity;
  const seen: string[] = [];
  for (const chart of document.querySelectorAll('.chart')) {
    for (const el of chart.querySelectorAll<HTMLElement | SVGTextElement>('*')) {
      if (!el.textContent?.trim() || [...el.children].some((c) => c.textContent?.trim())) continue; // leaves with text only
      if (el.closest('.legend') || el.closest('title') || el.tagName === 'title') continue; // the legend is page text; tooltips are not drawn
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const scale = el instanceof SVGGraphicsElement ? Math.abs(el.getScreenCTM()?.d ?? 1) : 1;
      const px = parseFloat(style.fontSize) * scale;
      seen.push(`${el.textContent.trim()}:${px.toFixed(1)}`);
      least = Math.min(least, px);
    }
  }
  return { least, seen };
});

/** Tables wider than their card where the card does not scroll, or cards past the screen's edge. */
const overflowing = (p: Page) => p.evaluate(() => {
  const out: string[] = [];
  const screen = document.documentElement.clientWidth;
  for (const table of document.querySelectorAll('table')) {
    const card = table.closest<HTMLElement>('.card') ?? table.parentElement!;
    const box = card.getBoundingClientRect();
    if (box.right > screen + 0.5 || box.left < -0.5) out.push(`${table.id || table.className}: its card spans ${box.left.toFixed(0)} to ${box.right.toFixed(0)} of ${screen}`);
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(card).overflowX);
    if (table.scrollWidth > card.clientWidth + 0.5 && !scrolls) out.push(`${table.id || table.className}: ${table.scrollWidth} px in a ${card.clientWidth} px card that does not scroll`);
  }
  return out;
});

test('390 px, Account: chart labels at least 11 px, tables within their cards, Revoke reachable by scrolling the card', { skip, timeout: 180_000 }, async () => {
  await page.goto(`${s.url}/app#/account`);
  await page.waitForSelector('.usage-bar');
  await page.waitForSelector('tr[data-key] button.danger');
  await page.waitForSelector('#invoice-lines');
  const text = await smallestChartText(page);
  assert.ok(text.seen.length >= 2, `the chart has labels: ${text.seen.join(', ')}`);
  assert.ok(text.least >= 11, `smallest chart label ${text.least.toFixed(1)} px: ${text.seen.join(', ')}`);
  assert.deepEqual(await overflowing(page), []);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'the page does not scroll sideways');
  // The last column's button is reachable: scrolled into view inside its card, it lies on the screen.
  const revoke = page.locator('tr[data-key] button.danger').first();
  await revoke.scrollIntoViewIfNeeded();
  const b = (await revoke.boundingBox())!;
  assert.ok(b.x >= 0 && b.x + b.width <= 390, `Revoke at ${b.x}..${b.x + b.width}`);
});

test('390 px, Requests and Tasks: their tables within their cards', { skip, timeout: 120_000 }, async () => {
  for (const [hash, ready] of [['#/requests', 'table'], ['#/tasks', 'h1']] as const) {
    await page.goto(`${s.url}/app${hash}`);
    await page.waitForSelector(ready);
    await page.waitForTimeout(500);
    assert.deepEqual(await overflowing(page), [], hash);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `${hash}: no sideways scrolling`);
  }
});
