/**
 * One error type for everything the export layer refuses or fails at, so the HTTP layer can map
 * `bad_input` to a 422 and `corrupt_file` / `io` to a 500 without parsing messages.
 */
export type ExportErrorCode =
  | 'bad_format' // a format name the service does not offer
  | 'bad_input' // rows or options the writer cannot turn into a file
  | 'corrupt_file' // a file result that does not parse as its format
  | 'io'; // the file system said no

export class ExportError extends Error {
  readonly code: ExportErrorCode;
  constructor(code: ExportErrorCode, message: string, opts: { cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ExportError';
    this.code = code;
  }
}
