/**
 * A building or community listed once for many units (a search result with `isBuilding`, a
 * `buildingId` or `plid` and no zpid, or a `units[]` list): its units' range. Rental buildings list
 * `units[]` as `{price: "$2,895+", beds: "1"}` (numbers as text, "0" or "Studio" for a studio);
 * sale buildings and new-construction communities state `minBeds`/`minBaths`/`minArea` (and
 * sometimes the `max` ones) and a "From $988,901" price. Both are read; a single home has no range.
 * A unit whose value does not read leaves that range to the building's own fields (null without them);
 * each end is the units' and the building's own bound of that end, so a "From" community stating only
 * its `minBeds` has a null `max_beds`; a building's own bound there that does not read leaves that end null.
 */
import { amountOf } from '../_kit/money.ts';
import { isAdNode } from '../_kit/values.ts';
import type { EstateRecord } from './record.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

/** The range fields of a record, as the contract declares them. */
export type UnitRange = Pick<EstateRecord, 'is_building' | 'unit_count' | 'min_beds' | 'max_beds' | 'min_baths' | 'max_baths' | 'min_price' | 'max_price'>;

/** A count written as a number or as text ("2", "1.5", "Studio" = 0); null for anything else. */
export function countOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (/^studio$/i.test(t)) return 0;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : null;
}

const money = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : typeof v === 'string' ? amountOf(v) : null);

/** The low or high end of the values that read; null when none does. */
function end(values: Array<number | null>, pick: (...xs: number[]) => number): number | null {
  const xs = values.filter((x): x is number => x !== null);
  return xs.length ? pick(...xs) : null;
}

/**
 * The range of the units' values and the building's own: when some units state the value and
 * another's does not read, the units' range is not known (the missing one may be the cheapest), so
 * only the building's own values count. Each end comes from the units and the building's own bound
 * of that end: a community stating only `minBeds` ("From" its smallest home) has no known maximum,
 * and a bound that is there but does not read leaves its end unknown (never the other bound in its place).
 */
function unitSpan(units: Node[], key: string, value: (v: unknown) => number | null, ownMin: unknown, ownMax: unknown): [number | null, number | null] {
  const xs = units.map((u) => value(u[key]));
  const partial = xs.some((x) => x === null) && xs.some((x) => x !== null);
  const fromUnits = partial ? [] : xs;
  const [lo, hi] = [value(ownMin), value(ownMax)];
  return [
    ownMin != null && lo === null ? null : end([...fromUnits, lo], Math.min),
    ownMax != null && hi === null ? null : end([...fromUnits, hi], Math.max),
  ];
}

/** A building's units, without entries flagged as ads (a promoted tile is no unit of it). */
export function unitsOf(r: Node): Node[] {
  return Array.isArray(r.units) ? r.units.filter((u: unknown) => u && typeof u === 'object' && !isAdNode(u)) : [];
}

/** Whether a result node is a building of many units rather than one home. */
export function isBuildingNode(r: Node): boolean {
  if (r.isBuilding === true || Array.isArray(r.units)) return true;
  const hasZpid = r.zpid != null || r.hdpData?.homeInfo?.zpid != null;
  return !hasZpid && (r.buildingId != null || r.plid != null);
}

/**
 * The units' range of a building node; `is_building: false` and nulls for a single home.
 * @example unitRange({ isBuilding: true, units: [{ price: '$2,895+', beds: '0' }, { price: '$3,400+', beds: '2' }] }).max_beds // 2
 */
export function unitRange(r: Node): UnitRange {
  if (!isBuildingNode(r)) {
    return { is_building: false, unit_count: null, min_beds: null, max_beds: null, min_baths: null, max_baths: null, min_price: null, max_price: null };
  }
  const units = unitsOf(r);
  const [minBeds, maxBeds] = unitSpan(units, 'beds', countOf, r.minBeds, r.maxBeds);
  const [minBaths, maxBaths] = unitSpan(units, 'baths', countOf, r.minBaths, r.maxBaths);
  const [minPrice, maxPrice] = unitSpan(units, 'price', money, r.minPrice, r.maxPrice);
  const count = countOf(r.unitCount) ?? countOf(r.availabilityCount) ?? (units.length || null);
  return {
    is_building: true,
    unit_count: count === null ? null : Math.trunc(count),
    min_beds: minBeds,
    max_beds: maxBeds,
    min_baths: minBaths,
    max_baths: maxBaths,
    min_price: minPrice,
    max_price: maxPrice,
  };
}
