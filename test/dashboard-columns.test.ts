/** The dashboard's record table puts a place's columns in the order people read them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnsOf } from '../web/src/table.ts';
import { placeRecord } from '../src/contract/records/place.ts';

test('a place record: name, category, address, phone, site, rating, reviews first; the ids last', () => {
  // Every field the contract declares, in its declaration order (query, name, place_id, engine_id, ...).
  const record = Object.fromEntries(Object.keys(placeRecord.properties).map((k) => [k, null]));
  const cols = columnsOf([record]);
  assert.deepEqual(cols.slice(0, 7), ['name', 'category', 'full_address', 'phone', 'site', 'rating', 'reviews']);
  const ids = ['place_id', 'engine_id', 'cid', 'reviews_id', 'owner_id', 'located_engine_id'];
  assert.deepEqual(new Set(cols.slice(-ids.length)), new Set(ids));
  assert.equal(cols.length, Object.keys(record).length, 'no column lost or doubled');
  assert.ok(cols.indexOf('query') < cols.indexOf('place_id'));
});

test('records of other kinds keep their own order, ids after the rest', () => {
  assert.deepEqual(columnsOf([{ id: 'x', query: 'q', city: 'Paris', title: 'T' }]), ['title', 'query', 'city', 'id']);
});
