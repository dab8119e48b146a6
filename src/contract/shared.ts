/**
 * Shared query parameters of data endpoints (interface 2.2) and their interplay:
 * `format` forces `ui`, `ui` forces `async`.
 */
import { LANGUAGES, REGIONS, FORMATS } from './enums.ts';
import { bool, list, oneOf, str, type TSchema } from './dsl.ts';

export const MAX_QUERIES = 1000;

export const query = list(str({ maxLength: 8192 }), {
  min: 1, max: MAX_QUERIES,
  doc: 'Queries of this request: repeat the parameter (query=a&query=b) or use query[]=. At most 1000. Never split on commas.',
});

export const shared = {
  async: bool({ def: true, doc: 'false: the connection is held until results are ready (200 with data). true: 202 with a request id at once.' }),
  ui: bool({ def: false, doc: 'Run as a platform (UI) task whose results become a file. Forces async=true.' }),
  format: list(oneOf(FORMATS), { doc: 'Output file format of the task (xlsx default, csv, json, parquet). Forces ui=true.' }),
  webhook: str({ maxLength: 2048, doc: 'URL that receives a POST when the request ends (JSON body with id, status, results_location and quota_usage; header X-Hub-Signature-256 signs it). Overrides the account integration webhook.' }),
  fields: str({ maxLength: 4096, doc: 'Comma-separated field names to keep in each record.' }),
  escape_formulas: bool({ doc: 'Extension, with format=csv only: true escapes every formula-looking cell (numbers and phones too), false none; absent: all but plain numbers and phones (docs/exports.md). As a task\'s settings.escape_formulas.' }),
} satisfies Record<string, TSchema>;

export type SharedName = keyof typeof shared;
export const FULL_SET: SharedName[] = ['async', 'ui', 'format', 'webhook', 'fields'];

export const language = oneOf(LANGUAGES, { def: 'en', doc: 'Website language.' });
export const region = oneOf(REGIONS, { caseInsensitive: true, doc: 'Country of the website; case-insensitive.' });
