/**
 * The two statements that end a work item on PostgreSQL, one operation each (run by ./items.ts).
 *
 * One statement does the whole completion. Run on its own (autocommit), the hot rows (the request,
 * shared by its items, and the account, shared by all its requests) stay locked only while it runs,
 * not for further round trips. Locks are taken item, then account, then request:
 *   it    locks the item if this owner still leases it (no row: nothing below writes anything)
 *   keys  with dropDuplicates, records the identity keys not seen before in the request (not when
 *         the account already cannot pay, as far as the statement's snapshot shows)
 *   q     what the item costs, as src/billing/rule.ts decided it before the statement ($8 when empty
 *         queries are free, $9 when they cost one, $12: bill the new keys instead); the statement
 *         only picks by the request's empty_costs_one and counts the new keys (rule.ts's
 *         itemQuantitySql); `places` is what the per-place products (enrichments, x: $13-$15) bill
 *   pay   charges the account the whole item (own product and enrichments) only while it may be charged
 *         (not past due, balance plus credit above zero): a conditional UPDATE, re-checked on the row's latest version when a
 *         concurrent charge held it (src/billing/credit.ts); `ok.paid` says whether it did
 *   prog  drops the item's checkpoint (how many chunks it saved: a streamed query's first records)
 *   res   stores the records (a result already there is kept), after those chunks when streamed ($10);
 *         unpaid: no records and the BALANCE_EXHAUSTED reason ($16); the row's `stored_chunks` is 0
 *         when this statement stored the query's records whole (FanIn.stored), null when it kept one
 *   unchunk deletes the chunks of a query that was not streamed (a buffering adapter's checkpoint) or not paid
 *   bill, extra  the usage lines, unique per item and product (paid only)
 *   req   counts the item on its request and, when it was the last one, ends the request
 *   hook  creates the webhook delivery of a request that just ended (`deliveries`: whether it made any)
 * $7 (alone; $5 in FAIL) = true: the statement is its own transaction and leaves dropDuplicates requests alone,
 * because their end needs the keys counted by a later statement (see endRequest in ./requests.ts); those go
 * through an explicit transaction with $7 = false, where endRequest adds the surcharge and the webhook row.
 *
 * @example await h.q(COMPLETE_ITEM, completeArgs(outcome, true))
 */
import { BALANCE_EXHAUSTED, canChargeSql } from '../../billing/credit.ts';
import { itemBilling, itemQuantitySql, type ItemBilling } from '../../billing/rule.ts';
import type { ItemOutcome } from '../requests/contract.ts';
import { deliveryOfEndedSql } from './webhooks.ts';

/** Where the statement holds the rule's answers ($8, $9, $12: completeArgs) and the new keys. The
 *  answer's byNewKeys is only a candidate: keys are counted for dropDuplicates requests alone. */
const PICK: Record<keyof ItemBilling, string> = { emptyFree: '$8::bigint', emptyCostsOne: '$9::bigint', byNewKeys: '$12::boolean AND it.drop_duplicates' };
const NEW_KEYS = '(SELECT COUNT(*) FROM keys)';

/**
 * The item `$1` and its request, the request found by its key alone. Joined only on
 * `r.id = w.request_id`, the plan chosen for a statement planned once may scan every request: with
 * no statistics (autovacuum off, or a new database not yet analyzed) the planner assumes `requests`
 * is ten pages, and a scan filtered on the status looked as cheap as the key's index. That plan then
 * stays for the connection's life while the table grows (issue 37, session 16: each completion of the
 * service bench read about 1,700 requests, a thousand queries after the start). Compared with a value
 * read before the join (an InitPlan), the key's index is always the cheaper way.
 */
const ITEM_AND_REQUEST = 'work_items w JOIN requests r ON r.id = w.request_id AND r.id = (SELECT i.request_id FROM work_items i WHERE i.id = $1)';

/** What a completion's statement needs beyond the usual item: identity keys to record (dropDuplicates:
 *  `keys`), per-place products to bill (enrichments: `extra`), a checkpoint and its chunks to drop
 *  (`progress`: false only when none can exist, ./checkpoint-free.ts). */
export interface CompletionParts { keys: boolean; extra: boolean; progress: boolean }

