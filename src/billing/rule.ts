/**
 * The billing rule of decision 20, written once for every store.
 *
 * - A query is billed what it found, in its unit: its `units` when the adapter counts units inside
 *   records (reviews inside places), else its records.
 * - A query that found nothing costs one unit where the endpoint says so (`emptyCostsOne`), unless
 *   totalLimit cut it away before it was searched for the client.
 * - With dropDuplicates, a query that found records is billed only for the records whose identity
 *   was not seen before in the request; one whose records were all duplicates found something, so it
 *   is not an empty search, and costs nothing.
 * - At the request's end, dropped duplicates are billed only when they exceed 50 times the kept records.
 *
 * The stores call `itemBilling` before they write (it needs nothing they hold) and only pick among
 * its answers with what they hold: the request's `emptyCostsOne`, and the count of new keys. The pick
 * is written here twice, side by side: `itemQuantity` for a store that holds those in TypeScript
 * (SQLite), `itemQuantitySql` for one that learns them inside its completion statement (PostgreSQL).
 *
 * @example itemBilling({ count: 0 }).emptyCostsOne // 1
 */

export interface ItemFound {
  /** Records kept for the query (after totalLimit). */
  count: number;
  /** Units inside the records, when the adapter counts them. */
  units?: number;
  /** totalLimit cut the query away entirely. */
  cutByTotal?: boolean;
  /** dropDuplicates identity keys were given. */
  deduped?: boolean;
}

export interface ItemBilling {
  /** Units billed when the endpoint's empty queries are free. */
  emptyFree: number;
  /** Units billed when an empty query costs one. */
  emptyCostsOne: number;
  /** Bill the count of keys not seen before in the request instead (dropDuplicates). */
  byNewKeys: boolean;
}

export function itemBilling(o: ItemFound): ItemBilling {
  const found = o.units ?? o.count;
  if (found === 0) return { emptyFree: 0, emptyCostsOne: o.cutByTotal ? 0 : 1, byNewKeys: false };
  return { emptyFree: found, emptyCostsOne: found, byNewKeys: !!o.deduped };
}

/**
 * Units one item is billed, given what only the store knows.
 * @example itemQuantity(itemBilling({ count: 2, deduped: true }), true, 0) // 0
 */
export function itemQuantity(b: ItemBilling, emptyCostsOne: boolean, newKeys: number): number {
  if (b.byNewKeys) return newKeys;
  return emptyCostsOne ? b.emptyCostsOne : b.emptyFree;
}

/**
 * itemQuantity as a SQL expression, over the SQL that holds each input: the statement's parameters
 * carrying the ItemBilling answers, the request's empty_costs_one, and the count of new keys.
 *
 * @example itemQuantitySql({ emptyFree: '$8', emptyCostsOne: '$9', byNewKeys: '$12' }, 'r.empty_costs_one', 'k.n')
 */
export function itemQuantitySql(b: Record<keyof ItemBilling, string>, emptyCostsOne: string, newKeys: string): string {
  return `CASE WHEN ${b.byNewKeys} THEN ${newKeys} WHEN ${emptyCostsOne} THEN ${b.emptyCostsOne} ELSE ${b.emptyFree} END`;
}

/**
 * Units billed at the end of a dropDuplicates request for its dropped records (decision 20).
 * @example duplicateSurcharge(52, 1) // 51
 */
export function duplicateSurcharge(records: number, kept: number): number {
  const dropped = records - kept;
  return dropped > 50 * kept ? dropped : 0;
}
