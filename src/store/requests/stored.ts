/**
 * FanIn.stored of a completion that stored its query's records whole, for both stores: the result
 * as stored, so the synchronous answer is sent from it instead of read back (issue 15).
 *
 * @example storedOf({ ...outcome, recordsJson: '[]', count: 0 }) // { recordsJson: '[]', recordsUtf8: undefined, count: 0, error: null }
 */
import type { FanIn, ItemOutcome } from './contract.ts';

/** `utf8`: the records text's UTF-8 bytes, when the store encoded them (sent as they are). */
export function storedOf(o: ItemOutcome, utf8?: Buffer): NonNullable<FanIn['stored']> {
  return { recordsJson: o.recordsJson, recordsUtf8: utf8, count: o.count, error: o.note ?? null };
}
