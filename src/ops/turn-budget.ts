/**
 * How long the event loop has been busy since it last ran its check phase (issue 15): work handed
 * on by resolving a promise runs in the same macrotask as whatever resolved it, so a queue of such
 * phases can hold the loop for as long as the queue is; `yieldIfLong` lets the next phase start on a
 * later turn once this turn has used its budget, so I/O (another request, a probe) runs in between
 * while short bursts keep running together (the store's group commit batches what one turn completes).
 *
 * The turn's start is the first call since the last check phase: a reset is armed with
 * `setImmediate` on that call. Armed during a check phase, the reset runs one turn later, so the
 * estimate can only run long: it yields early, never late.
 *
 * @example
 *   await yieldIfLong(8);   // resolves now, or on the next turn once 8 ms of this one are used
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

let turnStart = 0;
let armed = false;
const reset = () => { armed = false; };

/** Milliseconds since this turn's first call (0 on the first). */
export function elapsedThisTurn(now = performance.now()): number {
  if (!armed) {
    armed = true;
    turnStart = now;
    setImmediate(reset);
  }
  return now - turnStart;
}

/** Resolves at once while this turn has used less than `budgetMs`, else on a later turn. */
export function yieldIfLong(budgetMs: number): Promise<void> | undefined {
  return elapsedThisTurn() < budgetMs ? undefined : nextTurn();
}
