/**
 * Long items do not own the service (issue 39 item 3). A worker's slots are decided by its queue
 * (CONCURRENCY items at once), and the fair claim (src/store/requests/fairness.ts) gives each slot
 * that frees to the account running least; but a slot frees only when its item ends, so sixteen
 * items that run ten minutes held every slot and another account's 200-query request waited 609 s.
 *
 * So a slot is time-sliced between the steps of paged work. An item that has held its slot for a
 * slice (`sliceMs`) checks at its next step boundary (after its checkpoint) whether another
 * account has a due item; if so it pauses and lends its slot: the other accounts' oldest due items
 * (the store's fair heads, fewest leased first) run in it one after another for up to
 * `LEND_SLICES` slices, then the item takes its slot back for another slice. While nobody else
 * waits it runs on: no slot idles while only one account has work. A paused item keeps its lease
 * (the heartbeat goes on) and counts as its account's in the fair claim, so the free slots too go
 * to the waiting account first.
 *
 * An item running in a lent slot does not lend it further; if it reaches a step boundary after the
 * lending time ended, it is given back to the queue (its checkpoint kept, the claim not counted as
 * an attempt) and resumes in a later slot. So an account whose items run for minutes keeps at least
 * one slice in LEND_SLICES + 1 of its slots while others wait, and the others get the rest.
 *
 * It lives between the runner and the store, not in a queue backend: the embedded, PostgreSQL and
 * Redis queues all hand items to the same runner and claim through the same store, so the same
 * slicing holds on each. Items without steps (local lookups) and one-step queries never pause: a
 * slice ends at a step boundary, so a single long step (bounded by FETCH_TOTAL_TIMEOUT_MS) runs whole.
 *
 * @example
 *   const lending = new SlotLending({ store, owner, leaseMs, sliceMs: 5_000, run: (it) => runner.run(it) });
 *   await lending.atStep(item);   // the runner, before each step after the first
 */
import type { Store, WorkItem } from '../store/contract.ts';

/** Slices a paused item lends its slot for before it takes it back. */
export const LEND_SLICES = 3;
/** After a claim that found no other account's work, no slot asks again for this long. */
const QUIET_MS = 1_000;

/** Thrown at a step boundary of an item running in a lent slot after the lending ended: the runner
 *  hands the item back to the queue. */
export class GiveBack extends Error {}

export interface LendingOptions {
  store: Store;
  owner: string;
  leaseMs: number;
  /** Time an item holds its slot before it lends it to a waiting account; 0: never. */
  sliceMs: number;
  /** Runs a borrowed item to its end (or its give-back): the runner's `run`. */
  run(item: WorkItem): Promise<void>;
  now?: () => number;
  /** A borrowed item's run that threw (a store outage): logged, the slot goes back to its item. */
  onError?(e: unknown): void;
  /** A slot lent to another account's item, or a borrowed item given back to the queue (metrics). */
  onLoan?(event: 'lent' | 'given_back'): void;
}

interface Held {
  /** When the item last took its slot. */
  since: number;
  /** Set for an item running in a lent slot: when the lending ends. */
  lentUntil?: number;
}

export class SlotLending {
  private readonly now: () => number;
  private readonly held = new Map<string, Held>();
  private quietUntil = 0;
  private stopped = false;
  /** Claims of this process's slots, one at a time: slots reaching a step at once would race for the
   *  same head (PostgreSQL skips a locked row) and read a lost race as "nobody waits". */
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: LendingOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The item ended (or was given back): forget it. */
  leave(itemId: string): void {
    this.held.delete(itemId);
  }

  /** No more lending (shutdown); borrowed items already running finish. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Called before each step of `item` after its first. Returns when the item may take its next
   * step: at once, or after its slot was lent out; throws GiveBack when the item ran in a lent slot
   * past the lending time.
   */
  async atStep(item: WorkItem): Promise<void> {
    if (this.o.sliceMs <= 0 || this.stopped) return;
    const now = this.now();
    let h = this.held.get(item.id);
    if (!h) this.held.set(item.id, (h = { since: now }));
    if (h.lentUntil !== undefined) {
      if (now >= h.lentUntil && now - h.since >= this.o.sliceMs) {
        this.o.onLoan?.('given_back');
        throw new GiveBack(`${item.id} ran past the lending of its slot`);
      }
      return;
    }
    if (now - h.since < this.o.sliceMs || now < this.quietUntil) return;
    const until = now + LEND_SLICES * this.o.sliceMs;
    while (!this.stopped && this.now() < until) {
      const claim = this.claiming.then(() => this.now() < this.quietUntil ? [] : this.o.store.claimItems(this.o.owner, 1, this.o.leaseMs, this.now(), undefined, [item.accountId]));
      this.claiming = claim.catch(() => {});
      const [other] = await claim;
      if (!other) {
        this.quietUntil = this.now() + QUIET_MS;
        break;
      }
      this.o.onLoan?.('lent');
      this.held.set(other.id, { since: this.now(), lentUntil: until });
      try {
        await this.o.run(other);
      } catch (e) {
        this.o.onError?.(e);
        break;
      } finally {
        this.held.delete(other.id);
      }
    }
    h.since = this.now();
  }
}
