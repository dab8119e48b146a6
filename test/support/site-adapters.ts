/**
 * The adapters `test/support/serve-test.ts` serves, from its environment: the test-only adapter for
 * every endpoint, and the constructed sites' adapters where their URLs are set. Its parse threads
 * load the same (./site-parse-job.ts), so a query parses and plans there as in the service.
 *   PAGED_SOURCE_URL: /bizdir-reviews walks the constructed paged source there (./paged-source.ts).
 *   MAP_SITE_URL: /maps/search runs the real adapter against the loopback map site there (./map-site.ts).
 *   WALL_URL: /maps/search fetches the bench's bot wall there (./wall-source.ts), over TLS.
 */
import { testRegistry } from './test-adapter.ts';
import { pagedAdapter } from './paged-source.ts';
import { onSite } from './map-site.ts';
import { adapter as mapsSearchAdapter } from '../../src/sources/maps-search/adapter.ts';
import { wallAdapter } from './wall-source.ts';
import type { SourceAdapter } from '../../src/sources/_kit/adapter.ts';

export function siteAdapters(env: NodeJS.ProcessEnv = process.env) {
  const extra: SourceAdapter[] = env.PAGED_SOURCE_URL ? [pagedAdapter(env.PAGED_SOURCE_URL)] : [];
  if (env.MAP_SITE_URL) extra.push(onSite(mapsSearchAdapter, env.MAP_SITE_URL));
  if (env.WALL_URL) extra.push(wallAdapter(env.WALL_URL));
  return testRegistry(undefined, extra);
}
