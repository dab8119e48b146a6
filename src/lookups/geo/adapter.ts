/**
 * `/reverse-geocoding` as a local adapter: coordinates in, one 2.6 record out, from shipped data,
 * optionally enriched by an operator-run engine (see engine/settings.ts).
 */
import type { LocalAdapter, LookupContext, QueryContext } from '../../sources/_kit/adapter.ts';
import { checkCoordinates, parseCoordinates } from './coordinates.ts';
import { engineReverse, unlessRefused } from './engine/client.ts';
import { mergeEngine } from './engine/merge.ts';
import { geocoderSettings } from './engine/settings.ts';
import type { ReverseGeocodingRecord } from './record.ts';
import { loadReverseGeocoder } from './reverse.ts';

/**
 * Record for one coordinate query. With an engine configured, street and postal_code come from it;
 * when the engine fails or times out the offline record is returned unchanged (one the SSRF guard
 * refuses fails the query, naming ALLOW_PRIVATE_TARGETS).
 *
 * @example
 *   await reverseGeocode('40.7624284, -73.973794', { settings: {} });
 *   // { query: '40.7624284, -73.973794', city: 'Manhattan', county: 'New York County', ... }
 */
export async function reverseGeocode(query: string, lookup: LookupContext = { settings: {} }): Promise<ReverseGeocodingRecord> {
  const { lat, lng } = parseCoordinates(query);
  const engine = geocoderSettings(lookup.settings);
  const pending = engine ? engineReverse(engine, lat, lng, lookup.signal).catch(unlessRefused(engine)) : null;
  // Awaited below, after the offline data: marked handled now so a refusal meanwhile is not "unhandled".
  pending?.catch(() => undefined);
  const geo = await loadReverseGeocoder();
  const offline = geo.reverse(lat, lng, query);
  const found = pending ? await pending : null;
  return found ? mergeEngine(offline, found) : offline;
}

/**
 * The adapter registered for `/reverse-geocoding` (unit `location`).
 *
 * @example
 *   reverseGeocodingAdapter.checkQuery?.('91,200'); // 'query "91,200" is not a coordinate pair: ...'
 *   await reverseGeocodingAdapter.lookup({ query: '48.8584,2.2945', params: {} }, { settings: {} });
 */
export const reverseGeocodingAdapter: LocalAdapter<Record<string, unknown>, ReverseGeocodingRecord> = {
  kind: 'local',
  endpoint: '/reverse-geocoding',
  checkQuery: checkCoordinates,
  async lookup(ctx: QueryContext<Record<string, unknown>>, lookup: LookupContext): Promise<ReverseGeocodingRecord[]> {
    return [await reverseGeocode(ctx.query, lookup)];
  },
  async warmUp(): Promise<void> {
    // A wrong GEOCODER_* environment fails start-up instead of every lookup.
    geocoderSettings({});
    await loadReverseGeocoder();
  },
};
