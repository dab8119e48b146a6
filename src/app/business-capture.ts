/**
 * Fills the business database from scrapes (issue 13): when an item of a place-finding endpoint
 * completes, its places are upserted, keyed by os_id, so a re-scrape updates rather than duplicates.
 * Owner: the account that asked, or the shared pool with BUSINESSES_SHARED (docs/businesses.md).
 *
 * @example await captureBusinesses(store, settings, item, records)
 */
import type { Store, WorkItem } from '../store/contract.ts';
import { OPEN_DATA } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { businessFromPlace } from '../store/businesses/from-place.ts';
import type { BusinessRecord } from '../store/businesses/contract.ts';

type Rec = Record<string, unknown>;

/** Endpoints whose records are places (a map reviews element is a place with its reviews). */
export const PLACE_ENDPOINTS = new Set(['/maps/search', '/engine-places-by-domain', '/maps/reviews']);

/**
 * `records`: the query's records as the runner held them; null when they were streamed to the store
 * in chunks, and then only those are read back (the runner never held them all at once).
 */
export async function captureBusinesses(store: Store, o: { shared: boolean; now: number }, item: WorkItem, records: Rec[] | null): Promise<number> {
  if (!PLACE_ENDPOINTS.has(item.endpoint)) return 0;
  const found: BusinessRecord[] = [];
  const take = (rs: Rec[]) => {
    for (const r of rs) {
      const b = r && typeof r === 'object' ? businessFromPlace(r, item.endpoint) : null;
      if (b) found.push(b);
    }
  };
  if (records) take(records);
  else {
    for await (const part of store.readResults(item.requestId, item.queryIndex - 1)) {
      if (part.queryIndex !== item.queryIndex) break;
      take(JSON.parse(part.recordsJson) as Rec[]);
    }
  }
  if (found.length) await businessStoreOf(store).upsertBusinesses(o.shared ? OPEN_DATA : item.accountId, found, o.now);
  return found.length;
}
