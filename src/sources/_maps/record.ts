/**
 * The place record of interface section 2.3, as the contract declares it (src/contract/records/place.ts):
 * exactly its fields, in its order. A value the source does not hold is `null` (decision 22), never
 * an empty string or a guessed default.
 */
import type { Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { placeFields, placeRecord, type orderLink, type popularDay, type weekHours } from '../../contract/records/place.ts';

export type PlaceRecord = Static<typeof placeRecord>;
/** One weekday of the "popular times" chart. */
export type PopularDay = Static<typeof popularDay>;
export type PopularHour = PopularDay['popular_times'][number];
export type OrderLink = Static<typeof orderLink>;
/** Day name → time ranges joined by `,` (or `Closed`). Keys keep the page's language. */
export type WeekHours = Static<typeof weekHours>;

export type PlaceField = keyof typeof placeFields;

/**
 * The 2.3 field names in the interface's order (the order records are serialised in).
 *
 * @example
 *   placeRecordFields[0] // 'query'
 */
export const placeRecordFields = Object.keys(placeFields) as readonly PlaceField[];

/**
 * What is wrong with a record against the declared place schema (a missing 2.3 field, a value of
 * another shape): path and message each; [] when the record is well-formed.
 *
 * @example
 *   recordShapeErrors(rec) // [] or ['/rating: Expected union value, got "4.2"']
 */
export function recordShapeErrors(rec: Record<string, unknown>): string[] {
  return [...Value.Errors(placeRecord, rec)].map((e) => `${e.path}: ${e.message}, got ${JSON.stringify(e.value)?.slice(0, 60)}`);
}
