/**
 * What a task listing (GET /tasks) shows of a task: its metadata cut to a bounded size, written once
 * when the task is created, so a listing never reads nor sends the whole body (issue 28: 40 listed
 * tasks of 1 MiB each held `/health` for seconds). Each text is cut to SUMMARY_TEXT characters, each
 * list to its first SUMMARY_ITEMS values with `<name>_count` beside it when it had more, a list of
 * objects (filters) to its count alone, and only the body's declared fields are kept (settings and
 * UISettings one level deep, their first 20 fields); at most SUMMARY_MAX_CHARS of JSON in all.
 *
 * @example taskSummary({ serviceName: 'engine_maps_service_v2', queries: qs, tags: [], spec: { limit: 5 } })
 *   // { limit: 5, service_name: 'engine_maps_service_v2', queries: qs.slice(0, 10), queries_count: qs.length, tags: [] }
 */
import type { TaskRow } from './contract.ts';

export const SUMMARY_ITEMS = 10;
export const SUMMARY_TEXT = 200;
/** Past this (a body of many long declared fields), a summary keeps the service, queries and tags alone. */
export const SUMMARY_MAX_CHARS = 8 * 1024;

/** The POST /tasks fields a listing shows (the rest of a body stays with the task, unlisted). */
const LISTED = new Set(['service_name', 'queries', 'enrichments', 'tags', 'enrich', 'settings', 'categories', 'locations', 'language', 'region',
  'limit', 'organizationsPerQueryLimit', 'filters', 'exactMatch', 'useZipCodes', 'dropDuplicates', 'dropEmailDuplicates', 'ignoreWithoutEmails',
  'enrichLocations', 'UISettings']);

const text = (s: string) => (s.length > SUMMARY_TEXT ? s.slice(0, SUMMARY_TEXT) : s);

/** One object's fields, bounded; `nested` objects one level deep (settings, UISettings). */
function bounded(o: Record<string, unknown>, keep: (k: string) => boolean, nested: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let fields = 0;
  for (const [k, v] of Object.entries(o)) {
    if (!keep(k) || (!nested && ++fields > 20)) continue;
    if (typeof v === 'string') out[k] = text(v);
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[k] = v;
    else if (Array.isArray(v)) {
      const scalars = v.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean');
      if (scalars) out[k] = v.slice(0, SUMMARY_ITEMS).map((x) => (typeof x === 'string' ? text(x) : x));
      if (!scalars || v.length > SUMMARY_ITEMS) out[`${k}_count`] = v.length;
    } else if (nested && typeof v === 'object') {
      out[k] = bounded(v as Record<string, unknown>, (n) => n.length <= SUMMARY_TEXT, false);
    }
  }
  return out;
}

export function taskSummary(t: Pick<TaskRow, 'serviceName' | 'queries' | 'tags' | 'spec'>): Record<string, unknown> {
  // The searched queries (categories x locations expanded) and tags as stored, not as the body gave them.
  const core = { service_name: t.serviceName, queries: t.queries, tags: t.tags };
  const full = bounded({ ...t.spec, ...core }, (k) => LISTED.has(k), true);
  return JSON.stringify(full).length <= SUMMARY_MAX_CHARS ? full : bounded(core, () => true, false);
}
