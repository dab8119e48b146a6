/**
 * Forward geocoding offline, at city level: the city an address or place text names, found in the
 * shipped gazetteer (GeoNames cities500, the one the business query reads places with). Addresses
 * run from small to large (`street, city, state ZIP, country`), so the city is the last one named;
 * a US state or a country said right after it (`Paris, TX`), or later in the text (`Cambridge,
 * Massachusetts, USA`), picks among cities of that name; otherwise the most populous one wins. A
 * state or country named before the city (`321 California Ave, Palo Alto`) is a street, not a hint.
 *
 * @example findCity('321 California Ave, Palo Alto, CA 94306') // { city: Palo Alto (US, California), said: 'Palo Alto' }
 */
import { gazetteer, placeAt, placeKey, type City, type Country, type State } from './gazetteer.ts';
import { wordsOf } from '../words.ts';
import { loadAdminNames } from './admin-names.ts';

export interface CityMatch {
  city: City;
  /** The name as the text says it (`New York` for GeoNames' `New York City`). */
  name: string;
}

/** Longest text read: an address is far shorter; a longer one is refused at submit. */
export const MAX_GEOCODING_QUERY = 500;

/** Refuses what no geocoder could read: an empty text, or one longer than any address. */
export function checkGeocodingQuery(q: string): string | undefined {
  if (!q.trim()) return 'query is empty: give an address or place name';
  if (q.length > MAX_GEOCODING_QUERY) return `query is ${q.length} characters long; an address is at most ${MAX_GEOCODING_QUERY}`;
  return undefined;
}

/** A region of any country by its GeoNames admin1 name (`Bavaria`, `Île-de-France`); US states are the gazetteer's. */
interface Admin1 { kind: 'admin1'; options: Array<{ country: string; code: string }> }
type Region = State | Country | Admin1;

let admin1ByName: Map<string, Admin1['options']> | undefined;
function admin1Named(segment: string): Admin1 | null {
  if (!admin1ByName) {
    admin1ByName = new Map();
    for (const [key, name] of loadAdminNames().admin1) {
      const [country, code] = key.split('.');
      const k = placeKey(name);
      const list = admin1ByName.get(k);
      if (list) list.push({ country, code }); else admin1ByName.set(k, [{ country, code }]);
    }
  }
  const options = admin1ByName.get(placeKey(segment));
  return options ? { kind: 'admin1', options } : null;
}

export function findCity(text: string): CityMatch | null {
  const g = gazetteer();
  let last: { city: City; said?: string } | null = null;
  const regionsAfter: Region[] = [];
  for (const segment of text.split(',')) {
    // A part that is a region's whole name, after the city (`Lyon, Auvergne-Rhône-Alpes, France`), is
    // that region: its words would otherwise be read as towns of those names. A country or US state
    // is read as usual (`Mexico`); so is a name that is also a city's unless a town of the name found
    // lies in that region (`Rosario, Santa Fe, Argentina`, but `West 52nd Street, New York`); so is any
    // part before the city (`Hamburg, Germany` is the city).
    const key = placeKey(segment);
    const region = last && !g.states.has(key) && !g.countries.has(key) ? admin1Named(segment) : null;
    const admin1 = region && (!g.cities.has(key) || (g.cities.get(placeKey(last!.city.name)) ?? []).some((c) => inRegion(c, region))) ? region : null;
    if (admin1) { regionsAfter.push(admin1); continue; }
    const words = wordsOf(segment).filter((w) => !w.startsWith('@') && !w.startsWith('"'));
    for (let i = 0; i < words.length;) {
      const m = placeAt(g, words, i);
      if (!m) {
        // A state code alone is not a place to the query reader (`in`, `or`, `me` are words); after a
        // city in an address it is the state (`Central Park, NY 10024`).
        const code = words[i].length === 2 ? g.states.get(words[i]) : undefined;
        if (last && code) regionsAfter.push(code);
        i++;
        continue;
      }
      if (m.place.kind === 'city') {
        last = { city: m.place, said: m.said };
        regionsAfter.length = 0;
        if (m.within) regionsAfter.push(m.within);
      } else {
        regionsAfter.push(m.place);
      }
      i += m.words;
    }
  }
  if (!last) {
    // A city-state named as its country (`Monaco`, `Singapore`): the city of that name in it.
    const country = regionsAfter.find((r): r is Country => r.kind === 'country');
    const same = country && g.cities.get(placeKey(country.name))?.find((c) => c.country === country.code);
    return same ? { city: same, name: same.name } : null;
  }
  const city = narrowed(g.cities.get(placeKey(last.city.name)) ?? [last.city], last.city, regionsAfter);
  if (!city) return null;
  // `new york` is said for GeoNames' `New York City`; `washington dc` is not a city's name.
  const name = last.said && !/\bd ?c$/i.test(last.said) ? last.said : city.name;
  return { city, name };
}

/** Among cities of the chosen one's name, the most populous inside every region named after it;
 *  none when no city of that name lies there (`Central Park, NY` is a park, not the town in Washington). */
function narrowed(candidates: City[], chosen: City, regions: Region[]): City | null {
  if (!regions.length) return chosen;
  const inside = (c: City) => regions.every((r) => inRegion(c, r));
  return inside(chosen) ? chosen : candidates.find(inside) ?? null;
}

function inRegion(c: City, r: Region): boolean {
  return r.kind === 'state' ? c.country === 'US' && c.stateCode === r.code
    : r.kind === 'country' ? c.country === r.code : r.options.some((o) => o.country === c.country && o.code === c.stateCode);
}