/**
 * COMPLETE_ITEM with only the parts an outcome needs: without identity keys (`$5` null) the `keys`
 * insert records nothing and counts 0, without enrichments (`$13`-`$15` empty) `extra` bills nothing,
 * yet each writing CTE opens its table and indexes at the statement's start whether it writes or not
 * (issue 37: the executor's start-up, 15 % of the backends' CPU in the service bench, most of it the
 * completion's ten writing CTEs and the claim's plan). Without `progress`, `prog` and `unchunk` (the
 * checkpoint's row and its chunks deleted) are left out: the caller knows the item has neither.
 * Unused parameters stay typed (`unused`, which the planner drops), so every variant takes
 * completeArgs' arguments.
 */
export function completeItemSql(parts: CompletionParts): string {
  const newKeys = parts.keys ? NEW_KEYS : '0';
  const keys = parts.keys ? `
    keys AS (INSERT INTO request_keys (request_id, key)
             SELECT DISTINCT it.request_id, k FROM it, unnest($5::text[]) AS k
             WHERE it.drop_duplicates AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = it.account_id AND ${canChargeSql('a')})
             ON CONFLICT DO NOTHING RETURNING 1),` : '';
  const places = parts.extra ? `
                                                   - q.places * (SELECT COALESCE(SUM(price), 0) FROM x)` : '';
  const x = parts.extra ? `
    x AS (SELECT * FROM unnest($13::text[], $14::text[], $15::bigint[]) AS x(product, unit, price)),` : '';
  const extra = parts.extra ? `
    extra AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT q.account_id, q.request_id, q.id || '|' || x.product, x.product, x.unit, q.places, x.price, q.places * x.price, $6
              FROM q, ok, x WHERE ok.paid AND q.places > 0
              ON CONFLICT (item_key) DO NOTHING),` : '';
  const prog = parts.progress ? `
    prog AS (DELETE FROM item_progress p USING it WHERE p.request_id = it.request_id AND p.query_index = it.query_index RETURNING p.chunks),` : '';
  const unchunk = parts.progress ? `
    unchunk AS (DELETE FROM result_chunks c USING it, ok WHERE (NOT $10::boolean OR NOT ok.paid) AND c.request_id = it.request_id AND c.query_index = it.query_index),` : '';
  const chunks = parts.progress ? 'CASE WHEN ok.paid AND $10::boolean THEN COALESCE((SELECT chunks FROM prog), 0) ELSE 0 END' : '0';
  const unused = [parts.keys ? '' : '$5::text[]', parts.extra ? '' : '$13::text[], $14::text[], $15::bigint[]', parts.progress ? '' : '$10::boolean']
    .filter(Boolean).join(', ');
  return `
    WITH it AS (
      SELECT w.id, w.request_id, w.query_index, r.account_id, r.product, r.unit, r.unit_price_micros, r.empty_costs_one, r.drop_duplicates
      FROM ${ITEM_AND_REQUEST}
      WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' AND NOT ($7 AND r.drop_duplicates)
      FOR UPDATE OF w),${keys}
    q AS (SELECT it.*, ${itemQuantitySql(PICK, 'it.empty_costs_one', newKeys)} AS quantity, ${itemQuantitySql(PICK, 'false', newKeys)} AS places
          FROM it),${x}
    pay AS (UPDATE accounts a SET balance_micros = a.balance_micros - q.quantity * q.unit_price_micros${places}
            FROM q WHERE a.id = q.account_id AND ${canChargeSql('a')}
            RETURNING a.id),
    ok AS (SELECT EXISTS (SELECT 1 FROM pay) AS paid),${prog}
    res AS (INSERT INTO results (request_id, query_index, records, count, error, chunks)
            SELECT request_id, query_index, CASE WHEN ok.paid THEN $3 ELSE '[]' END, CASE WHEN ok.paid THEN $4::int ELSE 0 END,
                   CASE WHEN ok.paid THEN $11::text ELSE $16::text END, ${chunks}
            FROM it, ok ON CONFLICT DO NOTHING RETURNING chunks),${unchunk}
    done AS (UPDATE work_items w SET state = CASE WHEN ok.paid THEN 'done' ELSE 'failed' END, lease_owner = NULL, lease_until = NULL,
               error = CASE WHEN ok.paid THEN NULL ELSE $16::text END
             FROM it, ok WHERE w.id = it.id),
    bill AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
             SELECT account_id, request_id, id, product, unit, quantity, unit_price_micros, quantity * unit_price_micros, $6 FROM q, ok
             WHERE ok.paid AND quantity > 0
             ON CONFLICT (item_key) DO NOTHING RETURNING quantity),${extra}
    req AS (UPDATE requests r SET queries_done = r.queries_done + 1, queries_ok = r.queries_ok + ok.paid::int,
              records = r.records + CASE WHEN ok.paid THEN $4::int ELSE 0 END,
              usage = r.usage + COALESCE((SELECT quantity FROM bill), 0),
              status = CASE WHEN r.queries_done + 1 < r.queries_total THEN r.status WHEN r.queries_ok + ok.paid::int > 0 THEN 'Success' ELSE 'Failure' END,
              finished_at = CASE WHEN r.queries_done + 1 >= r.queries_total THEN $6 ELSE r.finished_at END
            FROM it, ok WHERE r.id = it.request_id
            RETURNING r.*, NOT ok.paid AS balance_exhausted),${unused ? `
    unused AS (SELECT ${unused}),` : ''}
    hook AS (${deliveryOfEndedSql('$6', '$7')})
    SELECT req.*, (SELECT chunks FROM res) AS stored_chunks, EXISTS (SELECT 1 FROM hook) AS deliveries FROM req`;
}

