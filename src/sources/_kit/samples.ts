/**
 * What the registry test checks for one source row: each named sample, read by the row's capture
 * parser, gives records that pass the endpoint's declared record schema. Shared so a test can run
 * the same check on a source it builds itself.
 *
 * @example
 *   const r = await checkSample(row, row.samples![0], endpointFor(row.endpoint)!.record);
 *   if ('skip' in r) t.skip(r.skip); else assert.deepEqual(r.problems, []);
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { fixturePath } from './fixtures.ts';
import type { SourceRow, SourceSample } from './source.ts';

/** Where a sample file is: under FIXTURES_DIR (real capture) or beside the row's index.ts. */
export function samplePath(row: SourceRow, s: SourceSample): string {
  if (s.fixture) return fixturePath(s.file);
  if (!row.folder) throw new Error(`${row.endpoint}: a constructed sample needs the row's folder`);
  return fileURLToPath(new URL(s.file, row.folder));
}

/** The served body of a sample file (unwrapped from a constructed sample's envelope when named). */
export function bodyOf(text: string, s: SourceSample): string {
  if (!s.unwrap) return text;
  const inner = (JSON.parse(text) as Record<string, unknown>)[s.unwrap];
  if (inner === undefined) throw new Error(`${s.file} has no "${s.unwrap}" property`);
  return typeof inner === 'string' ? inner : JSON.stringify(inner);
}

/** The outcome: skipped (real capture absent), or the records read and every schema problem found. */
export type SampleCheck = { skip: string } | { records: number; problems: string[] };

/**
 * Parses the sample with the row's capture parser and checks every record against `schema`;
 * a problem reads `record 3 /reviews_data/0/review_img_urls: Expected array`.
 */
export async function checkSample(row: SourceRow, s: SourceSample, schema: TSchema, maxProblems = 20): Promise<SampleCheck> {
  const path = samplePath(row, s);
  if (!existsSync(path)) {
    if (s.fixture) return { skip: `real capture ${s.file} not found under FIXTURES_DIR (${path})` };
    return { records: 0, problems: [`constructed sample ${s.file} is missing at ${path}`] };
  }
  if (!row.capture) return { records: 0, problems: [`${row.endpoint} names samples but has no capture parser`] };
  const parse = await row.capture.parse();
  let records: unknown[];
  try {
    records = await parse(bodyOf(await readFile(path, 'utf8'), s), s.query);
  } catch (e) {
    return { records: 0, problems: [`the capture parser refused ${s.file}: ${(e as Error).message}`] };
  }
  const problems: string[] = [];
  if (!Array.isArray(records)) return { records: 0, problems: [`the capture parser gave no array for ${s.file}`] };
  if (s.empty && records.length) problems.push(`${s.file} is marked empty but gave ${records.length} records`);
  if (!s.empty && records.length === 0) problems.push(`${s.file} gave no records: a sample must show the record shape (or be marked empty: true)`);
  records.forEach((r, i) => {
    if (problems.length >= maxProblems) return;
    for (const e of Value.Errors(schema, r)) {
      problems.push(`record ${i} ${e.path || '/'}: ${e.message}`);
      if (problems.length >= maxProblems) break;
    }
  });
  return { records: records.length, problems };
}
