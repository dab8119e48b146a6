/**
 * Fixed-arity positional readers for the record mapper's hot path. Same answers as `at`/`str`/`num`
 * of `_kit/positional.ts` (null for any missing step, a non-array on the way, or `undefined`), but
 * without the rest-parameter array and its iterator on every call: the mapper makes about a hundred
 * reads per place, 2,000 per search page, and most run before the optimising compiler kicks in.
 */

/**
 * `v[i]`, or null.
 *
 * @example
 *   at1([1, 2], 1) // 2
 *   at1([1], 5)    // null
 */
export function at1(v: unknown, i: number): unknown {
  if (!Array.isArray(v) || i >= v.length) return null;
  const r: unknown = v[i];
  return r === undefined ? null : r;
}

/** @example at2([[1, 2]], 0, 1) // 2 */
export function at2(v: unknown, i: number, j: number): unknown {
  return at1(at1(v, i), j);
}

/** @example at3([[[7]]], 0, 0, 0) // 7 */
export function at3(v: unknown, i: number, j: number, k: number): unknown {
  return at1(at1(at1(v, i), j), k);
}

/** @example at4([[[[7]]]], 0, 0, 0, 0) // 7 */
export function at4(v: unknown, i: number, j: number, k: number, l: number): unknown {
  return at1(at1(at1(at1(v, i), j), k), l);
}

/**
 * The value when it is a string, else null.
 *
 * @example
 *   asStr(at1(node, 11)) // 'Kipriakon'
 */
export function asStr(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/**
 * The value when it is a finite number, else null.
 *
 * @example
 *   asNum(at2(node, 9, 2)) // 34.67
 */
export function asNum(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The value truncated to an integer when it is a finite number, else null (as `int` of positional.ts).
 *
 * @example
 *   asInt(3.9) // 3
 */
export function asInt(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null;
}

/**
 * The value when it is an array, else null.
 *
 * @example
 *   asArr(at2(node, 100, 1)) // [[...], ...] or null
 */
export function asArr(v: unknown): unknown[] | null {
  return Array.isArray(v) ? v : null;
}
