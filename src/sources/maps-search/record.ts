/**
 * `/maps/search` returns place records (interface 2.3); the type and field list come from the contract
 * through _maps/record.ts.
 */
export { placeRecordFields, recordShapeErrors, type PlaceRecord, type PlaceField } from '../_maps/record.ts';
