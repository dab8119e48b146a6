/**
 * Which queued items a claim takes first (issue 28): one account's backlog must not hold another
 * account's work. A FIFO made another account's one-query synchronous request wait 124 s behind
 * 2,000 queued items.
 *
 * The rule, the same on every queue backend (they all claim through the store): a claim first takes
 * each account's oldest due item, the accounts with the fewest items leased (running anywhere) first,
 * then fills the slots left oldest first, as before. Slots free up one or a few at a time while work
 * runs, so each free slot goes to the account running the least: an account that arrives behind a
 * backlog gets the next slot that frees (at most about one item's time), and accounts with backlogs
 * converge to equal shares of the workers. Unlike a per-account concurrency cap (Sidekiq's and
 * BullMQ Pro's groups), no slot is left idle while only one account has work; unlike BullMQ's
 * per-job priorities it needs no priority the submitter picks.
 *
 * @example pickFair([{ account_id: 'a', id: 'a1' }, { account_id: 'b', id: 'b1' }], new Map([['a', 16]]), 1) // [{ account_id: 'b', id: 'b1' }]
 */
import type { Row } from '../rows.ts';

/** `heads`: each unfinished request's oldest due item with its account, in the store's order. At most
 *  one per account, fewest leased first (ties: the store's order), at most `max`, none of `except`. */
export function pickFair(heads: Row[], busy: Map<string, number>, max: number, except: string[] = []): Row[] {
  const first = new Map<string, Row>();
  for (const h of heads) if (!first.has(h.account_id) && !except.includes(h.account_id)) first.set(h.account_id, h);
  return [...first.values()]
    .map((h, i) => ({ h, i, n: busy.get(h.account_id) ?? 0 }))
    .sort((a, b) => a.n - b.n || a.i - b.i)
    .slice(0, max)
    .map((x) => x.h);
}
