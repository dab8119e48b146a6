/**
 * The place names a natural-language query may use, all shipped with the package (no network):
 * cities and towns from GeoNames cities500 (name and ASCII name), the US states by name and postal
 * code, and countries by their English name (ICU's, through Intl) or a common short form. Loaded
 * once, on the first query that names a place (about a second).
 *
 * @example placeAt(gazetteer(), ['austin', 'tx'], 0) // { kind: 'city', words: 1, name: 'Austin', ... }
 */
import { readFileSync } from 'node:fs';
import { CITIES500_TXT } from './data-files.ts';
import { loadAdminNames } from './admin-names.ts';
import { forEachRow, num, text } from './tsv.ts';
import { fold } from '../words.ts';

export interface City {
  kind: 'city'; name: string; ascii: string; country: string; state: string | null; stateCode: string; lat: number; lng: number; population: number;
  /** A section of a larger town (GeoNames PPLX: Monte-Carlo in Monaco, Brooklyn's neighbourhoods): addresses
   *  there name the town, not the section, so a search finds it by where it is. */
  section: boolean;
}
export interface State { kind: 'state'; name: string; code: string }
export interface Country { kind: 'country'; name: string; code: string }
export type Place = City | State | Country;

export interface Gazetteer {
  /** Folded name → cities of that name, most populous first. */
  cities: Map<string, City[]>;
  /** Folded US state name or lower-case code → state. */
  states: Map<string, State>;
  /** Folded country name or alias → country. */
  countries: Map<string, Country>;
  /** Most words in any name. */
  longest: number;
}

/** Short forms people write for countries that ICU names otherwise. */
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US', america: 'US', 'united states of america': 'US', us: 'US', uk: 'GB', 'great britain': 'GB',
  britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', holland: 'NL', 'czech republic': 'CZ', uae: 'AE', 'south korea': 'KR', korea: 'KR',
  russia: 'RU', 'ivory coast': 'CI',
};

/** Names whose everyday form is not GeoNames' name nor its ASCII name. */
const CITY_ALIASES: Record<string, string> = { 'new york': 'new york city', nyc: 'new york city', 'washington dc': 'washington', 'washington d c': 'washington' };
/** Codes Intl names that are not countries of an address: groupings, pseudo-regions, codes withdrawn
 *  from ISO 3166-1 (`DD` is named "Germany" too) and the exceptionally reserved ones. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ', 'FX', 'DD', 'SU', 'YU', 'CS', 'ZR', 'TP', 'BU', 'NT', 'AN', 'IC', 'EA', 'DG',
  'CP', 'AC', 'TA', 'CQ']);

/** The form names are compared in: folded, no dots, `st`/`ste` as `saint`/`sainte` (`St. Louis`). */
export const placeKey = (s: string) => fold(s).replace(/[.]/g, ' ').replace(/\bst\b/g, 'saint').replace(/\bste\b/g, 'sainte').replace(/\s+/g, ' ').trim();
const key = placeKey;

let cached: Gazetteer | undefined;

export function gazetteer(): Gazetteer {
  if (cached) return cached;
  const { admin1 } = loadAdminNames();
  const states = new Map<string, State>();
  for (const [code, name] of admin1) {
    if (!code.startsWith('US.')) continue;
    const s: State = { kind: 'state', name, code: code.slice(3) };
    states.set(key(name), s);
    states.set(s.code.toLowerCase(), s);
  }
  const countries = new Map<string, Country>();
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  for (let a = 65; a <= 90; a++) for (let b = 65; b <= 90; b++) {
    const code = String.fromCharCode(a, b);
    let name: string | undefined;
    try { name = display.of(code); } catch { name = undefined; }
    if (name && name !== code && !NOT_COUNTRIES.has(code) && !countries.has(key(name))) countries.set(key(name), { kind: 'country', name, code });
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) countries.set(alias, { kind: 'country', name: display.of(code) ?? code, code });
  const cities = new Map<string, City[]>();
  forEachRow(readFileSync(CITIES500_TXT), 15, (r) => {
    if (r.count < 15) return;
    const c: City = {
      kind: 'city', name: text(r, 1), ascii: text(r, 2), country: text(r, 8), stateCode: text(r, 10), state: null,
      lat: num(r, 4), lng: num(r, 5), population: num(r, 14) || 0, section: text(r, 7) === 'PPLX',
    };
    c.state = c.stateCode ? admin1.get(`${c.country}.${c.stateCode}`) ?? null : null;
    for (const k of new Set([key(c.name), key(c.ascii)])) {
      if (!k) continue;
      const list = cities.get(k);
      if (list) list.push(c); else cities.set(k, [c]);
    }
  });
  for (const list of cities.values()) list.sort((x, y) => y.population - x.population);
  let longest = 1;
  for (const m of [cities, states, countries] as Map<string, unknown>[]) for (const k of m.keys()) longest = Math.max(longest, k.split(' ').length);
  cached = { cities, states, countries, longest: Math.min(longest, 6) };
  return cached;
}

/** A place phrase: a city (optionally narrowed by a state or country after it), a US state, or a country. */
export interface PlaceMatch {
  words: number;
  place: Place;
  /** For a city: the state or country that followed it (`austin tx`, `lyon france`). */
  within?: State | Country;
  /** For a city known by another name than GeoNames' (`new york` for `New York City`): the name as said,
   *  capitalised, since addresses use that one. */
  said?: string;
}

/** A city must be this populous to be read over a state or country of the same name (`new york`, `georgia`). */
const CITY_OVER_REGION = 100_000;

/**
 * The longest place phrase at `words[i]`. A city followed by a state or country is narrowed by it
 * (`paris tx` is Paris, Texas); a name that is both a region and a city is the region unless the
 * city is a large one (`new york` is the city, `texas` the state).
 */
export function placeAt(g: Gazetteer, words: string[], i: number): PlaceMatch | null {
  for (let n = Math.min(g.longest, words.length - i); n >= 1; n--) {
    const k = key(words.slice(i, i + n).join(' '));
    const region: State | Country | undefined = g.states.get(k) ?? g.countries.get(k);
    const cities = g.cities.get(CITY_ALIASES[k] ?? k);
    if (cities) {
      const said = CITY_ALIASES[k] ? { said: k.replace(/\b\p{L}/gu, (x) => x.toUpperCase()) } : {};
      const after = regionAt(g, words, i + n);
      if (after) {
        const inside = cities.find((c) => (after.region.kind === 'state' ? c.country === 'US' && c.stateCode === after.region.code : c.country === after.region.code));
        if (inside) return { words: n + after.words, place: inside, within: after.region, ...said };
      }
      if (!region || cities[0].population >= CITY_OVER_REGION) return { words: n, place: cities[0], ...said };
    }
    // A two-letter state code alone is too easily an ordinary word (`in`, `or`, `me`): only names count here.
    if (region && !(region.kind === 'state' && n === 1 && k.length === 2)) return { words: n, place: region };
  }
  return null;
}

const JOINING = new Set(['or', 'in', 'and']);

/** A state (name or code) or country right after a city. */
function regionAt(g: Gazetteer, words: string[], i: number): { words: number; region: State | Country } | null {
  for (let n = Math.min(4, words.length - i); n >= 1; n--) {
    const k = key(words.slice(i, i + n).join(' '));
    // `lyon or paris`: a code that is also a joining word is a state only at the end (`portland or`).
    if (n === 1 && JOINING.has(k) && i + 1 < words.length) continue;
    const r = g.states.get(k) ?? g.countries.get(k);
    if (r) return { words: n, region: r };
  }
  return null;
}