/** Every part: what any outcome can ask. */
export const COMPLETE_ITEM = completeItemSql({ keys: true, extra: true, progress: true });

const VARIANTS = new Map<string, string>();

/** The statement for an outcome: the parts it needs (completeItemSql), made once each. `progress`:
 *  whether the item may have a checkpoint (false only when ./checkpoint-free.ts says it has none). */
export function completeItemFor(o: Pick<ItemOutcome, 'dedupeKeys' | 'extraProducts'>, progress: boolean): string {
  const parts = { keys: o.dedupeKeys != null, extra: !!o.extraProducts?.length, progress };
  const k = `${parts.keys}${parts.extra}${parts.progress}`;
  let sql = VARIANTS.get(k);
  if (!sql) VARIANTS.set(k, (sql = completeItemSql(parts)));
  return sql;
}

/** The arguments of COMPLETE_ITEM for an outcome (`alone`: its own transaction, see above). */
export function completeArgs(o: ItemOutcome & { cutByTotal?: boolean }, alone: boolean): unknown[] {
  // The billing rule (src/billing/rule.ts), decided here; the statement picks by what it holds.
  // `deduped` is only a candidate: the statement bills by new keys for dropDuplicates requests alone.
  const b = itemBilling({ count: o.count, units: o.units, cutByTotal: o.cutByTotal, deduped: !!o.dedupeKeys });
  const x = o.extraProducts ?? [];
  // A big result's bytes, encoded a slice a turn by the runner, go as they are (a text parameter in
  // binary form is its UTF-8 bytes): the driver does not encode 12 MB of text in one go.
  return [o.itemId, o.owner, o.recordsUtf8 ?? o.recordsJson, o.count, o.dedupeKeys ?? null, o.now, alone, b.emptyFree, b.emptyCostsOne, !!o.streamed, o.note ?? null, b.byNewKeys,
    x.map((e) => e.product), x.map((e) => e.unit), x.map((e) => e.unitPriceMicros), BALANCE_EXHAUSTED];
}

/** The same for an item that failed for good: an empty result with the error, nothing billed.
 *  Arguments: item id, owner, error, now, alone. */
export const FAIL_ITEM = `
    WITH it AS (
      SELECT w.id, w.request_id, w.query_index
      FROM ${ITEM_AND_REQUEST}
      WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' AND NOT ($5 AND r.drop_duplicates)
      FOR UPDATE OF w),
    res AS (INSERT INTO results (request_id, query_index, records, count, error)
            SELECT request_id, query_index, '[]', 0, $3 FROM it ON CONFLICT DO NOTHING),
    prog AS (DELETE FROM item_progress p USING it WHERE p.request_id = it.request_id AND p.query_index = it.query_index),
    unchunk AS (DELETE FROM result_chunks c USING it WHERE c.request_id = it.request_id AND c.query_index = it.query_index),
    done AS (UPDATE work_items w SET state = 'failed', lease_owner = NULL, lease_until = NULL, error = $3 FROM it WHERE w.id = it.id),
    req AS (UPDATE requests r SET queries_done = r.queries_done + 1,
              status = CASE WHEN r.queries_done + 1 >= r.queries_total THEN CASE WHEN r.queries_ok > 0 THEN 'Success' ELSE 'Failure' END ELSE r.status END,
              finished_at = CASE WHEN r.queries_done + 1 >= r.queries_total THEN $4 ELSE r.finished_at END
            FROM it WHERE r.id = it.request_id
            RETURNING r.*),
    hook AS (${deliveryOfEndedSql('$4', '$5')})
    SELECT req.*, EXISTS (SELECT 1 FROM hook) AS deliveries FROM req`;
