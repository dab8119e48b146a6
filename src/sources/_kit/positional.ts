/**
 * Safe positional reading of nested arrays, as the map product serves them: data lives at fixed
 * indexes (`[6][11]` is the name...), and any level may be missing or of another type when the
 * site changes. Every reader returns null instead of throwing.
 *
 * @example
 *   at(place, 6, 11)            // unknown, or null when any step is missing
 *   str(place, 6, 11)           // string or null
 *   num(place, 6, 9, 2)         // finite number or null
 *   arr(place, 6, 13)           // array (possibly empty) or null
 */
export function at(root: unknown, ...path: number[]): unknown {
  let cur: unknown = root;
  for (const i of path) {
    if (!Array.isArray(cur) || i < 0 || i >= cur.length) return null;
    cur = cur[i];
  }
  return cur === undefined ? null : cur;
}

export function str(root: unknown, ...path: number[]): string | null {
  const v = at(root, ...path);
  return typeof v === 'string' ? v : null;
}

export function num(root: unknown, ...path: number[]): number | null {
  const v = at(root, ...path);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function int(root: unknown, ...path: number[]): number | null {
  const v = num(root, ...path);
  return v === null ? null : Math.trunc(v);
}

export function bool(root: unknown, ...path: number[]): boolean | null {
  const v = at(root, ...path);
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  return null;
}

export function arr(root: unknown, ...path: number[]): unknown[] | null {
  const v = at(root, ...path);
  return Array.isArray(v) ? v : null;
}
