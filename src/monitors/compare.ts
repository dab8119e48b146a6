/**
 * What a monitor run changed (issue 29), as pure functions: the records a run found against what the
 * monitor saw before give `new`, `gone`, `changed` (one event per field, before and after) and, for
 * records that carry reviews, `new_reviews` with the reviews themselves.
 *
 * What is remembered of a record (`SeenRecord.values`) is only the compared fields, the query it was
 * found under (`_q`: a query that failed this run says nothing about its records being gone) and, for
 * reviews, the newest review time and the ids at that time (`_newest`, `_ids`): a review newer than
 * that, or at that time but unseen, is new; and what the cheap signal needs (`_sig`, `_place`:
 * ./signal.ts). So the memory per record stays a few fields, however many reviews a place has,
 * except with full checks (a reviews monitor's default, ./signal.ts): then it also keeps the ids of
 * every review the place lists (`_all`), since a review removed can only be named by comparing a
 * whole read with them, and `removed` is reported, one event per review (`field` the list, `before`
 * its id).
 *
 * @example diffRun(seen, [{ query: 'q', records: [{ place_id: 'a', phone: '+1 2' }] }], { identity: ['place_id'], fields: ['phone'] }, meta)
 */
import type { ChangeRow, MonitorCompare, SeenRecord } from '../store/monitors/contract.ts';
import { signalOf, type WholeRead } from './signal.ts';

type Rec = Record<string, unknown>;

/** Defaults per endpoint: the record's identity and the fields a person means by "it changed". */
const PLACE_FIELDS = ['name', 'full_address', 'phone', 'site', 'category', 'rating', 'reviews', 'working_hours', 'business_status', 'range'];
/** A reviews monitor reads every review of every place this often by default (./signal.ts): 30 days. */
export const DEFAULT_FULL_CHECK_S = 30 * 86_400;
export const DEFAULT_COMPARE: Record<string, MonitorCompare> = {
  '/maps/search': { identity: ['place_id'], fields: PLACE_FIELDS },
  '/maps/search-v2': { identity: ['place_id'], fields: PLACE_FIELDS },
  '/maps/search-v3': { identity: ['place_id'], fields: PLACE_FIELDS },
  '/places-by-domain': { identity: ['place_id'], fields: PLACE_FIELDS },
  '/maps/reviews': { identity: ['place_id'], fields: ['name', 'rating', 'reviews'], full_check_every_s: DEFAULT_FULL_CHECK_S },
};

/** Fields whose values are lists of reviews, with the keys a review is known by. */
const REVIEW_LISTS: { list: string; id: string; time: string }[] = [{ list: 'reviews_data', id: 'review_id', time: 'review_timestamp' }];

export interface QueryRecords {
  query: string;
  records: Rec[];
  /** The query failed: its previous records are not reported gone. */
  failed?: boolean;
  /** The query stopped early (its account's credit limit): its records count, and previous records it
   *  did not reach are not reported gone. */
  partial?: boolean;
}

export interface RunMeta {
  monitorId: string; runId: string; at: number; baseline: boolean;
  /** The monitor's queries: one of them not asked this run (nothing moved, ./signal.ts) keeps its
   *  records as they were; a record of a query no longer asked at all is forgotten. */
  queries?: string[];
  /** Queries whose place's reviews were read whole this run, and why (./signal.ts `wholeReadsOf`):
   *  `check` (the baseline, a first read or the periodic full check: the full check's clock restarts)
   *  or `removal` (the counts said a review was removed). */
  whole?: (query: string) => WholeRead | null;
  /** The run's due time (Unix ms): when a full check was made. */
  due?: number;
}

export interface RunDiff {
  changes: ChangeRow[];
  seen: SeenRecord[];
  gone: string[];
  counts: { new: number; gone: number; changed: number; new_reviews: number; removed: number; records: number };
}

