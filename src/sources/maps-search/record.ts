/**
 * `/maps/search` returns place records (interface 2.3); the type and field list live with the place
 * mapper in maps-place/record.ts.
 */
export { placeRecordFields, placeFieldKinds, recordShapeErrors, type PlaceRecord, type PlaceField } from '../_maps/record.ts';
