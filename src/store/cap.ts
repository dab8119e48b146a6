/**
 * `totalLimit` (interface 4.2) applied where it can be exact: inside the transaction that completes
 * an item, against the records its request already kept. Both stores call it.
 *
 * @example capToTotal({ ...outcome, count: 3, totalLimit: 5 }, 4).count // 1
 */
import type { ItemOutcome } from './contract.ts';

/** Cuts an item's records to what `totalLimit` still allows after `kept` records of its request. */
export function capToTotal(o: ItemOutcome, kept: number): ItemOutcome & { cutByTotal?: boolean } {
  if (o.totalLimit === undefined) return o;
  const room = Math.max(0, o.totalLimit - kept);
  if (o.count <= room) return o;
  const records = (JSON.parse(o.recordsJson) as unknown[]).slice(0, room);
  return { ...o, recordsJson: JSON.stringify(records), recordsUtf8: undefined, count: room, units: o.units === undefined ? undefined : Math.min(o.units, room),
    dedupeKeys: o.dedupeKeys?.slice(0, room), cutByTotal: room === 0 };
}

