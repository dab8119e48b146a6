import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentTypeOf, defaultExportFormat, exportFormats, extensionOf, isExportFormat, parseExportFormat } from './formats.ts';
import { ExportError } from './errors.ts';

test('the four formats of decisions.md 16, xlsx first and default', () => {
  assert.deepEqual([...exportFormats], ['xlsx', 'csv', 'json', 'parquet']);
  assert.equal(defaultExportFormat, 'xlsx');
});

test('content types and extensions', () => {
  assert.equal(contentTypeOf('xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  assert.equal(contentTypeOf('csv'), 'text/csv; charset=utf-8');
  assert.equal(contentTypeOf('json'), 'application/json; charset=utf-8');
  assert.equal(contentTypeOf('parquet'), 'application/vnd.apache.parquet');
  assert.deepEqual(exportFormats.map(extensionOf), ['xlsx', 'csv', 'json', 'parquet']);
});

test('parseExportFormat forgives case and blanks, refuses the rest with the allowed list', () => {
  assert.equal(parseExportFormat(' CSV '), 'csv');
  assert.equal(isExportFormat('CSV'), false);
  assert.throws(() => parseExportFormat('xls'), (e: unknown) => e instanceof ExportError && e.code === 'bad_format' && /xlsx, csv, json, parquet, got "xls"/.test(e.message));
  assert.throws(() => parseExportFormat(undefined), ExportError);
});
