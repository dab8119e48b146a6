/**
 * Stub answers (issue 34, item 4), the runner's side: a step whose answer holds stubs
 * (`ParseResult.stubs`, src/sources/_kit/stub.ts) is asked again once from another identity
 * (`Step.another`: the executor leases the work item another pooled session and another signed-in
 * account, or none, so another exit), and the second answer is taken. What stays a stub is served:
 * its records kept and billed, the query's `errors` entry reading `stub: ...`, and the request's
 * `metadata` counting `stubs_retried` (answers asked again) and `stubs_served` (records served as
 * stubs). The counts live in the checkpoint (StepState.stubs), so a resumed query keeps them.
 *
 * @example
 *   const s = {}; stubsServed(s, [{ key: 'Place 3', why: 'no place_id' }]);
 *   stubNote(s) // 'stub: 1 record served as a stub (still one when asked again from another identity); Place 3: no place_id'
 */
import type { StubNote } from '../sources/_kit/stub.ts';

export interface StubState {
  /** Answers asked again from another identity. */
  retried: number;
  /** Records served as stubs, and the first one's text. */
  served: number;
  first?: string;
}

/** Counts one re-ask. */
export function stubRetried(s: Partial<StubState>): void {
  s.retried = (s.retried ?? 0) + 1;
  s.served ??= 0;
}

/** Counts the stubs of an answer that is served as it is. */
export function stubsServed(s: Partial<StubState>, stubs: readonly StubNote[]): void {
  s.retried ??= 0;
  s.served = (s.served ?? 0) + stubs.length;
  if (!s.first && stubs[0]) s.first = `${stubs[0].key.slice(0, 100)}: ${stubs[0].why.slice(0, 200)}`;
}

/** The query's reason when it served stubs (`stub: <message>`), or undefined. */
export function stubNote(s: Partial<StubState> | undefined): string | undefined {
  if (!s?.served) return undefined;
  return `stub: ${s.served} record${s.served === 1 ? '' : 's'} served as a stub (still one when asked again from another identity); ${s.first ?? ''}`;
}

/** A query's reason and its stub note as one (the first one's type leads): `a; b`. */
export function joinReasons(first: string | undefined, then: string | undefined): string | undefined {
  return first && then ? `${first}; ${then}` : first ?? then;
}