/** Key order does not make two values differ. */
function stable(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  return `{${Object.keys(v as Rec).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Rec)[k])}`).join(',')}}`;
}

export function identityOf(r: Rec, identity: string[]): string | null {
  const parts = identity.map((k) => r[k]);
  if (parts.some((p) => p === null || p === undefined || p === '')) return null;
  return parts.map(String).join('|');
}

interface ReviewMark { newest: number; ids: string[] }

/** The reviews of `r` newer than `mark` (or at its time and unseen), and the mark after them. */
function newReviews(r: Rec, mark: ReviewMark | null): { fresh: Rec[]; mark: ReviewMark | null; has: boolean } {
  for (const { list, id, time } of REVIEW_LISTS) {
    const reviews = r[list];
    if (!Array.isArray(reviews)) continue;
    let newest = mark?.newest ?? -Infinity;
    const fresh: Rec[] = [];
    for (const v of reviews as Rec[]) {
      const t = typeof v[time] === 'number' ? (v[time] as number) : null;
      const rid = v[id] == null ? null : String(v[id]);
      if (t === null) continue;
      if (!mark || t > mark.newest || (t === mark.newest && rid !== null && !mark.ids.includes(rid))) fresh.push(v);
      if (t > newest) newest = t;
    }
    // No review yet: remembered as a mark at time 0, so the place's first reviews are new ones.
    if (newest === -Infinity) return { fresh: [], mark: mark ?? { newest: 0, ids: [] }, has: true };
    const ids = (reviews as Rec[]).filter((v) => v[time] === newest && v[id] != null).map((v) => String(v[id]));
    const keep = mark && mark.newest === newest ? [...new Set([...mark.ids, ...ids])] : ids;
    return { fresh: mark ? fresh : [], mark: { newest, ids: keep.slice(-50) }, has: true };
  }
  return { fresh: [], mark: null, has: false };
}

/**
 * Every review a place lists, by id (`_all`), with what its stated count says beyond them (`_gap`: a
 * product may count reviews it does not list) and when it was last checked whole (`_full`). A whole
 * read replaces the ids and names those no longer listed (removed); a read of the newest only adds its
 * new ones, and marks the place `_short` when its stated count falls below what is known: a review was
 * removed while others came, which the next run reads whole (./signal.ts). A place never read whole
 * keeps no ids: nothing is known to be removable.
 */
function reviewLedger(r: Rec, prev: Rec | undefined, fresh: Rec[], whole: WholeRead | null, due: number | undefined): { values: Rec; removed: string[]; list: string } {
  for (const { list, id } of REVIEW_LISTS) {
    const reviews = r[list];
    if (!Array.isArray(reviews)) continue;
    const stated = typeof r.reviews === 'number' ? r.reviews : null;
    const known = Array.isArray(prev?._all) ? (prev._all as string[]) : null;
    if (whole) {
      const read = [...new Set((reviews as Rec[]).filter((v) => v[id] != null).map((v) => String(v[id])))];
      const listed = new Set(read);
      const removed = known ? known.filter((x) => !listed.has(x)) : [];
      const full = whole === 'check' ? due : prev?._full;
      return { values: { _all: read, _gap: stated === null ? 0 : stated - read.length, ...(typeof full === 'number' ? { _full: full } : {}) }, removed, list };
    }
    if (!known) return { values: {}, removed: [], list };
    const all = [...new Set([...fresh.filter((v) => v[id] != null).map((v) => String(v[id])), ...known])];
    const gap = typeof prev!._gap === 'number' ? prev!._gap : 0;
    const values: Rec = { _all: all, _gap: gap, _full: prev!._full };
    if (stated !== null && stated < all.length + gap) values._short = true;
    return { values, removed: [], list };
  }
  return { values: {}, removed: [], list: '' };
}

/**
 * The changes of one run. On the monitor's first (baseline) run everything found is remembered and
 * nothing is reported: there is nothing to compare with.
 */
export function diffRun(before: Map<string, Rec>, results: QueryRecords[], compare: MonitorCompare, meta: RunMeta): RunDiff {
  const changes: ChangeRow[] = [];
  const seen: SeenRecord[] = [];
  const found = new Set<string>();
  const failedQueries = new Set(results.filter((q) => q.failed || q.partial).map((q) => q.query));
  const counts = { new: 0, gone: 0, changed: 0, new_reviews: 0, removed: 0, records: 0 };
  const event = (kind: ChangeRow['kind'], identity: string, field: string | null, b: unknown, a: unknown, record: unknown) => {
    if (meta.baseline) return;
    changes.push({ monitorId: meta.monitorId, runId: meta.runId, at: meta.at, kind, identity, field, before: b ?? null, after: a ?? null, record: record ?? null });
    counts[kind]++;
  };
  for (const q of results) {
    if (q.failed) continue;
    for (const r of q.records) {
      counts.records++;
      const id = identityOf(r, compare.identity);
      // The same record under two queries (overlapping searches) is one record.
      if (id === null || found.has(id)) continue;
      found.add(id);
      const prev = before.get(id);
      const values: Rec = { _q: q.query, ...signalOf(r) };
      for (const f of compare.fields) values[f] = r[f] ?? null;
      const rv = newReviews(r, prev && prev._newest !== undefined ? { newest: prev._newest as number, ids: (prev._ids as string[]) ?? [] } : null);
      if (rv.mark) { values._newest = rv.mark.newest; values._ids = rv.mark.ids; }
      // A read cut at the credit limit is no whole read: reviews it did not reach are not removed.
      const ledger = reviewLedger(r, prev, rv.fresh, q.partial ? null : meta.whole?.(q.query) ?? null, meta.due);
      Object.assign(values, ledger.values);
      if (!prev) event('new', id, null, null, null, r);
      else {
        for (const f of compare.fields) {
          if (stable(prev[f]) !== stable(values[f])) event('changed', id, f, prev[f], values[f], null);
        }
        if (rv.fresh.length) event('new_reviews', id, null, null, rv.fresh.length, rv.fresh);
        for (const gone of ledger.removed) event('removed', id, ledger.list, gone, null, null);
      }
      seen.push({ identity: id, values });
    }
  }
  const gone: string[] = [];
  const asked = new Set(results.map((q) => q.query));
  const resting = new Set((meta.queries ?? []).filter((q) => !asked.has(q)));
  for (const [id, prev] of before) {
    if (found.has(id) || failedQueries.has(prev._q as string) || resting.has(prev._q as string)) continue;
    // Asked no more (the monitor's queries were changed): forgotten, not reported.
    if (!asked.has(prev._q as string)) { gone.push(id); continue; }
    gone.push(id);
    event('gone', id, null, null, null, null);
  }
  return { changes, seen, gone, counts };
}
