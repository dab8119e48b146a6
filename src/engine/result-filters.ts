/**
 * Task result filters (src/contract/result-filters.ts) read and applied. `filterProblem` says what a
 * filter list the service cannot read gets wrong, naming the filter (the 422 of POST /tasks);
 * `passesFilters` builds the test a record must pass. Pure: no I/O.
 *
 * @example
 *   filterProblem([{ key: 'ratting', operator: 'equals', value: 4 }], isPlaceField) // 'filters.0.key: "ratting" is not a field of ...'
 *   passesFilters([{ key: 'rating', operator: 'greater than', value: 4 }])({ rating: 4.5 }) // true
 */
import { BLANK_OPERATORS, NUMBER_OPERATORS, type FilterOperator } from '../contract/result-filters.ts';

type Scalar = string | number | boolean;
export interface ResultFilter {
  key: string;
  operator: FilterOperator;
  value?: Scalar | Scalar[] | null;
  exclusiveGroup?: string;
  labelKey?: string;
}

const isBlankOp = (o: string) => (BLANK_OPERATORS as readonly string[]).includes(o);
const isNumberOp = (o: string) => (NUMBER_OPERATORS as readonly string[]).includes(o);

/** A number as a record or a filter may hold it: a finite number, or text that is one. */
function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The first problem of a filter list the schema already accepted (types and operators), or undefined:
 * a key that is not a field of the record, a value that does not fit its operator, two filters of
 * one exclusive group.
 */
export function filterProblem(filters: readonly ResultFilter[], isField: (name: string) => boolean, recordName = 'place'): string | undefined {
  const groups = new Map<string, number>();
  for (const [i, f] of filters.entries()) {
    const at = `filters.${i}`;
    const head = f.key.split('.')[0];
    if (!isField(head)) return `${at}.key: ${JSON.stringify(f.key)} is not a field of the ${recordName} record`;
    const v = f.value;
    if (isBlankOp(f.operator)) {
      if (v !== undefined && v !== null) return `${at}.value: operator "${f.operator}" takes no value (null), got ${JSON.stringify(v).slice(0, 100)}`;
    } else if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) {
      return `${at}.value: operator "${f.operator}" needs a value`;
    } else if (isNumberOp(f.operator)) {
      if (Array.isArray(v) || numberOf(v) === undefined) return `${at}.value: operator "${f.operator}" needs a number, got ${JSON.stringify(v).slice(0, 100)}`;
    } else if (Array.isArray(v) && f.operator !== 'equals' && f.operator !== 'not equals') {
      return `${at}.value: operator "${f.operator}" takes one value, not a list`;
    }
    if (f.exclusiveGroup !== undefined) {
      const other = groups.get(f.exclusiveGroup);
      if (other !== undefined) return `${at}.exclusiveGroup: filters.${other} and filters.${i} are both in group ${JSON.stringify(f.exclusiveGroup)}; keep one`;
      groups.set(f.exclusiveGroup, i);
    }
  }
  return undefined;
}

/** The value at a dotted path of a record. */
function at(rec: Record<string, unknown>, key: string): unknown {
  let v: unknown = rec;
  for (const part of key.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function isBlank(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** A record's value as the lower-cased texts text operators compare: a list gives one per item. */
function textsOf(v: unknown): string[] {
  if (isBlank(v)) return [];
  const one = (x: unknown) => (typeof x === 'string' ? x : typeof x === 'object' ? JSON.stringify(x) : String(x)).trim().toLowerCase();
  return Array.isArray(v) ? v.filter((x) => !isBlank(x)).map(one) : [one(v)];
}

function test(f: ResultFilter): (rec: Record<string, unknown>) => boolean {
  const wanted = (Array.isArray(f.value) ? f.value : [f.value]).map((x) => String(x).trim().toLowerCase());
  const w = wanted[0];
  const n = numberOf(f.value);
  const num = (rec: Record<string, unknown>) => numberOf(at(rec, f.key));
  const texts = (rec: Record<string, unknown>) => textsOf(at(rec, f.key));
  switch (f.operator) {
    case 'is blank': return (r) => isBlank(at(r, f.key));
    case 'is not blank': return (r) => !isBlank(at(r, f.key));
    case 'equals': return (r) => texts(r).some((t) => wanted.includes(t));
    case 'not equals': return (r) => !texts(r).some((t) => wanted.includes(t));
    case 'contains': return (r) => texts(r).some((t) => t.includes(w));
    case 'not contains': return (r) => !texts(r).some((t) => t.includes(w));
    case 'starts with': return (r) => texts(r).some((t) => t.startsWith(w));
    case 'ends with': return (r) => texts(r).some((t) => t.endsWith(w));
    case 'greater than': return (r) => { const x = num(r); return x !== undefined && x > n!; };
    case 'greater than or equals': return (r) => { const x = num(r); return x !== undefined && x >= n!; };
    case 'less than': return (r) => { const x = num(r); return x !== undefined && x < n!; };
    case 'less than or equals': return (r) => { const x = num(r); return x !== undefined && x <= n!; };
  }
}

/** The test a record passes when it passes every filter (no filter: every record passes). */
export function passesFilters(filters: readonly ResultFilter[]): (rec: Record<string, unknown>) => boolean {
  const tests = filters.map(test);
  return (rec) => tests.every((t) => t(rec));
}
