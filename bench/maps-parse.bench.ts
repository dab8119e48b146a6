/**
 * Map parsers' throughput on the real captures: the parser (text → complete 2.3 records) against
 * bare JSON.parse of the same body (the floor: the parser cannot be faster than parsing the JSON).
 * Each row is the median of 3 runs; each run repeats the parse for ~1.5 s after a warm-up. Speeds are
 * by CPU time of this process (the dev box is shared), wall-clock speeds in brackets.
 *
 *   node bin/run-ts.js bench/maps-parse.bench.ts
 *
 * Needs FIXTURES_DIR (default ../shared/fixtures) with google-maps/ in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripXssi } from '../src/sources/_kit/xssi.ts';
import { parseSearchBody } from '../src/sources/_maps/search-body.ts';
import { extractPlaceFromHtml, parsePlaceBody } from '../src/sources/_maps/place-parse.ts';
import { appInitState } from '../src/sources/_maps/html.ts';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { parserTable, sink, type ParserRow } from './lib.ts';

const dir = fixturePath('google-maps');
if (!existsSync(dir)) {
  console.error(`fixtures not found at ${dir} (set FIXTURES_DIR)`);
  process.exit(1);
}
const read = (f: string) => readFileSync(resolve(dir, f), 'utf8');
const search = ")]}'\n" + read('search_tbm-map_coffee_2024-12.json');
const placeEn = ")]}'\n" + read('place_kipriakon_en_2023-09.json');
const html = read('place_page_tipsy-sticks_2023-04.html');

const RUN_MS = 1500;
const rows: ParserRow[] = [
  {
    name: 'search body (20 places) → records',
    bytes: Buffer.byteLength(search),
    base: 'JSON.parse',
    baseFn: () => (JSON.parse(stripXssi(search)) as unknown[]).length,
    fn: () => parseSearchBody(search, { query: 'coffee' }).length,
  },
  {
    name: 'place body (Kipriakon en) → record',
    bytes: Buffer.byteLength(placeEn),
    base: 'JSON.parse',
    baseFn: () => (JSON.parse(stripXssi(placeEn)) as unknown[]).length,
    fn: () => (parsePlaceBody(placeEn).name ? 1 : 0),
  },
  {
    name: 'place page HTML (730 KB) → record',
    bytes: Buffer.byteLength(html),
    base: 'state literal cut + JSON.parse',
    baseFn: () => (appInitState(html) ? 1 : 0),
    fn: () => (extractPlaceFromHtml(html).name ? 1 : 0),
  },
];

const out: string[] = [];
out.push(`node ${process.version}, ${RUN_MS} ms per run, median of 3 runs; MB/s by CPU time (wall time in brackets)`);
out.push('');
out.push(...parserTable(rows, RUN_MS));
console.log(out.join('\n'));
if (sink === 0.5) console.log(sink);
