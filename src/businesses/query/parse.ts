/**
 * A natural-language business query read into the filters of interface 4.8, deterministically and
 * offline: categories (./categories.ts), places after `in`/`near` (./places.ts), ratings, review
 * counts and distances (./measures.ts), attributes (`with wifi`, ./attributes.ts), coordinates,
 * `with(out) a website/phone`, `verified`, `open`/`closed`, `named "..."` and a bare domain. Every word must be understood (or be one of the
 * small words that carry no filter): the words that were not are returned, so the caller can say
 * which (docs/businesses.md, "Natural-language query").
 *
 * @example parseQuery('dentists near 40.74,-73.98 within 2 km').filters
 *   // { types: ['Dentist', ...], geo_filters: [{ type: 'circle', lat: 40.74, lng: -73.98, radius_m: 2000 }] }
 */
import { attributeAt } from './attributes.ts';
import { categoryAt } from './categories.ts';
import { distanceAt, ratingAt, reviewsAt } from './measures.ts';
import { gazetteer, placeAt, type City, type PlaceMatch } from '../../lookups/geo/gazetteer.ts';
import { COORD, QUOTED, wordsOf } from '../../lookups/words.ts';

/** The filters a query was read into, in the body's own form (snake_case), answered as `parsed_query`. */
export interface QueryFilters {
  types?: string[];
  cities?: string[];
  states?: string[];
  country_code?: string;
  postal_codes?: string[];
  counties?: string[];
  rating?: string;
  reviews?: string;
  has_website?: boolean;
  has_phone?: boolean;
  verified?: boolean;
  business_statuses?: string[];
  attributes?: string[];
  name?: string;
  domain?: string;
  geo_filters?: { type: 'circle'; lat: number; lng: number; radius_m: number }[];
}

export interface ParsedQuery {
  filters: QueryFilters;
  /** Words not understood, in query order. */
  notUnderstood: string[];
}

/** A town's quarter holds about this many people a square kilometre: its radius follows its population. */
const SECTION_DENSITY_KM2 = 10_000;
/** `in monte carlo`, a section of a town, with no distance: the circle of its area at that density
 *  (Monte-Carlo, 16,000 people: 710 m; Passy, 165,000: 2.3 km), within 0.5-3 km. */
export const sectionRadiusM = (population: number) => Math.round(Math.min(3000, Math.max(500, 1000 * Math.sqrt(population / SECTION_DENSITY_KM2 / Math.PI))));
/** `near 40.74,-73.98` with no distance: a walk's radius. */
export const DEFAULT_NEAR_M = 2000;

/** Words that carry no filter. */
const SMALL = new Set(['find', 'show', 'me', 'list', 'get', 'give', 'search', 'for', 'all', 'any', 'every', 'the', 'a', 'an', 'some', 'with',
  'that', 'which', 'who', 'whose', 'are', 'is', 'be', 'have', 'has', 'having', 'and', 'or', 'of', 'please', 'business', 'businesses', 'place',
  'places', 'company', 'companies', 'shop', 'shops', 'store', 'stores', 'spot', 'spots', 'location', 'locations', 'there', 'to', 'i', 'want',
  'need', 'looking', 'best', 'good', 'great', 'also', 'only', 'them', 'they', 'it', 'its', 'their', 'both']);
const PREPOSITIONS: Record<string, 'in' | 'near'> = { in: 'in', inside: 'in', at: 'in', from: 'in', near: 'near', around: 'near', nearby: 'near', by: 'near', close: 'near' };
const NEGATIONS = new Set(['without', 'no', 'missing', 'lacking']);
const SITE = new Set(['website', 'websites', 'site', 'web', 'webpage', 'homepage', 'url']);
const PHONE = new Set(['phone', 'phones', 'telephone', 'number']);
const STOPS_NAME = new Set(['in', 'near', 'around', 'with', 'without', 'rated', 'within', 'that', 'which', 'and', 'or', 'at']);
const POSTAL = /^(\d{4,6}|[a-z]{1,2}\d[a-z\d]?)$/;
const DOMAIN = /^(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})\/?$/;

