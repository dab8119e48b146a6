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
 * What the counts cannot show: one review removed on a day another was added (the count and, when
 * both have one score, the per-score counts unchanged). A reviews monitor therefore makes a **full
 * check** every `compare.full_check_every_s` (default 30 days; 0: none): the first run at or after
 * that long since a place was last checked reads every review of it, and the ids it keeps
 * (`_all`) name the ones gone. A removal the counts do show is read whole at once: a count or a
 * per-score count that fell in the listing, or a place whose stated count fell below the reviews
 * known after reading its newest (`_short`, then the next run). What is read whole, and why, rides
 * in the request's parameters (`WHOLE_READS`), so the run's end knows which places' lists are whole.
 *
 * @example const plan = await planRun(monitorStoreOf(store), monitor, false) // { queries, params, resting }
 */
import type { MonitorRow, MonitorStore } from '../store/monitors/contract.ts';
import { DEFAULT_REVIEWS_LIMIT, KNOWN_PLACES, type KnownPlace } from '../sources/maps-reviews/plan.ts';
import { summaryOf } from '../sources/maps-reviews/place.ts';
import type { PlaceRecord } from '../sources/_maps/record.ts';
import type { Learned } from '../sources/_kit/learned.ts';
import { VIEW_PRIOR, type MonitorPrior } from '../sources/maps-search/prior.ts';

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

/**
 * A request parameter clients cannot set: the queries whose place's reviews this run reads whole,
 * and why (`*`: every query, a full check). Read back when the run ends (`wholeReadsOf`).
 */
export const WHOLE_READS = '_monitorWhole';

/** Why a place's reviews were read whole this run: the baseline or periodic full check, or a removal the counts showed. */
export type WholeRead = 'check' | 'removal';

/** Which queries a run's request read whole, from its parameters. */
export function wholeReadsOf(params: Rec | null | undefined): (query: string) => WholeRead | null {
  const w = params?.[WHOLE_READS];
  if (w === '*') return () => 'check';
  if (!w || typeof w !== 'object') return () => null;
  return (q) => { const v = (w as Rec)[q]; return v === 'check' || v === 'removal' ? v : null; };
}

/** Seconds between a monitor's full checks; 0 when it makes none (not a reviews monitor, or one
 *  with its own `cutoff`, which reads only since then). */
export function fullCheckOf(m: MonitorRow): number {
  if (m.endpoint !== '/maps/reviews' || m.params.cutoff !== undefined) return 0;
  const s = m.compare.full_check_every_s;
  return typeof s === 'number' && s > 0 ? s : 0;
}

/** The listing shows fewer reviews than the monitor last read, in all or in one score: one was removed. */
function countsFell(seen: unknown, shown: unknown): boolean {
  if (typeof seen !== 'string' || typeof shown !== 'string') return false;
  const [a, as] = JSON.parse(seen) as [unknown, Rec | null];
  const [b, bs] = JSON.parse(shown) as [unknown, Rec | null];
  if (typeof a === 'number' && typeof b === 'number' && b < a) return true;
  if (!as || !bs) return false;
  return Object.keys(as).some((k) => typeof as[k] === 'number' && typeof bs[k] === 'number' && (bs[k] as number) < (as[k] as number));
}

/** Endpoints whose queries read a view-cap prior (src/sources/maps-search/prior.ts). */
const VIEW_CAP_PRIOR = new Set(['/maps/search']);

/**
 * What a run learned of the site's view cap, merged over its queries (each query's note), as the
 * monitor keeps it for its next run: the caps this run's views stopped at and proved (the previous
 * ones when none did: a run whose views all stayed small proves none), the highest count a view was
 * shown complete at below the lowest of those caps (so a cap that fell takes the floor down with
 * it), and each query's own view's count. Null when no query learned anything (the monitor keeps
 * what it had).
 */
export function runLearned(prev: Record<string, unknown> | null | undefined, byQuery: Map<string, Learned>): MonitorPrior | null {
  if (!byQuery.size) return null;
  const caps = new Set<number>();
  for (const l of byQuery.values()) for (const c of l.caps ?? []) caps.add(c);
  const before = prev && Array.isArray(prev.caps) ? (prev.caps as unknown[]).filter((c): c is number => typeof c === 'number') : [];
  const all = [...(caps.size ? caps : before)].sort((a, b) => a - b).slice(-8);
  const low = all.length ? all[0]! : Infinity;
  let floor: number | null = null;
  const top: Record<string, number> = {};
  for (const [q, l] of byQuery) {
    if (l.complete !== undefined && l.complete < low) floor = Math.max(floor ?? 0, l.complete);
    if (l.top !== undefined) top[q] = l.top;
  }
  return { caps: all, floor, top };
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
 * A `cutoff` the monitor's own parameters set is kept, and then every place is asked. With full
 * checks, the baseline and a place never seen are read whole (every review: what a removal is named
 * against), and so is a place due for its full check (`due`: the run's due time, Unix ms) or whose
 * counts say a review was removed.
 */
export async function planRun(store: MonitorStore, m: MonitorRow, baseline: boolean, due = m.lastRunAt ?? 0): Promise<RunPlan> {
  const all: RunPlan = { queries: m.queries, params: m.params, resting: [] };
  const every = fullCheckOf(m) * 1000;
  // The baseline reads each place whole (its page): the places a listing shows would ride in the
  // request's parameters, which every query of the request reads again.
  if (baseline && every) return { ...all, params: { ...m.params, reviewsLimit: 0, [WHOLE_READS]: '*' } };
  // A listing that reads the view-cap prior gets what its last runs learned (it re-checks it).
  if (VIEW_CAP_PRIOR.has(m.endpoint) && m.learned) return { ...all, params: { ...m.params, [VIEW_PRIOR]: m.learned } };
  if (baseline || m.endpoint !== '/maps/reviews' || m.params.cutoff !== undefined) return all;
  const mine = new Map<string, Rec>();
  for (const v of (await store.seenRecords(m.id)).values()) mine.set(v._q as string, v);
  const listing = await listingsAfter(store, m, m.lastRunAt ?? -Infinity);
  const known: Record<string, KnownPlace> = {};
  const queries: string[] = [];
  const resting: string[] = [];
  const whole: Record<string, WholeRead> = {};
  let oldest = Infinity;
  for (const q of m.queries) {
    const seen = mine.get(q);
    const shown = listing.get(q);
    let read: WholeRead | null = null;
    if (every) {
      if (!seen || typeof seen._full !== 'number' || due - seen._full >= every) read = 'check';
      else if (seen._short === true || (shown && countsFell(seen._sig, shown._sig))) read = 'removal';
    }
    if (!read && seen && shown && seen._sig !== undefined && seen._sig === shown._sig) { resting.push(q); continue; }
    queries.push(q);
    const k: KnownPlace = {};
    if (shown) k.place = shown._place as KnownPlace['place'];
    if (read) {
      // Every review, whatever its time: cutoff 0 and no limit.
      whole[q] = read;
      k.cutoff = 0;
      oldest = 0;
    } else if (seen) {
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
  const wholeCount = Object.keys(whole).length;
  if (wholeCount) params[WHOLE_READS] = wholeCount === queries.length && Object.values(whole).every((w) => w === 'check') ? '*' : whole;
  return { queries, params, resting };
}
