/**
 * The credit rule while work runs (decision 26): a work item is billed only while its account's
 * balance plus credit limit is above zero, checked in the same store transaction as the charge (a
 * conditional UPDATE on PostgreSQL, one serialized transaction on SQLite). The charge that crosses
 * the line is the last: the balance never passes `-credit_limit` by more than one item's worth (its
 * own product and its enrichments). An item that completes after that is not billed and not
 * delivered: its query ends with this reason, like any failed query (decision 25).
 *
 * @example reasonOf(BALANCE_EXHAUSTED) // { type: 'balance_exhausted', message: 'balance exhausted' }
 */
export const BALANCE_EXHAUSTED = 'balance_exhausted: balance exhausted';
