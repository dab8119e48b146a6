/**
 * Forward geocoding offline (`/geocoding`, match `city`): how fast a text becomes a complete record,
 * and how often the city a text names is the place it was written from.
 *
 *   node bin/run-ts.js bench/geocoding.bench.ts
 *
 * Texts: 20,000 seeded GeoNames places (cities500, equal weight each), written as an address ends:
 * `<name>, <state>, <country>` (the state as GeoNames names it, the country in English), and again as
 * `<name>, <country>`. Found = the gazetteer's point within 1 km of the place's own. Throughput: median
 * of 3 passes over the first form, against a baseline in the same run: the reverse record at the same
 * points (the work a forward record repeats once its city is found).
 */
import { availableParallelism, loadavg } from 'node:os';
import { loadAdminNames } from '../src/lookups/geo/admin-names.ts';
import { loadPlaces } from '../src/lookups/geo/places.ts';
import { loadReverseGeocoder } from '../src/lookups/geo/reverse.ts';
import { countryName } from '../src/lookups/geo/country.ts';
import { findCity } from '../src/lookups/geo/forward.ts';
import { geocode } from '../src/lookups/geo/geocoding-adapter.ts';
import { median, table, writeSection } from './lib.ts';

const N = 20_000;
const RUNS = 3;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

let s = 20_261_127 >>> 0;
const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);

const t0 = performance.now();
findCity('Paris');
const gazetteerMs = performance.now() - t0;
const geo = await loadReverseGeocoder();
const places = loadPlaces(loadAdminNames());
const picked = Array.from({ length: N }, () => Math.floor(rnd() * places.count));
const full = picked.map((j) => [places.name[j], places.admin1Name[j], countryName(places.country[j])].filter(Boolean).join(', '));
const short = picked.map((j) => [places.name[j], countryName(places.country[j])].filter(Boolean).join(', '));

const km = (a: number, b: number, c: number, d: number) => {
  const r = Math.PI / 180;
  const x = Math.sin(((c - a) * r) / 2) ** 2 + Math.cos(a * r) * Math.cos(c * r) * Math.sin(((d - b) * r) / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(x));
};
const found = (texts: string[]) => {
  let same = 0;
  let none = 0;
  texts.forEach((t, i) => {
    const m = findCity(t);
    if (!m) { none++; return; }
    if (km(m.city.lat, m.city.lng, places.lat[picked[i]], places.lng[picked[i]]) <= 1) same++;
  });
  return { same: same / texts.length, none: none / texts.length };
};
const fullHit = found(full);
const shortHit = found(short);

async function perSecond(run: () => Promise<void> | void): Promise<number> {
  const c = process.cpuUsage();
  await run();
  const u = process.cpuUsage(c);
  return (N / ((u.user + u.system) / 1000)) * 1000;
}
const fwd: number[] = [];
const base: number[] = [];
await geocode(full[0]);
for (let r = 0; r < RUNS; r++) {
  base.push(await perSecond(() => { for (const j of picked) geo.reverse(places.lat[j], places.lng[j]); }));
  fwd.push(await perSecond(async () => { for (const t of full) await geocode(t); }));
}

const out = [
  `Node ${process.version}, load average at start ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores; ${fmt(N)} seeded GeoNames places (seed 20261127), median of ${RUNS}, per CPU second.`,
  '',
  table(['Measure', 'Value'], [
    ['gazetteer load (first text read), wall clock', `${fmt(gazetteerMs)} ms`],
    ['`<name>, <state>, <country>`: the place itself found (within 1 km)', `${fmt(fullHit.same * 100, 1)} %`],
    ['`<name>, <state>, <country>`: nothing found', `${fmt(fullHit.none * 100, 1)} %`],
    ['`<name>, <country>`: the place itself found', `${fmt(shortHit.same * 100, 1)} %`],
    ['`<name>, <country>`: nothing found', `${fmt(shortHit.none * 100, 1)} %`],
    ['complete forward records (`geocode`) per CPU s', `${fmt(median(fwd))} (runs ${fwd.map((x) => fmt(x)).join(', ')})`],
    ['baseline: reverse records at the same points per CPU s', `${fmt(median(base))} (runs ${base.map((x) => fmt(x)).join(', ')})`],
    ['forward / baseline', `${fmt(median(fwd) / median(base), 2)}×`],
  ]),
  '',
  'A miss is mostly a name several places share inside one region (the most populous wins); without the region (`<name>, <country>`) more names are shared.',
];
writeSection('docs/performance/geocoding.md', `# Forward geocoding offline (\`bench/geocoding.bench.ts\`)\n\n${out.join('\n')}`);
console.log(out.join('\n'));
