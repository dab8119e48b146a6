/**
 * A test-only web adapter for the bot wall of bench/botwall-lib.ts (never served): one page a
 * query, `<wall>/search?q=<query>`, whose answer must name the query (`data-q`), one record.
 * `trawl worker` processes of the cluster bench (bench/botwall-cluster.bench.ts) run it through
 * their executor, proxies and shared pacing, on the real queue.
 *
 * @example const adapter = wallAdapter('https://127.0.0.1:4433');
 */
import type { WebAdapter } from '../../src/sources/_kit/adapter.ts';
import { SourceError } from '../../src/sources/_kit/errors.ts';

export function wallAdapter(base: string, endpoint = '/maps/search'): WebAdapter {
  return {
    kind: 'web', endpoint,
    plan: ({ query }) => [{ kind: 'page', url: `${base}/search?q=${encodeURIComponent(query)}`, expect: 'html' }],
    parse(_step, res, { query }) {
      if (!res.body.includes(`data-q="${query}"`)) throw new SourceError('layout_changed', 'wall: the answer does not name the query');
      return { records: [{ q: query }], next: [] };
    },
  };
}
