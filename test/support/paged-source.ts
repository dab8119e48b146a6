/**
 * A constructed paged source for tests (no real site has this shape): a loopback HTTP server that
 * serves `total` records per query in pages of `pageSize`, counting every page it serves, and a
 * test-only web adapter walking it page by page, served on /bizdir-reviews (a paged endpoint: it
 * declares `cursor` and `limit`). The adapter has no `finish`, so the runner streams its records.
 *
 *   GET /pages?q=<query>&page=<n>  →  {"records": [{id, i, text}...], "more": bool}
 *
 * @example
 *   const src = await startPagedServer({ total: 100, pageSize: 7 });
 *   const adapter = pagedAdapter(src.url);   // src.hits: how often each page was served
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebAdapter } from '../../src/sources/_kit/adapter.ts';
import { SourceError } from '../../src/sources/_kit/errors.ts';

export interface PagedServer {
  url: string;
  /** `<query>:<page>` → times served. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startPagedServer(o: { total: number; pageSize: number; delayMs?: number }): Promise<PagedServer> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = u.searchParams.get('q') ?? '';
    const page = Number(u.searchParams.get('page') ?? 0);
    const key = `${q}:${page}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const from = page * o.pageSize;
    const records = [];
    for (let i = from; i < Math.min(o.total, from + o.pageSize); i++) records.push({ id: `${q}-${i}`, i, text: `constructed review ${i} of ${q}` });
    const body = JSON.stringify({ records, more: from + o.pageSize < o.total });
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), o.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

const pageStep = (base: string, query: string, page: number) => ({
  kind: 'page', url: `${base}/pages?q=${encodeURIComponent(query)}&page=${page}`, expect: 'json' as const, state: { page },
});

/** The adapter for the server at `base` (tests only; never served). */
export function pagedAdapter(base: string, endpoint = '/bizdir-reviews'): WebAdapter {
  return {
    kind: 'web', endpoint,
    plan: ({ query }) => [pageStep(base, query, 0)],
    parse(step, res, { query }) {
      let body: { records?: unknown; more?: unknown };
      try { body = JSON.parse(res.body); } catch { throw new SourceError('layout_changed', 'constructed source: not JSON'); }
      if (!Array.isArray(body.records)) throw new SourceError('layout_changed', 'constructed source: no records');
      const page = Number(step.state?.page ?? 0);
      return { records: body.records as Record<string, unknown>[], next: body.more ? [pageStep(base, query, page + 1)] : [] };
    },
  };
}
