/**
 * The verdict of one source's canary (src/cli/canary.ts) on what the live request gave: its records,
 * or the typed error it failed with. Pure: the command runs the request, this judges it.
 *
 * - `blocked`: the site refused us (the executor's detection verdict: blocked, captcha, consent,
 *   rate_limited; or login_required, a wall for anonymous visitors).
 * - `layout_changed`: the parser found none of the expected data, the site no longer takes the
 *   request's form (stale_request), a record breaks the endpoint's declared schema, or a field the
 *   canary names came back empty.
 * - `degraded`: any other failure (network, timeout, the target gone), or fewer records than the
 *   canary's minimum.
 * - `ok`: otherwise.
 *
 * @example
 *   judge(canary, endpointFor('/videosite-videos')!.record, { records }) // { status: 'ok', reason: null }
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { Canary } from '../sources/_kit/source.ts';

export type CanaryStatus = 'ok' | 'degraded' | 'blocked' | 'layout_changed';

/** Worst last: the command's exit code is that of the worst status seen. */
export const STATUSES: readonly CanaryStatus[] = ['ok', 'degraded', 'blocked', 'layout_changed'];

/** Exit codes of `trawl canary` by the worst status (1: the canary could not run, 2: bad arguments). */
export const EXIT_CODES: Record<CanaryStatus, number> = { ok: 0, degraded: 3, blocked: 4, layout_changed: 5 };

/** What the request gave: its records, or the error (`type` as SourceError types, or the API's own). */
export type CanaryAnswer = { records: unknown[] } | { error: { type: string; message: string } };

export interface Judgement {
  status: CanaryStatus;
  /** Why it is not `ok`, in words; null when it is. */
  reason: string | null;
}

const BLOCKS = new Set(['blocked', 'captcha', 'consent', 'rate_limited', 'login_required']);
const LAYOUT = new Set(['layout_changed', 'stale_request']);

/** A value that says nothing: what a parser leaves when the branch it reads is gone. */
const empty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The worst of several statuses ('ok' for none). */
export function worst(statuses: Iterable<CanaryStatus>): CanaryStatus {
  let w: CanaryStatus = 'ok';
  for (const s of statuses) if (STATUSES.indexOf(s) > STATUSES.indexOf(w)) w = s;
  return w;
}

export function judge(canary: Canary, schema: TSchema, answer: CanaryAnswer): Judgement {
  if ('error' in answer) {
    const { type, message } = answer.error;
    // The executor's messages already start with their type ('captcha: HTTP 429 from ...').
    const reason = message.startsWith(`${type}:`) ? message : `${type}: ${message}`;
    if (BLOCKS.has(type)) return { status: 'blocked', reason };
    if (LAYOUT.has(type)) return { status: 'layout_changed', reason };
    if (type === 'not_found') return { status: 'degraded', reason: `${reason} (the canary's target may be gone: choose another in the source's index.ts)` };
    return { status: 'degraded', reason };
  }
  const records = answer.records;
  // The declared schema first: a field of the wrong type is a layout change even when it is filled.
  const problems: string[] = [];
  records.forEach((r, i) => {
    if (problems.length >= 3) return;
    for (const e of Value.Errors(schema, r)) {
      problems.push(`record ${i} ${e.path || '/'}: ${e.message}`);
      if (problems.length >= 3) break;
    }
  });
  if (problems.length) return { status: 'layout_changed', reason: `records break the declared schema: ${problems.join('; ')}` };
  const missing = canary.fields
    .map((f) => ({ f, n: records.filter((r) => empty((r as Record<string, unknown>)?.[f])).length }))
    .filter((m) => m.n > 0);
  if (missing.length) {
    return { status: 'layout_changed', reason: `fields left empty: ${missing.map((m) => `${m.f} (${m.n} of ${records.length} records)`).join(', ')}` };
  }
  if (records.length < canary.min) return { status: 'degraded', reason: `${records.length} records, at least ${canary.min} expected` };
  return { status: 'ok', reason: null };
}
