/**
 * How one record value becomes one file value. Every writer goes through here so the four formats
 * agree on nulls, dates, big integers and nested values.
 *
 * Rules (docs/exports.md repeats them for users):
 * - `undefined`, functions, symbols, NaN, ±Infinity and invalid dates are `null` (JSON has no other
 *   way to say them, and a made-up value would be worse).
 * - A `bigint` is a number when it is a safe integer, else its decimal string (no precision loss).
 * - A valid `Date` stays a date here; tabular writers print it as an ISO 8601 UTC string.
 * - Objects and arrays are "nested": JSON formats keep them, tabular cells hold their compact JSON text.
 */

import { ExportError } from './errors.ts';

export type Row = Record<string, unknown>;

/** A value after normalisation: what a writer may meet. */
export type Plain = null | string | number | boolean | Date | object;

/** The kind of a normalised value, used to type parquet columns. */
export type ValueKind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'date' | 'nested';

/**
 * Normalises one value as the rules above say (shallow: nested values are left as they are).
 * @example plainValue(10n) // 10
 * @example plainValue(undefined) // null
 */
export function plainValue(v: unknown): Plain {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'bigint':
      return bigintValue(v);
    case 'object':
      if (v === null) return null;
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v;
      return v;
    default:
      return null;
  }
}

/**
 * A bigint as a number when it is a safe integer, else its decimal string (no precision loss).
 * @example bigintValue(2n ** 60n) // '1152921504606846976'
 */
export function bigintValue(v: bigint): number | string {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/**
 * The kind of an already-normalised value.
 * @example kindOf(4.5) // 'number'
 * @example kindOf([1]) // 'nested'
 */
export function kindOf(v: Plain): ValueKind {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isSafeInteger(v) ? 'integer' : 'number';
    case 'string':
      return 'string';
    default:
      return v instanceof Date ? 'date' : 'nested';
  }
}

/**
 * `JSON.stringify` replacer that never throws on a bigint (JSON.stringify does) and keeps its digits.
 * Non-finite numbers and undefined are handled by JSON.stringify itself (null / dropped).
 */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? bigintValue(value) : value;
}

/**
 * Compact JSON text of any value, bigint-safe (or through another `replacer`). Throws `bad_input`
 * on a cycle.
 * @example toJsonText({ a: 1n }) // '{"a":1}'
 */
export function toJsonText(v: unknown, replacer: (this: any, key: string, value: unknown) => unknown = jsonReplacer): string {
  try {
    return JSON.stringify(v, replacer) ?? 'null';
  } catch (e) {
    throw new ExportError('bad_input', `a value cannot be written as JSON: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Throws `bad_input` when a nested value contains itself (JSON cannot hold it). Cheaper than a
 * trial JSON.stringify for writers that serialise later, inside a library.
 * @example assertAcyclic({ a: [1, { b: 2 }] }) // ok
 */
export function assertAcyclic(v: unknown, ancestors: object[] = []): void {
  if (v === null || typeof v !== 'object' || v instanceof Date) return;
  if (ancestors.includes(v)) throw new ExportError('bad_input', 'a value cannot be written as JSON: it contains itself (circular structure)');
  ancestors.push(v);
  for (const key of Object.keys(v)) assertAcyclic((v as Record<string, unknown>)[key], ancestors);
  ancestors.pop();
}

/**
 * The value a tabular cell (csv, xlsx) holds: null, a boolean, a number or a string.
 * @example tabularValue(new Date(0)) // '1970-01-01T00:00:00.000Z'
 * @example tabularValue({ Monday: '9-5' }) // '{"Monday":"9-5"}'
 */
export function tabularValue(v: unknown): null | string | number | boolean {
  const p = plainValue(v);
  if (p === null || typeof p !== 'object') return p;
  if (p instanceof Date) return p.toISOString();
  return toJsonText(p);
}

/**
 * Reads a column from a row: the own key first; otherwise, when the column name has dots, the
 * nested path (`working_hours.Monday`), so output_columns can pick inside nested values.
 * Missing → undefined.
 * @example fieldOf({ a: { b: 1 } }, 'a.b') // 1
 */
export function fieldOf(row: Row, column: string): unknown {
  if (Object.hasOwn(row, column)) return row[column];
  if (!column.includes('.')) return undefined;
  let cur: unknown = row;
  for (const part of column.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * Reverse of `tabularValue` for nested values: text that is a JSON object or array becomes that
 * value; anything else stays the string it is. (Documented ambiguity: a string whose whole text is
 * a JSON object/array comes back parsed.)
 * @example parseNested('["a",1]') // ['a', 1]
 * @example parseNested('[closed]') // '[closed]'
 */
export function parseNested(s: string): unknown {
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  const looksNested = (first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d); // {} or []
  if (!looksNested) return s;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** Asserts a row is a plain record, naming its position, so a bad producer gets a clear error. */
export function isRow(v: unknown): v is Row {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
