/**
 * How many steps one query may take. A fixed cap (the old 2,000) stopped a 100,000-review query near
 * 40,000 reviews; the budget now follows the query's own limit: a base for plans that fan out (map
 * cells, detail pages) plus one step per record asked, so every step past the base must bring a
 * record on average. Running out ends the query with what it has, flagged `step_budget`.
 *
 * @example stepBudget({ limit: 100_000 }, 2_000) // 102000
 */

/** The declared maximum of any per-query limit: what "0 = all" may take. */
const ALL = 100_000;

/** The records a query asks for (`limit`, `limit_per_query`), when it says. */
export function queryLimit(params: Record<string, unknown>): number | undefined {
  for (const k of ['limit', 'limit_per_query']) {
    const v = params[k];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/** Steps one query may take: `base` plus the records it asks for (any per-query limit, 0 = all). */
export function stepBudget(params: Record<string, unknown>, base: number): number {
  let most = 0;
  for (const k of ['limit', 'limit_per_query', 'reviewsLimit', 'perQuery']) {
    const v = params[k];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) most = Math.max(most, v === 0 ? ALL : v);
  }
  return base + most;
}

/** The note a query that ran out of steps ends with (kept beside its records). */
export function budgetNote(steps: number, records: number): string {
  return `step_budget: stopped after ${steps} steps with ${records} records; the query's step budget follows its limit`;
}
