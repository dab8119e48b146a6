/**
 * The lease check every write of a running query starts with (completion, failure, checkpoint):
 * the item, still leased by this owner, with what its request says about billing.
 *
 * @example const it = ownedItem(h, 'r1:0', 'w1'); if (!it || it.status !== 'Pending') return false;
 */
import { canChargeSql } from '../../billing/credit.ts';
import type { Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';

/** The leased item of this owner with its request, or null when the lease was lost. Also read in the
 *  same statement (issue 37: each was a statement of every completion): `payable`, 1 when the account
 *  may be charged (the credit rule, ./billing.ts canPay), and `checkpointed`, 1 when the item has a
 *  checkpoint (saved chunks come with one: ./results.ts saveProgress writes both in one transaction). */
export function ownedItem(h: SqliteDb, itemId: string, owner: string): Row | null {
  return (h.s(OWNED_ITEM).get(itemId, owner) as Row | undefined) ?? null;
}

// Built once: a text built at each call is a new string for the statement cache to hash.
const OWNED_ITEM = `SELECT w.id, w.request_id, w.query_index, r.account_id, r.product, r.unit, r.unit_price_micros, r.empty_costs_one,
                     r.drop_duplicates, r.status,
                     EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id AND ${canChargeSql('a')}) AS payable,
                     EXISTS (SELECT 1 FROM item_progress p WHERE p.request_id = w.request_id AND p.query_index = w.query_index) AS checkpointed
                   FROM work_items w JOIN requests r ON r.id = w.request_id
                   WHERE w.id = ? AND w.state = 'leased' AND w.lease_owner = ?`;
