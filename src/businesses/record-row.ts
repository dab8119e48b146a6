/**
 * A row of a file of our own business records (an export: JSON lines, JSON, CSV, xlsx, parquet) back
 * as a business record, checked field by field: a file that is not such an export fails with the row
 * and field named, never by storing half a record. Readers type cells loosely (a CSV reader may give a
 * number for a postal code), so text fields accept numbers and list fields JSON text.
 *
 * @example businessFromRow({ os_id: 'bz_...', name: 'Joe', types: '["Cafe"]', rating: 4.5 }, 'line 3')
 */
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { osIdOf } from '../store/businesses/os-id.ts';

type Row = Record<string, unknown>;

const TEXT = ['place_id', 'engine_id', 'name', 'phone', 'site', 'domain', 'full_address', 'street', 'city', 'county', 'state', 'postal_code',
  'country_code', 'category', 'source'] as const;
const NUMBER = ['latitude', 'longitude', 'rating', 'reviews'] as const;
const FLAG = ['verified', 'area_service'] as const;
const STATUSES = new Set(['operational', 'closed_temporarily', 'closed_permanently']);
const OS_ID = /^bz_[0-9a-f]{24}$/;

export class RowError extends Error {}

export function businessFromRow(row: Row, at: string): BusinessRecord {
  const bad = (field: string, why: string): never => { throw new RowError(`${at}: ${field} ${why}`); };
  const out: Row = { ...row };
  for (const f of TEXT) {
    const v = row[f];
    if (v == null || v === '') out[f] = null;
    else if (typeof v === 'string' || typeof v === 'number') out[f] = String(v);
    else bad(f, `must be text, got ${JSON.stringify(v).slice(0, 40)}`);
  }
  for (const f of NUMBER) {
    const v = row[f] === '' ? null : row[f];
    const n = typeof v === 'string' ? Number(v) : v;
    if (n == null) out[f] = null;
    else if (typeof n === 'number' && Number.isFinite(n)) out[f] = n;
    else bad(f, `must be a number, got ${JSON.stringify(v).slice(0, 40)}`);
  }
  for (const f of FLAG) {
    const v = row[f];
    if (v == null || v === '') out[f] = null;
    else if (typeof v === 'boolean') out[f] = v;
    else if (v === 'true' || v === 'false') out[f] = v === 'true';
    else bad(f, 'must be true or false');
  }
  if (out.latitude != null && Math.abs(out.latitude as number) > 90) bad('latitude', 'must be within -90..90');
  if (out.longitude != null && Math.abs(out.longitude as number) > 180) bad('longitude', 'must be within -180..180');
  let types = row.types;
  if (typeof types === 'string') { try { types = types.trim() ? JSON.parse(types) : []; } catch { bad('types', 'must be a JSON array of texts'); } }
  if (types == null) types = [];
  if (!Array.isArray(types) || !types.every((t) => typeof t === 'string')) bad('types', 'must be an array of texts');
  out.types = types;
  const status = out.business_status = row.business_status == null || row.business_status === '' ? null : row.business_status;
  if (status !== null && !STATUSES.has(status as string)) bad('business_status', `must be one of ${[...STATUSES].join(', ')}`);
  if (out.working_hours === undefined) out.working_hours = null;
  if (!out.source) out.source = 'import';
  // The identity: the record's own os_id, else one derived the way a scrape derives it.
  const id = row.os_id;
  if (typeof id === 'string' && id !== '') { if (!OS_ID.test(id)) bad('os_id', 'must be bz_ and 24 hex digits (an os_id this service gave)'); }
  else if (out.place_id) out.os_id = osIdOf('place', out.place_id as string);
  else if (out.engine_id) out.os_id = osIdOf('engine', out.engine_id as string);
  else bad('os_id', 'is missing (and there is no place_id or engine_id to derive it from)');
  for (const f of ['added_timestamp', 'updated_timestamp'] as const) {
    const v = row[f] === '' || row[f] == null ? undefined : Number(row[f]);
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) bad(f, 'must be Unix seconds');
    if (v === undefined) delete out[f]; else out[f] = v;
  }
  return out as unknown as BusinessRecord;
}
