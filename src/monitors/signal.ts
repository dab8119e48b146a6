/**
 * Fetching only what moved (issue 29, item 4). Each endpoint has a cheap signal that says a record
 * may have changed before the costly read is paid for:
 *
 * - `/maps/reviews`: the place's review count and per-score counts in a cheaper place listing the
 *   account also monitors (a `/maps/search` monitor over the same places). A run after the baseline
 *   asks only for the places whose counts moved there since the reviews monitor last read them, and
 *   for each only the reviews newer than its newest seen (its own `cutoff`); the place as the
 *   listing showed it stands in for the place page, so a moved place costs its reviews pages alone.
 *   Without a listing run newer than the monitor's last run, every place is asked, each from its own
 *   newest review.
 * - Listings (`/maps/search`, `/places-by-domain`): the listing is itself the cheapest read of every
 *   place it shows, and carries every compared field: one search per run, no place page.
 *
 * What a monitor remembers for this (./compare.ts keeps it with the compared fields): `_sig`, the
 * review counts a record showed; for a listing's places also `_place`, the place as shown.
 *
 * @example const plan = await planRun(monitorStoreOf(store), monitor, false) // { queries, params, resting }
 */
import type { MonitorRow, MonitorStore } from '../store/monitors/contract.ts';
import { DEFAULT_REVIEWS_LIMIT, KNOWN_PLACES, type KnownPlace } from '../sources/maps-reviews/plan.ts';
import { summaryOf } from '../sources/maps-reviews/place.ts';
import type { PlaceRecord } from '../sources/_maps/record.ts';

type Rec = Record<string, unknown>;

/** Endpoints whose records are places as a listing shows them. */
export const LISTINGS = new Set(['/maps/search', '/maps/search-v2', '/maps/search-v3', '/places-by-domain']);

/** What a run remembers of a record for the cheap signal, beside its compared fields. */
export function signalOf(r: Rec): Rec {
  const out: Rec = {};
  if ('reviews' in r) out._sig = JSON.stringify([r.reviews ?? null, r.reviews_per_score ?? null]);
  // A listing's place (not a reviews element): what a reviews run needs instead of its place page.
  if (typeof r.engine_id === 'string' && !('reviews_data' in r) && 'reviews_link' in r) out._place = summaryOf(r as unknown as PlaceRecord);
  return out;
}

/** What to ask in one run: its queries, its parameters, and the queries left resting (nothing moved). */
export interface RunPlan { queries: string[]; params: Rec; resting: string[] }

/**
 * The account's listings that ran after `since`, by place id and engine id: the newest listing's
 * record wins.
 */
async function listingsAfter(store: MonitorStore, m: MonitorRow, since: number): Promise<Map<string, Rec>> {
  const fresh = (await store.listMonitors(m.accountId, { limit: 200 }))
    .filter((l) => LISTINGS.has(l.endpoint) && l.lastRunAt !== null && l.lastRunAt > since)
    .sort((a, b) => a.lastRunAt! - b.lastRunAt!);
  const out = new Map<string, Rec>();
  for (const l of fresh) {
    for (const v of (await store.seenRecords(l.id)).values()) {
      const place = v._place as Rec | undefined;
      if (!place) continue;
      if (typeof place.place_id === 'string') out.set(place.place_id, v);
      if (typeof place.engine_id === 'string') out.set(place.engine_id, v);
    }
  }
  return out;
}

/**
 * The run's queries and parameters. Reviews after the baseline: only the places whose counts moved
 * in a fresh listing, each from its newest review seen (the request's `cutoff` is the oldest of those,
 * for any adapter that reads only it); `reviewsLimit` is lifted, since the cutoff bounds what is read.
 * A `cutoff` the monitor's own parameters set is kept, and then every place is asked.
 */
export async function planRun(store: MonitorStore, m: MonitorRow, baseline: boolean): Promise<RunPlan> {
  const all: RunPlan = { queries: m.queries, params: m.params, resting: [] };
  // The baseline reads each place whole (its page): the places a listing shows would ride in the
  // request's parameters, which every query of the request reads again.
  if (baseline || m.endpoint !== '/maps/reviews' || m.params.cutoff !== undefined) return all;
  const mine = new Map<string, Rec>();
  for (const v of (await store.seenRecords(m.id)).values()) mine.set(v._q as string, v);
  const listing = await listingsAfter(store, m, m.lastRunAt ?? -Infinity);
  const known: Record<string, KnownPlace> = {};
  const queries: string[] = [];
  const resting: string[] = [];
  let oldest = Infinity;
  for (const q of m.queries) {
    const seen = mine.get(q);
    const shown = listing.get(q);
    if (seen && shown && seen._sig !== undefined && seen._sig === shown._sig) { resting.push(q); continue; }
    queries.push(q);
    const k: KnownPlace = {};
    if (shown) k.place = shown._place as KnownPlace['place'];
    if (seen) {
      // A place seen without a review: all its reviews are new (0 reads them all).
      k.cutoff = typeof seen._newest === 'number' ? seen._newest : 0;
      oldest = Math.min(oldest, k.cutoff);
    } else {
      // Never seen (a query added since): read like a baseline, the monitor's reviewsLimit newest.
      k.cutoff = 0;
      k.limit = typeof m.params.reviewsLimit === 'number' ? m.params.reviewsLimit : DEFAULT_REVIEWS_LIMIT;
    }
    known[q] = k;
  }
  const params: Rec = { ...m.params, sort: 'newest', reviewsLimit: 0 };
  if (oldest > 0 && Number.isFinite(oldest)) params.cutoff = oldest;
  if (queries.length) params[KNOWN_PLACES] = known;
  return { queries, params, resting };
}
