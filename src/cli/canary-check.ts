/**
 * The verdict of one source's canary (src/cli/canary.ts) on what the live request gave: its records,
 * or the typed error it failed with. Pure: the command runs the request, this judges it.
 *
 * - `blocked`: the site refused us (the executor's detection verdict: blocked, captcha, consent,
 *   rate_limited; or login_required, a wall for anonymous visitors).
 * - `layout_changed`: the parser found none of the expected data, the site no longer takes the
 *   request's form (stale_request), a record breaks the endpoint's declared schema, or a field the
 *   canary names came back empty.
 * - `misconfigured`: this server's own setup kept the source from being asked (no browser where
 *   CHROMIUM_PATH says; the command also gives it to every source when a setting cannot be read).
 * - `degraded`: any other failure (network, timeout, the target gone), or fewer records than the
 *   canary's minimum.
 * - `ok`: otherwise.
 * - `unreachable` is said of a whole run (`unreachableRun`): every source failed before reaching its
 *   site (its name did not resolve, the connection failed): the network of this machine, not the sites.
 *
 * @example
 *   judge(canary, endpointFor('/videosite-videos')!.record, { records }) // { status: 'ok', reason: null }
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { Canary } from '../sources/_kit/source.ts';

export type CanaryStatus = 'ok' | 'degraded' | 'blocked' | 'layout_changed' | 'unreachable' | 'misconfigured';

/** Worst last: the command's exit code is that of the worst status seen. This machine's own trouble
 *  (no network, a setting) comes after any site's: nothing a site does can be told until it is fixed. */
export const STATUSES: readonly CanaryStatus[] = ['ok', 'degraded', 'blocked', 'layout_changed', 'unreachable', 'misconfigured'];

/** Exit codes of `trawl canary` by the worst status (1: the canary could not run, 2: bad arguments). */
export const EXIT_CODES: Record<CanaryStatus, number> = { ok: 0, degraded: 3, blocked: 4, layout_changed: 5, unreachable: 6, misconfigured: 7 };

/** What the request gave: its records, or the error (`type` as SourceError types, or the API's own). */
export type CanaryAnswer = { records: unknown[] } | { error: { type: string; message: string } };

export interface Judgement {
  status: CanaryStatus;
  /** Why it is not `ok`, in words; null when it is. */
  reason: string | null;
  /** The request never reached the site: its name did not resolve or no connection was made. */
  offline?: boolean;
}

/**
 * A network error from before the site answered: the executor's messages for a name that does not
 * resolve (`DNS lookup failed for ...`, `ENOTFOUND fetching ...`) and for a connection that could
 * not be made (the socket error codes), through a proxy too.
 */
const OFFLINE = /^(?:network: )?(?:DNS lookup|(?:ENOTFOUND|EAI_AGAIN|ENODATA|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET) fetching )/;

/**
 * The run's statuses when every source was offline (none reached: this machine's network, not the
 * sites): each `unreachable`; otherwise as judged.
 * @example unreachableRun([{ status: 'degraded', reason: 'network: DNS lookup failed for x', offline: true }])[0].status // 'unreachable'
 */
export function unreachableRun<J extends Judgement>(judged: J[]): J[] {
  if (!judged.length || !judged.every((j) => j.offline)) return judged;
  return judged.map((j) => ({ ...j, status: 'unreachable' as const, reason: `${j.reason} (no source was reachable: this machine's DNS or network)` }));
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
    if (type === 'misconfigured') return { status: 'misconfigured', reason };
    if (type === 'network' && OFFLINE.test(message)) return { status: 'degraded', reason, offline: true };
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
