/**
 * Never a silent truncation beyond the map product (issue 34, item 1), over HTTP: the review feeds
 * whose answers state a count (/launchsite-reviews: the product's `reviewsCount`; /rentals-reviews:
 * `metadata.reviewsCount`; /bizdir-reviews: the feed's `totalCount`) end a list that stops short of
 * it with `incomplete`, its records kept and billed. A whole list, one the query's cutoff or limit
 * stops, and one resumed from a cursor have no reason. Loopback site of constructed answers (the
 * launch site's constructed sample; no capture of it exists).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import type { Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { adapter as launchsite } from '../src/sources/launchsite-reviews/adapter.ts';
import { ORIGIN } from '../src/sources/launchsite-reviews/plan.ts';

const sample = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
const PAGE = sample('../src/sources/launchsite-reviews/constructed-product-page.html');
const ANSWER = JSON.parse(sample('../src/sources/launchsite-reviews/constructed-reviews-answer.json'));
const DAY = 86_400_000;

/** The launch site: `served` reviews in pages of 20, newest first, under a product that states `stated`. */
async function launchSite(o: { stated: number; served: number }) {
  const base = ANSWER.data.product.reviews.edges;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (!req.url?.includes('/frontend/graphql')) return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      // Variables in the body (a query text sent) or the URL (a persisted query's GET).
      let after: string | null = null;
      const inUrl = new URL(req.url, 'http://x').searchParams.get('variables');
      try { after = JSON.parse(inUrl ?? body).variables?.after ?? JSON.parse(inUrl ?? body).after ?? null; } catch { /* first page */ }
      const from = after ? Number(after.slice(1)) : 0;
      const to = Math.min(o.served, from + 20);
      const a = structuredClone(ANSWER);
      a.data.product.reviewsCount = o.stated;
      a.data.product.reviews.totalCount = o.stated;
      a.data.product.reviews.edges = Array.from({ length: to - from }, (_, k) => ({ node: { ...base[(from + k) % base.length].node, id: `${from + k}`, createdAt: new Date(Date.UTC(2026, 9, 1) - (from + k) * DAY).toISOString() } }));
      a.data.product.reviews.pageInfo = { endCursor: `c${to}`, hasNextPage: to < o.served };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }) };
}

/** The adapter asking the loopback site in place of the product's origin. */
function onOrigin(adapter: WebAdapter, origin: string, base: string): WebAdapter {
  const moved = (s: Step): Step => (s.url.startsWith(origin) ? { ...s, url: base + s.url.slice(origin.length) } : s);
  return { ...adapter, plan: (ctx) => adapter.plan(ctx).map(moved), parse: (step, res, ctx) => { const out = adapter.parse(step, res, ctx); return out.next ? { ...out, next: out.next.map(moved) } : out; } };
}

async function withLaunchSite(o: { stated: number; served: number }, run: (get: (extra: string) => Promise<any>) => Promise<void>) {
  const site = await launchSite(o);
  const h = await startHarness({ adapters: registryOfAdapters([onOrigin(launchsite as WebAdapter, ORIGIN, site.url)]), settings: { allowPrivateTargets: true }, balance: 1e6 });
  try {
    await run(async (extra) => {
      const r = await h.json(`/launchsite-reviews?query=quillmark&async=false${extra}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    });
  } finally {
    await h.close();
    await site.close();
  }
}

test('a review feed that ends short of the count its answer states ends incomplete, its records kept and billed', { timeout: 60_000 }, async () => {
  await withLaunchSite({ stated: 57, served: 45 }, async (get) => {
    const body = await get('&limit=1000');
    assert.equal(body.status, 'Success');
    assert.equal(body.data[0].length, 45);
    assert.deepEqual(body.errors?.map((e: any) => e.error.type), ['incomplete']);
    assert.match(body.errors[0].error.message, /1 list read short; quillmark: read 45 of the 57 the answer states/);
    // The query's own bounds are no shortfall: a limit, a cutoff.
    const cut = await get('&limit=30');
    assert.equal(cut.data[0].length, 30);
    assert.equal(cut.errors, undefined);
    const since = Math.floor((Date.UTC(2026, 9, 1) - 10.5 * DAY) / 1000);
    const recent = await get(`&limit=1000&cutoff=${since}`);
    assert.equal(recent.data[0].length, 11);
    assert.equal(recent.errors, undefined, 'the cutoff stopped it');
    // Resumed from a cursor, the list is read from its middle: nothing to compare.
    const rest = await get(`&limit=1000&cursor=${encodeURIComponent(cut.data[0][29].next_page_cursor)}`);
    assert.equal(rest.data[0].length, 15);
    assert.equal(rest.errors, undefined);
  });
  await withLaunchSite({ stated: 57, served: 57 }, async (get) => {
    const body = await get('&limit=1000');
    assert.equal(body.data[0].length, 57);
    assert.equal(body.errors, undefined, 'a whole list has no reason');
  });
});
