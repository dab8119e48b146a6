/**
 * How a business record is kept in the store's `record` text: a JSON array of the values in FIELDS
 * order (a record's keys were 40 % of its bytes), then, when the record has fields this list does not
 * name, an object of those. Text written as a JSON object (older rows) still reads.
 *
 * @example decodeRecord(encodeRecord(r)) // deep-equal to r
 */
import type { BusinessRecord } from './contract.ts';

/** Append only: a stored array is read by position. */
const FIELDS = ['os_id', 'place_id', 'engine_id', 'name', 'phone', 'site', 'domain', 'full_address', 'street', 'city', 'county', 'state', 'postal_code',
  'country_code', 'latitude', 'longitude', 'rating', 'reviews', 'types', 'category', 'business_status', 'verified', 'area_service', 'working_hours', 'source'] as const;
const KNOWN = new Set<string>(FIELDS);

export function encodeRecord(r: BusinessRecord): string {
  const rec = r as unknown as Record<string, unknown>;
  const values: unknown[] = FIELDS.map((f) => rec[f] ?? null);
  let extra: Record<string, unknown> | null = null;
  for (const k of Object.keys(rec)) {
    if (!KNOWN.has(k) && k !== 'added_timestamp' && k !== 'updated_timestamp' && rec[k] !== undefined) (extra ??= {})[k] = rec[k];
  }
  if (extra) values.push(extra);
  return JSON.stringify(values);
}

export function decodeRecord(text: string): BusinessRecord {
  const v = JSON.parse(text) as unknown;
  if (!Array.isArray(v)) return v as BusinessRecord;
  const out: Record<string, unknown> = {};
  FIELDS.forEach((f, i) => { out[f] = v[i] ?? null; });
  if (!Array.isArray(out.types)) out.types = [];
  if (v.length > FIELDS.length) Object.assign(out, v[FIELDS.length]);
  return out as unknown as BusinessRecord;
}