export function parseQuery(text: string): ParsedQuery {
  const words = wordsOf(text);
  const f: QueryFilters = {};
  const unknown: string[] = [];
  const types = new Set<string>();
  const statuses = new Set<string>();
  const attributes = new Set<string>();
  const places: { m: PlaceMatch; mode: 'in' | 'near' }[] = [];
  const points: { lat: number; lng: number }[] = [];
  const postal: string[] = [];
  const counties: string[] = [];
  let radius: { metres: number; words: string[] } | undefined;
  let mode: 'in' | 'near' | null = null;

  for (let i = 0; i < words.length;) {
    const w = words[i];
    const take = (n: number) => { i += n; };
    // After `in`/`near`, places (joined by and/or) come first: `in lyon`, `near austin or dallas`.
    if (mode) {
      const county = countyAt(words, i);
      if (county) { counties.push(county.name); take(county.words); continue; }
      const p = placeAt(gazetteer(), words, i);
      if (p && !attributeWins(words, i, p.words)) { places.push({ m: p, mode }); take(p.words); continue; }
      if (POSTAL.test(w) && /\d/.test(w)) { postal.push(w.toUpperCase()); take(1); continue; }
      if (w !== 'or' && w !== 'and' && w !== 'to' && !COORD.test(w)) mode = null;
    }
    if (w.startsWith(QUOTED)) { f.name = w.slice(1); take(1); continue; }
    if ((w === 'named' || w === 'called') && words[i + 1] && !words[i + 1].startsWith(QUOTED)) {
      let j = i + 1;
      while (j < words.length && !STOPS_NAME.has(words[j])) j++;
      if (j > i + 1) { f.name = words.slice(i + 1, j).join(' '); take(j - i); continue; }
    }
    const c = w.match(COORD);
    if (c) {
      const [lat, lng] = [Number(c[1]), Number(c[2])];
      if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) points.push({ lat, lng }); else unknown.push(w.slice(1).replace('|', ','));
      take(1); continue;
    }
    const d = distanceAt(words, i);
    if (d) { radius = { metres: d.metres, words: words.slice(i, i + d.words) }; take(d.words); continue; }
    const status = statusAt(words, i);
    if (status) { for (const s of status.statuses) statuses.add(s); take(status.words); continue; }
    const rating = ratingAt(words, i);
    if (rating) { f.rating = rating.expr; take(rating.words); continue; }
    const reviews = reviewsAt(words, i);
    if (reviews) { f.reviews = reviews.expr; take(reviews.words); continue; }
    // Before `in`: `in store pickup` is an attribute. A negated one (`without wifi`) is no filter the
    // body can hold: its words are not understood.
    const attr = attributeAt(words, i);
    if (attr) {
      if (attr.negated) unknown.push(...words.slice(i, i + attr.words)); else for (const a of attr.attributes) attributes.add(a);
      take(attr.words); continue;
    }
    // After the measures: `at least 100 reviews` is a count, not a place `at`.
    if (PREPOSITIONS[w]) { mode = PREPOSITIONS[w]; take(w === 'close' && words[i + 1] === 'to' ? 2 : 1); continue; }
    const has = contactAt(words, i);
    // `phone shops` is a kind of business, not `with a phone`.
    if (has && (categoryAt(words, i)?.words ?? 0) <= has.words) { f[has.field] = has.value; take(has.words); continue; }
    if (w === 'verified' || w === 'unverified') { f.verified = w === 'verified'; take(1); continue; }
    if (w === 'not' && words[i + 1] === 'verified') { f.verified = false; take(2); continue; }
    const cat = categoryAt(words, i);
    if (cat) { for (const t of cat.types) types.add(t); take(cat.words); continue; }
    const dom = w.match(DOMAIN);
    if (dom && !/^\d+(\.\d+)*$/.test(dom[1])) { f.domain = dom[1]; take(1); continue; }
    if (!SMALL.has(w)) unknown.push(w.startsWith(QUOTED) ? w.slice(1) : w);
    take(1);
  }

  if (types.size) f.types = [...types];
  if (statuses.size) f.business_statuses = [...statuses];
  if (attributes.size) f.attributes = [...attributes];
  if (postal.length) f.postal_codes = postal;
  if (counties.length) f.counties = counties;
  const circles = points.map((p) => ({ type: 'circle' as const, lat: p.lat, lng: p.lng, radius_m: radius?.metres ?? DEFAULT_NEAR_M }));
  // `near austin within 10 km`: a distance around one city is a circle at its centre, not its name.
  const cityCentre = !points.length && radius && places.length === 1 && places[0].m.place.kind === 'city' ? (places[0].m.place as City) : null;
  // `in monte carlo`: a section alone is searched where it is, its country named (addresses name the town).
  const section = !points.length && !radius && places.length === 1 && places[0].m.place.kind === 'city' && places[0].m.place.section ? places[0].m.place : null;
  if (cityCentre) circles.push({ type: 'circle', lat: cityCentre.lat, lng: cityCentre.lng, radius_m: radius!.metres });
  else if (section) { circles.push({ type: 'circle', lat: section.lat, lng: section.lng, radius_m: sectionRadiusM(section.population) }); f.country_code = section.country; }
  else placeFilters(f, places.map((p) => p.m), unknown);
  if (radius && !circles.length) unknown.push(...radius.words);
  if (circles.length) f.geo_filters = circles;
  return { filters: f, notUnderstood: unknown };
}

