/**
 * The view-cap prior (./prior.ts) where the monitor's query covers an area: the covering (cover.ts)
 * learns the cap by its own rules (./viewcap.ts), so the prior enters as proofs that run already
 * holds, and each area step reports the counts it proved for the next run.
 *
 * - One cap proven last time: the run starts with it known (as if three views had proved it), so a
 *   view stopping there splits without a probe, and cells expected above it are split unsearched
 *   from the first view on. The cap is still checked: a view stopping below it at a count the
 *   latest views stopped at too is probed (a cap that fell), and one that shows more than it proves
 *   it moved (viewcap.ts `judge`, `accepted`).
 * - Several caps (a cap by region): the run starts with them as varying caps, so every view near the
 *   lowest is probed from the start, not only after a view proved it.
 * - The highest count shown complete (`floor`) and the query's own view's count (`top`) are the plain
 *   search's (paging.ts): the covering judges counts below the cap by its own rules.
 *
 * @example capLearnOf({ caps: [120], floor: 104 }).caps // [120, 120, 120]
 */
import type { Learned } from '../_kit/learned.ts';
import type { QueryPrior } from './prior.ts';
import { CONFIRM, emptyCapLearn, type CapLearn } from './viewcap.ts';

/** Proofs a CapLearn keeps (viewcap.ts provenCapped). */
const KEPT_PROOFS = 4;

/** The covering's cap knowledge at the start of a run carrying `prior` (none: learned from scratch). */
export function capLearnOf(prior: QueryPrior | undefined): CapLearn {
  const c = emptyCapLearn();
  const caps = [...new Set(prior?.caps ?? [])].filter((x) => x > 0).sort((a, b) => a - b);
  if (caps.length === 1) c.caps = new Array<number>(CONFIRM).fill(caps[0]!);
  else if (caps.length > 1) c.caps = caps.slice(0, KEPT_PROOFS);
  return c;
}

/** What an area query proved of the view cap so far: every count a view of this run was proven
 *  capped at (undefined before any). Reported on each step; the runner merges them. */
export function areaLearned(c: CapLearn | undefined): { learned?: Learned } {
  const ever = c?.capsEver ?? [];
  return ever.length ? { learned: { caps: [...ever].sort((a, b) => a - b) } } : {};
}
