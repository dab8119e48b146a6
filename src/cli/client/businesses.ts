/**
 * `trawl businesses search "<text>" | get <id>`: the business database through the API, with the
 * user's key (the import and export beside them are operator commands on the store, src/cli/businesses.ts).
 *
 *   trawl businesses search "cafes in monaco" [--filters JSON] [--limit N] [--json]
 *   trawl businesses get <os_id> [--json]
 *
 * `search` sends `query` (the natural-language text) with `include_total`, prints what it was read as
 * (`parsed_query`), then one page as a table (name, category, city, phone, site, rating, os_id).
 */
import type { TrawlClient } from '../../../clients/typescript/src/client.ts';
import { UsageError } from './args.ts';
import { table } from './output.ts';

export const BUSINESSES_OPTIONS = { filters: 'string', limit: 'string' } as const;

interface Page { items: Record<string, unknown>[]; total?: number; has_more: boolean; parsed_query?: Record<string, unknown> }

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export async function businessesClientCommand(client: TrawlClient, positionals: string[], options: Record<string, string | boolean>): Promise<number> {
  const [sub, ...rest] = positionals;
  const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  if (sub === 'get') {
    if (rest.length !== 1) throw new UsageError('trawl businesses get needs one business id (an os_id from a search)');
    const b = await client.business(rest[0]);
    print(b);
    return 0;
  }
  if (sub !== 'search') throw new UsageError('trawl businesses search "<text>" [--filters JSON] [--limit N] | get <id>');
  const text = rest.join(' ').trim();
  let filters: unknown;
  if (typeof options.filters === 'string') {
    try { filters = JSON.parse(options.filters); } catch { throw new UsageError('--filters must be JSON, the filters object of POST /businesses'); }
  }
  if (!text && filters === undefined) throw new UsageError('give the search as text ("cafes in monaco") or --filters JSON');
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be an integer from 1 to 1000');
  const page = await client.json<Page>('POST', '/businesses', { body: { ...(text ? { query: text } : {}), ...(filters !== undefined ? { filters } : {}), limit, include_total: true } });
  if (options.json) { print(page); return 0; }
  if (page.parsed_query) process.stdout.write(`read as: ${JSON.stringify(page.parsed_query)}\n`);
  if (!page.items.length) {
    process.stdout.write('no businesses found (fill the database with `trawl businesses import <OSM extract>` or a map search: docs/businesses.md)\n');
    return 0;
  }
  process.stdout.write(table([['name', 'category', 'city', 'phone', 'site', 'rating', 'os_id'],
    ...page.items.map((b) => [cell(b.name), cell(b.category), cell(b.city), cell(b.phone), cell(b.site), cell(b.rating), cell(b.os_id)])]));
  process.stdout.write(`${page.items.length} of ${page.total ?? page.items.length}${page.has_more ? ' (more with --limit, or page with POST /businesses cursor)' : ''}\n`);
  return 0;
}
