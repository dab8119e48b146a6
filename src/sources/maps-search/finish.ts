/**
 * Merging the records of all steps of one query: duplicates (the query's own view overlaps its
 * sub-cells; pages may repeat a place) dropped, first occurrence kept, then cut to `limit`.
 */
import type { PlaceRecord } from '../_maps/record.ts';

/** Identity of a place: engine_id, else place_id, else name + coordinates. */
export function placeKey(r: PlaceRecord): string {
  if (r.engine_id) return 'e:' + r.engine_id.toLowerCase();
  if (r.place_id) return 'p:' + r.place_id;
  return `n:${r.name ?? ''}|${r.latitude ?? ''}|${r.longitude ?? ''}|${r.full_address ?? ''}`;
}

/**
 * @example
 *   mergePlaces([a, a2, b], 500) // [a, b] when a2 has a's engine_id
 */
export function mergePlaces(records: PlaceRecord[], limit: number): PlaceRecord[] {
  const seen = new Set<string>();
  const seenPid = new Set<string>();
  const out: PlaceRecord[] = [];
  for (const r of records) {
    if (out.length >= limit) break;
    const k = placeKey(r);
    // The same place can come back with only one of the two ids; check both.
    if (seen.has(k) || (r.place_id && seenPid.has(r.place_id))) continue;
    seen.add(k);
    if (r.place_id) seenPid.add(r.place_id);
    out.push(r);
  }
  return out;
}
