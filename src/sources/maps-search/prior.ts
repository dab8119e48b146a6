/**
 * A view-cap prior a monitor's run carries from its previous runs (issue 33): what they learned of
 * the site's view cap (src/sources/_kit/learned.ts, merged by src/monitors/signal.ts `runLearned`),
 * in the request's parameters under VIEW_PRIOR (set by the scheduler, never by a client). The first
 * step of each query takes its part (`priorOf`): the caps proven, the highest count shown complete
 * (`floor`), and the count this query's own view stopped at last time (`top`). paging.ts uses it
 * instead of a probe where it still holds, and probes where it may not (a cap that changed).
 *
 * @example priorOf({ query: 'dentist', params: { [VIEW_PRIOR]: { caps: [120], floor: 96, top: { dentist: 87 } } } })
 *   // { caps: [120], floor: 96, top: 87 }
 */
import type { QueryContext } from '../_kit/adapter.ts';

export const VIEW_PRIOR = '_viewPrior';

/** What a monitor keeps of its runs' view-cap proofs (src/monitors/signal.ts). */
export type MonitorPrior = { caps: number[]; floor: number | null; top: Record<string, number> };

/** One query's part of it. */
export type QueryPrior = { caps: number[]; floor: number; top?: number };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The prior for this query, or undefined when its request carries none. */
export function priorOf(ctx: QueryContext): QueryPrior | undefined {
  const p = (ctx.params as Record<string, unknown> | undefined)?.[VIEW_PRIOR] as Partial<MonitorPrior> | undefined;
  if (!p || typeof p !== 'object') return undefined;
  const caps = Array.isArray(p.caps) ? p.caps.filter(isCount) : [];
  const floor = isCount(p.floor) ? p.floor : 0;
  const top = p.top && typeof p.top === 'object' ? (p.top as Record<string, unknown>)[ctx.query] : undefined;
  if (!caps.length && !floor) return undefined;
  return { caps, floor, ...(isCount(top) ? { top } : {}) };
}
