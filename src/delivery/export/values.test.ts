import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldOf, kindOf, parseNested, plainValue, tabularValue, toJsonText } from './values.ts';
import { escapeXlsxText, unescapeXlsxText } from './xlsx-text.ts';
import { ExportError } from './errors.ts';

test('plainValue normalises what JSON cannot say', () => {
  assert.equal(plainValue(undefined), null);
  assert.equal(plainValue(NaN), null);
  assert.equal(plainValue(Infinity), null);
  assert.equal(plainValue(() => 1), null);
  assert.equal(plainValue(new Date('nope')), null);
  assert.equal(plainValue(7n), 7);
  assert.equal(plainValue(2n ** 64n), '18446744073709551616');
  const d = new Date(1);
  assert.equal(plainValue(d), d);
});

test('kindOf separates whole numbers, which parquet stores as INT64', () => {
  assert.equal(kindOf(3), 'integer');
  assert.equal(kindOf(3.5), 'number');
  assert.equal(kindOf(2 ** 60), 'number');
  assert.equal(kindOf({}), 'nested');
  assert.equal(kindOf(new Date(0)), 'date');
});

test('tabularValue: dates to ISO, nested to compact JSON, scalars kept', () => {
  assert.equal(tabularValue(new Date(Date.UTC(2024, 1, 29, 13))), '2024-02-29T13:00:00.000Z');
  assert.equal(tabularValue({ a: [1, 2n] }), '{"a":[1,2]}');
  assert.equal(tabularValue(false), false);
  assert.equal(tabularValue(undefined), null);
});

test('toJsonText turns a cycle into bad_input', () => {
  const o: Record<string, unknown> = {};
  o.o = o;
  assert.throws(() => toJsonText(o), (e: unknown) => e instanceof ExportError && e.code === 'bad_input');
});

test('fieldOf prefers the exact key, then follows dots', () => {
  assert.equal(fieldOf({ 'a.b': 1, a: { b: 2 } }, 'a.b'), 1);
  assert.equal(fieldOf({ a: { b: { c: 3 } } }, 'a.b.c'), 3);
  assert.equal(fieldOf({ a: null }, 'a.b'), undefined);
  assert.equal(fieldOf({ a: 'str' }, 'a.length'), undefined);
});

test('parseNested only parses whole JSON objects/arrays', () => {
  assert.deepEqual(parseNested('{"x":1}'), { x: 1 });
  assert.equal(parseNested('[closed]'), '[closed]');
  assert.equal(parseNested('12'), '12');
  assert.equal(parseNested(''), '');
});

test('xlsx text escapes control characters, CR and literal escape-lookalikes, and reverses exactly', () => {
  const s = 'a\r\nb\u0001c\u001f_x0041_d_x12_\uffff';
  const e = escapeXlsxText(s);
  assert.equal(e, 'a_x000D_\nb_x0001_c_x001F__x005F_x0041_d_x12__xFFFF_');
  assert.equal(unescapeXlsxText(e), s);
  assert.equal(escapeXlsxText('plain text'), 'plain text');
});
