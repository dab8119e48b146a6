/**
 * Export files of UI tasks (decisions.md 16): write records as xlsx/csv/json/parquet, streaming and
 * atomically, and read such a file back as JSON records for `convertFileResult`. See docs/exports.md.
 */
export { writeExport, type ExportOptions, type ExportResult } from './write-export.ts';
export { readExportAsJson, csvValue } from './read-export.ts';
export { jsonArrayStream, jsonArrayText } from './json-text.ts';
export {
  exportFormats,
  defaultExportFormat,
  contentTypeOf,
  extensionOf,
  isExportFormat,
  parseExportFormat,
  type ExportFormat,
} from './formats.ts';
export { ExportError, type ExportErrorCode } from './errors.ts';
export type { RowSource, RowIterable } from './source.ts';
export type { Row } from './values.ts';
export { XLSX_MAX_DATA_ROWS } from './write-xlsx.ts';
