/**
 * Billing, the store's ledger part (issue 16): prices, usage lines, direct charges and the daily
 * roll-up. What a work item costs is decided by the billing rule (src/billing/rule.ts) and written by
 * the completion itself, in the item's transaction (../requests/contract.ts, completeItem); this part
 * holds what is billed outside work items and what reads the ledger.
 *
 * Money is integer micros, millionths of the account's currency unit (src/billing/money.ts).
 *
 * @example await store.chargeUsage({ accountId, key: 'page:1', product: 'businesses', unit: 'business', quantity: 3, unitPriceMicros, now })
 */
import type { Micros } from '../../billing/money.ts';

export interface UsageLine {
  product: string;
  unit: string;
  quantity: number;
  amountMicros: Micros;
  unitPriceMicros: Micros;
}

/** A usage line outside work items; `key` is unique per billed answer. */
export interface DirectCharge {
  accountId: string;
  key: string;
  product: string;
  unit: string;
  quantity: number;
  unitPriceMicros: Micros;
  now: number;
}

export interface BillingStore {
  setPrice(product: string, unitPriceMicros: Micros, accountId?: string | null): Promise<void>;
  /** Account price, else the default price, else null. */
  getPrice(product: string, accountId: string): Promise<Micros | null>;
  usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]>;
  /** Bills a usage line that belongs to no work item (a synchronous answer, e.g. a `POST /businesses`
   *  page) in one transaction with the account's charge. Refused (false, nothing written) when the
   *  account is past due or its balance plus credit is at or below zero at that moment, so concurrent
   *  answers cannot draw it further than one answer past the limit (decisions 19, 26). A key billed
   *  already bills nothing and answers true. */
  chargeUsage(c: DirectCharge): Promise<boolean>;
  /** Merges usage lines created before `before` (the janitor passes a UTC midnight) into one line per
   *  account, UTC day, product, unit and unit price, keyed `day:YYYY-MM-DD|account|product|unit|price`
   *  and dated at the day's start: sums stay exact, the balance is untouched, and a period starting
   *  on a UTC day boundary sums the same before and after. Idempotent (merged lines are not merged
   *  again). With `limit`, at most `limit` lines in one short transaction; returns the lines merged. */
  rollupUsage(before: number, limit?: number): Promise<number>;
}
