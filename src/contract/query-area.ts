/**
 * Per-query areas: a task with `locations` searches each category over each location as an area
 * (docs/areas.md), so its queries share a phrase but not an area. The request's stored parameters
 * carry each query's area under QUERY_AREAS, aligned with the queries (null: a phrase query without
 * an area); no query-string parameter can set it. The runner gives each query its own as `area`.
 *
 * @example
 *   queryWithArea({ queryIndex: 1, params: { [QUERY_AREAS]: ['US>Nevada', 'US>Utah'] } }).params.area // 'US>Utah'
 */

export const QUERY_AREAS = '_queryAreas';

/** The areas of a request's queries, when it has some. */
export function queryAreas(params: Record<string, unknown>): (string | null)[] | undefined {
  const a = params[QUERY_AREAS];
  return Array.isArray(a) ? (a as (string | null)[]) : undefined;
}

/** Whether a request's queries search areas (its own `area`, or areas per query). */
export function searchesAreas(params: Record<string, unknown>): boolean {
  return typeof params.area === 'string' || !!queryAreas(params)?.some((a) => typeof a === 'string');
}

/** The item with its own area as `area` (and the list left out); unchanged without one. */
export function queryWithArea<T extends { queryIndex: number; params: Record<string, unknown> }>(item: T): T {
  const areas = queryAreas(item.params);
  if (!areas) return item;
  const { [QUERY_AREAS]: _list, ...rest } = item.params;
  const area = areas[item.queryIndex];
  return { ...item, params: typeof area === 'string' ? { ...rest, area } : rest };
}
