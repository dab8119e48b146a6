/**
 * Parse throughput of the maps-more adapters (reviews, places-by-domain, autocomplete, events,
 * careers), each against a baseline measured in the same run on the same body:
 *   JSON answers  → plain JSON.parse of the body (the floor any parser pays);
 *   HTML answers  → cheerio.load (present as a dev tool's dependency) when available.
 * Bodies: constructed pages (see each folder) and, when present, the real search capture.
 * Prints a markdown table of medians of 5 runs. Bounded: ~0.3 s per run per case.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as reviewsParse } from '../src/sources/maps-reviews/parse.ts';
import { constructedPage } from '../src/sources/maps-reviews/constructed-page.ts';
import { adapter as placesByDomain } from '../src/sources/places-by-domain/adapter.ts';
import { parse as domainParse } from '../src/sources/places-by-domain/parse.ts';
import { adapter as mapsAutocomplete } from '../src/sources/maps-autocomplete/adapter.ts';
import { adapter as searchEvents } from '../src/sources/search-events/adapter.ts';
import { adapter as searchCareers } from '../src/sources/search-careers/adapter.ts';
import type { Step } from '../src/sources/_kit/adapter.ts';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { median } from './lib.ts';

const RUNS = 5;
const RUN_MS = 300;

function opsPerSec(fn: () => unknown): number {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < RUN_MS) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}
function measure(fn: () => unknown): number {
  for (let i = 0; i < 50; i++) fn(); // warm-up
  return median(Array.from({ length: RUNS }, () => opsPerSec(fn)));
}

const res = (body: string) => ({ status: 200, url: 'https://www.google.com/', headers: { date: 'Tue, 02 Jun 2026 10:00:00 GMT' }, body });
const rows: string[][] = [];
function row(name: string, bytes: number, fn: () => unknown, baseName: string, base: (() => unknown) | null) {
  const ours = measure(fn);
  const b = base ? measure(base) : NaN;
  rows.push([name, String(bytes), ours.toFixed(0), baseName, Number.isNaN(b) ? 'n/a' : b.toFixed(0), Number.isNaN(b) ? 'n/a' : (ours / b).toFixed(2)]);
}

let cheerioLoad: ((html: string) => unknown) | null = null;
try {
  const mod = (await import('cheerio')) as unknown as { load: (h: string) => unknown };
  cheerioLoad = (h) => mod.load(h);
} catch {
  cheerioLoad = null;
}

// Reviews: a 20-review constructed page.
const page = constructedPage(Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, rating: 1 + (i % 5), ts: 1_700_000_000 - i * 3600, text: 'Constructed review text '.repeat(8), likes: i, reply: i % 3 ? undefined : { text: 'Thanks!', ts: 1_700_000_100 } })), 'NEXT');
const rStep: Step = { kind: 'reviews-page', url: 'u', expect: 'xssi-json', state: { key: 'K', engineId: '0x1:0x2', got: 0, page: 0, token: null } };
const rCtx = { query: 'q', params: { reviewsLimit: 0 } };
row('reviews page (20 reviews, constructed)', page.length, () => reviewsParse(rStep, res(page), rCtx), 'JSON.parse', () => JSON.parse(page.slice(5)));

// Places by domain: the real 20-place search capture.
const FIX = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
if (existsSync(FIX)) {
  const body = readFileSync(FIX, 'utf8');
  const dCtx = { query: 'coffeeisland.gr', params: {} };
  const [dStep] = placesByDomain.plan(dCtx);
  row('places-by-domain search page (20 places, real)', body.length, () => domainParse(dStep, res(body), dCtx), 'JSON.parse', () => JSON.parse(body));
}

// Autocomplete: constructed answer.
const ac = ")]}'\n" + JSON.stringify(JSON.parse(readFileSync('src/sources/maps-autocomplete/constructed-autocomplete.json', 'utf8')).body);
const aCtx = { query: 'pizza te', params: {} };
const [aStep] = mapsAutocomplete.plan(aCtx);
row('autocomplete answer (3 rows, constructed)', ac.length, () => mapsAutocomplete.parse(aStep, res(ac), aCtx), 'JSON.parse', () => JSON.parse(ac.slice(5)));

// Events and careers: constructed pages padded to a results-page size (~300 KB of other markup).
const pad = '<div class="x"><span>filler</span><a href="/search?q=x">link</a></div>\n'.repeat(4000);
const ev = readFileSync('src/sources/search-events/constructed-events.html', 'utf8').replace('<body>', `<body>${pad}`);
const eCtx = { query: 'concerts', params: {} };
const [eStep] = searchEvents.plan(eCtx);
row('events page (2 cards + 300 KB markup, constructed)', ev.length, () => searchEvents.parse(eStep, res(ev), eCtx), 'cheerio.load', cheerioLoad && (() => cheerioLoad!(ev)));
const jobs = readFileSync('src/sources/search-careers/constructed-jobs.html', 'utf8').replace('<body>', `<body>${pad}`);
const jCtx = { query: 'python developer', params: {} };
const [jStep] = searchCareers.plan(jCtx);
row('jobs page (2 cards + 300 KB markup, constructed)', jobs.length, () => searchCareers.parse(jStep, res(jobs), jCtx), 'cheerio.load', cheerioLoad && (() => cheerioLoad!(jobs)));

console.log(`\nNode ${process.version}, ${RUNS} runs x ${RUN_MS} ms, medians (ops/s = parsed responses per second)\n`);
console.log('| case | bytes | ops/s | baseline | baseline ops/s | ratio |');
console.log('| --- | ---: | ---: | --- | ---: | ---: |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
