/**
 * A query's stored note, written by the runner when the query ends and read back by the results
 * view: why it ended early, what its adapter summed up, and the stub answers it met, in the one text
 * column both stores have.
 */

import { readLearned, type Learned } from '../sources/_kit/learned.ts';

const AREA = '\narea: ';
const STUBS = '\nstubs: ';
const LEARNED = '\nlearned: ';

/** Stub answers a query met (src/engine/stubs.ts): asked again, and served as stubs. */
export interface StubCounts { retried: number; served: number }

/**
 * A query's stored note: its early-end reason (`step_budget: ...`), its stub counts when it met any,
 * and/or the adapter's summary (an area's coverage), one text so both stores keep it in the column
 * they have.
 *
 * @example noteOf(undefined, { coverage: 0.99 }) // '\narea: {"coverage":0.99}'
 */
export function noteOf(reason: string | undefined, summary: Record<string, unknown> | undefined, stubs?: StubCounts, learned?: Learned): string | undefined {
  const s = stubs && (stubs.retried || stubs.served) ? `${STUBS}${JSON.stringify({ retried: stubs.retried, served: stubs.served })}` : '';
  const l = learned && Object.keys(learned).length ? `${LEARNED}${JSON.stringify(learned)}` : '';
  if (!summary && !s && !l) return reason;
  return `${reason ?? ''}${s}${l}${summary ? `${AREA}${JSON.stringify(summary)}` : ''}`;
}

/** A stored note split back: the reason, the summary, the stub counts and what the query learned
 *  of the view cap (each null when none; the last is never shown to the user). */
export function splitNote(stored: string | null): { reason: string | null; summary: Record<string, unknown> | null; stubs: StubCounts | null; learned: Learned | null } {
  if (!stored) return { reason: null, summary: null, stubs: null, learned: null };
  let head = stored;
  let summary: Record<string, unknown> | null = null;
  const at = stored.indexOf(AREA);
  if (at >= 0) {
    head = stored.slice(0, at);
    try { summary = JSON.parse(stored.slice(at + AREA.length)) as Record<string, unknown>; } catch { /* a damaged summary is left out */ }
  }
  let learned: Learned | null = null;
  const le = head.indexOf(LEARNED);
  if (le >= 0) {
    try { learned = readLearned(JSON.parse(head.slice(le + LEARNED.length))); } catch { /* damaged: left out */ }
    head = head.slice(0, le);
  }
  let stubs: StubCounts | null = null;
  const st = head.indexOf(STUBS);
  if (st >= 0) {
    try {
      const o = JSON.parse(head.slice(st + STUBS.length)) as Partial<StubCounts>;
      stubs = { retried: Number(o.retried) || 0, served: Number(o.served) || 0 };
    } catch { /* damaged counts are left out */ }
    head = head.slice(0, st);
  }
  return { reason: head || null, summary, stubs, learned };
}
