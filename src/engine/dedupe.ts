/**
 * The identity of a record for `dropDuplicates` (decision 20): equal organisations across queries.
 * Places carry stable ids; other records fall back to their whole JSON.
 *
 * @example dedupeKey({ engine_id: '0x1:0x2', name: 'A' }) // 'engine_id:0x1:0x2'
 */
const ID_FIELDS = ['engine_id', 'place_id', 'cid', 'os_id', 'review_id', 'id'];

export function dedupeKey(r: Record<string, unknown>): string {
  for (const f of ID_FIELDS) {
    const v = r[f];
    if (typeof v === 'string' && v) return `${f}:${v}`;
  }
  const { query: _q, ...rest } = r;
  return `json:${JSON.stringify(rest)}`;
}

/** A filter that keeps the first record of each identity, in order (dropDuplicates on read). */
export function firstOfEach(seen: Set<string> = new Set()): (r: Record<string, unknown>) => boolean {
  return (r) => {
    const k = dedupeKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  };
}