/**
 * Whether the words at `i` are an attribute rather than the place of that name (`in austin terrace`,
 * `in lyon home delivery`): when the attribute reads more words, or when no `in`/`or`/`and` leads
 * them (a second place is joined; `in terrace` is still the town).
 */
function attributeWins(words: string[], i: number, placeWords: number): boolean {
  const a = attributeAt(words, i);
  if (!a) return false;
  const lead = words[i - 1];
  return a.words > placeWords || !(PREPOSITIONS[lead] || lead === 'or' || lead === 'and' || lead === 'to');
}

/** `travis county`, `orleans parish`: up to three words and the word for a county, as addresses write it. */
function countyAt(words: string[], i: number): { words: number; name: string } | null {
  for (let n = 1; n <= 3 && i + n < words.length; n++) {
    const kind = words[i + n];
    if (kind !== 'county' && kind !== 'parish') continue;
    const ws = words.slice(i, i + n + 1);
    if (ws.slice(0, -1).some((w) => SMALL.has(w) || !/^\p{L}[\p{L}']*$/u.test(w))) return null;
    return { words: n + 1, name: ws.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') };
  }
  return null;
}

/** `closed`, `permanently closed`, `temporarily closed`, `open`, `operational`. */
function statusAt(words: string[], i: number): { words: number; statuses: string[] } | null {
  const [a, b] = [words[i], words[i + 1]];
  const closed = (x: string | undefined) => x === 'closed' || x === 'shut';
  if ((a === 'permanently' && closed(b)) || (closed(a) && b === 'permanently')) return { words: 2, statuses: ['closed_permanently'] };
  if ((a === 'temporarily' && closed(b)) || (closed(a) && b === 'temporarily')) return { words: 2, statuses: ['closed_temporarily'] };
  if (closed(a)) return { words: 1, statuses: ['closed_temporarily', 'closed_permanently'] };
  if (a === 'open' || a === 'operational') return { words: b === 'now' ? 2 : 1, statuses: ['operational'] };
  return null;
}

/** `a website`, `without a phone number`, `no website`. */
function contactAt(words: string[], i: number): { words: number; field: 'has_website' | 'has_phone'; value: boolean } | null {
  let j = i;
  const negated = NEGATIONS.has(words[j]);
  if (negated) j++;
  if (words[j] === 'a' || words[j] === 'an') j++;
  const two = `${words[j]} ${words[j + 1]}`;
  let n = 0;
  let field: 'has_website' | 'has_phone' | undefined;
  if (two === 'web site' || two === 'phone number') { n = 2; field = two === 'web site' ? 'has_website' : 'has_phone'; } else if (SITE.has(words[j]) && words[j] !== 'web') {
    n = 1; field = 'has_website';
  } else if (PHONE.has(words[j]) && (words[j] !== 'number' || negated)) { n = 1; field = 'has_phone'; }
  if (!field) return null;
  return { words: j - i + n, field, value: !negated };
}

/** Places as the body's place filters: cities by every spelling, US states by name and code, one country. */
function placeFilters(f: QueryFilters, places: PlaceMatch[], unknown: string[]): void {
  const cities = new Set<string>();
  const states = new Set<string>();
  const countries = new Set<string>();
  for (const { place, within, said } of places) {
    if (place.kind === 'city') {
      for (const n of [place.name, place.ascii, said]) if (n) cities.add(n);
      if (within?.kind === 'state') { states.add(within.name); states.add(within.code); }
      if (within?.kind === 'country') countries.add(within.code);
    } else if (place.kind === 'state') { states.add(place.name); states.add(place.code); } else countries.add(place.code);
  }
  if (cities.size) f.cities = [...new Map([...cities].map((c) => [c.toLowerCase(), c])).values()];
  if (states.size) f.states = [...states];
  const cc = [...countries];
  if (cc.length) f.country_code = cc[0];
  // The body has one country_code: a second country cannot be searched in the same query.
  if (cc.length > 1) unknown.push(...cc.slice(1).map((c) => `(second country ${c})`));
}
