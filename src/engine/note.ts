/**
 * A query's stored note, written by the runner when the query ends and read back by the results
 * view: why it ended early and what its adapter summed up, in the one text column both stores have.
 */

const AREA = '\narea: ';

/**
 * A query's stored note: its early-end reason (`step_budget: ...`) and/or the adapter's summary
 * (an area's coverage), one text so both stores keep it in the column they have.
 *
 * @example noteOf(undefined, { coverage: 0.99 }) // '\narea: {"coverage":0.99}'
 */
export function noteOf(reason: string | undefined, summary: Record<string, unknown> | undefined): string | undefined {
  if (!summary) return reason;
  return `${reason ?? ''}${AREA}${JSON.stringify(summary)}`;
}

/** A stored note split back: the reason (null when none) and the summary (null when none). */
export function splitNote(stored: string | null): { reason: string | null; summary: Record<string, unknown> | null } {
  if (!stored) return { reason: null, summary: null };
  const at = stored.indexOf(AREA);
  if (at < 0) return { reason: stored, summary: null };
  let summary: Record<string, unknown> | null = null;
  try { summary = JSON.parse(stored.slice(at + AREA.length)) as Record<string, unknown>; } catch { /* a damaged summary is left out */ }
  return { reason: at > 0 ? stored.slice(0, at) : null, summary };
}
