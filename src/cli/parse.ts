/**
 * `trawl parse <endpoint path> <file>`: prints, as one JSON array, the records the endpoint returns
 * for one captured response (HTML or JSON, with or without the anti-XSSI prefix, as the site served
 * it). The endpoints and the response kinds they read come from the registry (`SOURCES`). A file
 * this endpoint does not understand exits non-zero with the parser's reason.
 *
 * @example  npx trawl parse /maps/search ../shared/fixtures/google-maps/search_tbm-map_coffee_2024-12.json
 */
import { readFile } from 'node:fs/promises';
import type { SourceRow } from '../sources/_kit/source.ts';
import { SOURCES } from '../sources/registry.ts';
import { isSourceError } from '../sources/_kit/errors.ts';

/** The endpoints `trawl parse` reads, each with the response kinds it understands. */
function parseable(rows: readonly SourceRow[]): string {
  return rows.filter((r) => r.capture).map((r) => `  ${r.endpoint}: ${r.capture!.kinds.join('; ')}`).join('\n');
}

export async function parseCommand(endpoint: string | undefined, file: string | undefined, rows: readonly SourceRow[] = SOURCES): Promise<void> {
  if (!endpoint || !file) {
    process.stderr.write(`usage: trawl parse <endpoint path> <file>\nendpoints and the responses they read:\n${parseable(rows)}\n`);
    process.exit(2);
  }
  const path = endpoint.startsWith('/') ? endpoint : `/${endpoint}`;
  const capture = rows.find((r) => r.endpoint === path)?.capture;
  if (!capture) {
    process.stderr.write(`trawl parse: no parser for ${endpoint}; endpoints with one:\n${parseable(rows)}\n`);
    process.exit(2);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(`trawl parse: cannot read ${file}: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const parse = await capture.parse();
  try {
    process.stdout.write(`${JSON.stringify(await parse(text))}\n`);
  } catch (e) {
    // A typed answer (a gate, a removed page) is understood: it is the failure the request would end in.
    if (isSourceError(e) && e.type !== 'layout_changed') {
      process.stderr.write(`trawl parse: ${file} is a ${e.type} answer: ${e.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`trawl parse: ${file} is not a response ${endpoint} understands (${capture.kinds.join('; ')}): ${(e as Error).message}\n`);
    process.exit(1);
  }
}
