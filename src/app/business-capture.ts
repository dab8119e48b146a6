/**
 * Fills the business database from scrapes (issue 13): when an item of a place-finding endpoint
 * completes, its places are upserted, keyed by os_id, so a re-scrape updates rather than duplicates.
 * Owner: the account that asked, or the shared pool with BUSINESSES_SHARED (docs/businesses.md).
 *
 * @example await captureBusinesses(store, settings, item)
 */
import type { Store, WorkItem } from '../store/contract.ts';
import { OPEN_DATA } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { businessFromPlace } from '../store/businesses/from-place.ts';
import type { BusinessRecord } from '../store/businesses/contract.ts';

/** Endpoints whose records are places (a map reviews element is a place with its reviews). */
export const PLACE_ENDPOINTS = new Set(['/maps/search', '/engine-places-by-domain', '/maps/reviews']);

export async function captureBusinesses(store: Store, o: { shared: boolean; now: number }, item: WorkItem): Promise<number> {
  if (!PLACE_ENDPOINTS.has(item.endpoint)) return 0;
  const found: BusinessRecord[] = [];
  // Read back what the store kept for this query: it is the same whether the item streamed its
  // records in chunks or handed them over at the end.
  for await (const part of store.readResults(item.requestId, item.queryIndex - 1)) {
    if (part.queryIndex !== item.queryIndex) break;
    for (const r of JSON.parse(part.recordsJson) as Record<string, unknown>[]) {
      const b = r && typeof r === 'object' ? businessFromPlace(r, item.endpoint) : null;
      if (b) found.push(b);
    }
  }
  if (found.length) await businessStoreOf(store).upsertBusinesses(o.shared ? OPEN_DATA : item.accountId, found, o.now);
  return found.length;
}
