import { FORMATS } from '../../contract/enums.ts';
import { ExportError } from './errors.ts';

/** File formats a UI task can deliver (decisions.md 16): the interface's `format` values. */
export const exportFormats = FORMATS;
export type ExportFormat = (typeof exportFormats)[number];

/** Used when a task names no format (decisions.md 16). */
export const defaultExportFormat: ExportFormat = 'xlsx';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  // No IANA registration exists; this is the value Apache projects and most object stores use.
  parquet: 'application/vnd.apache.parquet',
};

/**
 * True when `value` names a supported format (exact, lower-case).
 * @example isExportFormat('csv') // true
 */
export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && (exportFormats as readonly string[]).includes(value);
}

/**
 * Normalises a user-given format (case and surrounding blanks are forgiven) or throws `bad_format`.
 * @example parseExportFormat(' XLSX ') // 'xlsx'
 */
export function parseExportFormat(value: unknown): ExportFormat {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (isExportFormat(v)) return v;
  throw new ExportError(
    'bad_format',
    `format must be one of ${exportFormats.join(', ')}, got ${JSON.stringify(value)}`,
  );
}

/**
 * The Content-Type to serve a file of this format with.
 * @example contentTypeOf('csv') // 'text/csv; charset=utf-8'
 */
export function contentTypeOf(format: ExportFormat): string {
  return CONTENT_TYPES[parseExportFormat(format)];
}

/**
 * File name extension, without the dot.
 * @example extensionOf('parquet') // 'parquet'
 */
export function extensionOf(format: ExportFormat): string {
  return parseExportFormat(format);
}
