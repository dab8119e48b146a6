/**
 * What a query learned of the site's view cap (issue 33, carried between a monitor's runs): the
 * counts at which its views proved capped, the highest count of a view shown complete, and the
 * count its own view (the query's first view) stopped at. A step's parse reports what it proved
 * (`ParseResult.learned`); the runner merges a query's steps (`mergeLearned`) and keeps the result
 * with the query's note; a monitor merges its queries' and hands them to its next run as a prior
 * (src/monitors/signal.ts, src/sources/maps-search/prior.ts), which still re-checks it.
 *
 * @example mergeLearned({ caps: [120] }, { complete: 87, top: 87 }) // { caps: [120], complete: 87, top: 87 }
 */
export interface Learned {
  /** Counts at which a view proved capped (sorted, distinct). */
  caps?: number[];
  /** The highest count of a view shown complete (all of its places, the cap not reached). */
  complete?: number;
  /** The count the query's own view stopped at (a short page), when it had more than a page. */
  top?: number;
}

/** Caps kept at most (a site whose cap varies by region shows a few). */
const MAX_CAPS = 8;

export function mergeLearned(a: Learned | undefined, b: Learned): Learned {
  const out: Learned = { ...(a ?? {}) };
  if (b.caps?.length) out.caps = [...new Set([...(a?.caps ?? []), ...b.caps])].sort((x, y) => x - y).slice(-MAX_CAPS);
  if (b.complete !== undefined) out.complete = Math.max(a?.complete ?? 0, b.complete);
  if (b.top !== undefined && a?.top === undefined) out.top = b.top;
  return out;
}

/** A stored Learned read back (null when it is not one). */
export function readLearned(v: unknown): Learned | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Learned;
  const n = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const out: Learned = {};
  if (Array.isArray(o.caps)) out.caps = o.caps.filter(n).slice(-MAX_CAPS);
  if (n(o.complete)) out.complete = o.complete;
  if (n(o.top)) out.top = o.top;
  return out;
}
