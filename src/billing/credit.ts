/**
 * The credit rule (decisions 19, 26), written once for both stores and the API: an account may be
 * charged only while it is not past due and its balance plus credit limit is above zero.
 *
 * While work runs, a work item is billed only while its account may be charged, checked in the same
 * store transaction as the charge (a conditional UPDATE on PostgreSQL, one serialized transaction on
 * SQLite). The charge that crosses the line is the last; the item itself was stopped at what the
 * account could still pay while it ran (./purse.ts), so it stays within the line. An item that completes after
 * that, or after an operator flagged the account past due, is not billed and not delivered: its query
 * ends with BALANCE_EXHAUSTED, like any failed query (decision 25). Charges that are not one item's
 * worth (the dropDuplicates surcharge at a request's end) are cut to what the account can still take
 * (`affordableUnits`), so they never pass the line at all.
 *
 * @example canCharge({ pastDue: false, balanceMicros: -1, creditLimitMicros: 5 }) // true
 */
import type { Micros } from './money.ts';

export const BALANCE_EXHAUSTED = 'balance_exhausted: balance exhausted';

/** What the rule reads of an account. */
export interface Chargeable { pastDue: boolean; balanceMicros: Micros; creditLimitMicros: Micros }

export function canCharge(a: Chargeable): boolean {
  return !a.pastDue && a.balanceMicros + a.creditLimitMicros > 0;
}

/**
 * The same test in SQL, on the accounts row named `a` (the same text on SQLite, where past_due is
 * 0 or 1, and on PostgreSQL, where it is a boolean).
 *
 * @example `SELECT 1 FROM accounts a WHERE a.id = ? AND ${canChargeSql('a')}`
 */
export const canChargeSql = (a: string): string => `NOT ${a}.past_due AND ${a}.balance_micros + ${a}.credit_limit_micros > 0`;

/**
 * How many of `units` at `unitPriceMicros` the account can take without its balance passing
 * `-credit_limit`: none when it may not be charged, all when they are free.
 *
 * @example affordableUnits({ pastDue: false, balanceMicros: 3_000_000, creditLimitMicros: 0 }, 51, 1_000_000) // 3
 */
export function affordableUnits(a: Chargeable, units: number, unitPriceMicros: Micros): number {
  if (units <= 0 || !canCharge(a)) return 0;
  if (unitPriceMicros <= 0) return units;
  return Math.min(units, Math.floor((a.balanceMicros + a.creditLimitMicros) / unitPriceMicros));
}
