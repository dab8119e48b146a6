/**
 * An OSM object as a business record (decision 24), or null when it is not a point of interest.
 * A point of interest has a name and one of the tags that say what a place does (amenity, shop,
 * office, craft, tourism, healthcare, leisure); its types name those tags as the iD editor's presets do
 * (./osm-presets.ts: `shop=doityourself` → `DIY Store`, `amenity=place_of_worship` + `religion=christian`
 * → `Christian Church`, `Place of Worship`), a value no preset names in words (`fast_food` → `Fast food`),
 * then its cuisines. Ways get the centroid of their nodes; tags such as `internet_access` or
 * `wheelchair` become its attributes (./osm-attributes.ts).
 *
 * @example businessFromOsm({ type: 'node', id: 1, lat: 43.7, lon: 7.4, tags: { amenity: 'cafe', name: 'Le Café' } }, 43.7, 7.4)
 */
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { osIdOf } from '../store/businesses/os-id.ts';
import { domainKey } from '../store/businesses/row.ts';
import { attributesFromOsm } from './osm-attributes.ts';
import { presetFor, presetIndex, type PresetMatch } from './osm-presets.ts';
import { composeBusinessAddress } from './osm-place.ts';

export const POI_KEYS = ['amenity', 'shop', 'office', 'craft', 'tourism', 'healthcare', 'leisure'] as const;
/** Values that describe infrastructure rather than a business. */
const NOT_BUSINESS = new Set(['yes', 'no', 'bench', 'waste_basket', 'parking', 'parking_space', 'bicycle_parking', 'toilets', 'drinking_water',
  'telephone', 'post_box', 'recycling', 'shelter', 'fountain', 'vending_machine', 'clock', 'grit_bin', 'motorcycle_parking', 'park', 'playground',
  'pitch', 'garden', 'picnic_table', 'viewpoint', 'information', 'artwork', 'attraction', 'swimming_pool', 'track', 'slipway', 'marina']);

const words = (v: string) => { const s = v.replace(/[_;]+/g, ' ').trim(); return s ? s[0].toUpperCase() + s.slice(1) : ''; };
const list = (v: string | undefined) => (v ?? '').split(';').map((x) => x.trim()).filter(Boolean);

/**
 * The types the POI tags give, most specific first: each value's preset name (and the name of the
 * preset for the tag alone when a more specific one matched: `Christian Church`, `Place of Worship`),
 * ordered by match score, then the values no preset names, in words. A tag a matched preset already
 * stands for (`healthcare=pharmacy` beside `amenity=pharmacy`) adds nothing.
 */
function typesOf(tags: Record<string, string>): string[] {
  const named: (PresetMatch & { tag: [string, string] })[] = [];
  const plain: [string, string][] = [];
  const index = presetIndex();
  for (const k of POI_KEYS) {
    for (const v of list(tags[k])) {
      if (NOT_BUSINESS.has(v)) continue;
      const m = presetFor(index, k, v, tags);
      if (m) named.push({ ...m, tag: [k, v] }); else plain.push([k, v]);
    }
  }
  named.sort((a, b) => b.score - a.score);
  const kept: PresetMatch[] = [];
  const implied = ([k, v]: [string, string]) => kept.some((m) => m.implies.some(([a, b]) => a === k && b === v));
  for (const m of named) if (!implied(m.tag)) kept.push(m);
  return [...kept.flatMap((m) => (m.base ? [m.name, m.base] : [m.name])), ...plain.filter((t) => !implied(t)).map(([, v]) => words(v))];
}

export function businessFromOsm(kind: 'node' | 'way', id: number, tags: Record<string, string> | undefined, lat: number | null, lon: number | null): BusinessRecord | null {
  if (!tags) return null;
  const name = tags.name?.trim();
  if (!name) return null;
  const types = typesOf(tags);
  if (!types.length) return null;
  for (const c of list(tags.cuisine)) types.push(`${words(c)} cuisine`);
  const street = [tags['addr:housenumber'], tags['addr:street']].filter(Boolean).join(' ') || null;
  const city = tags['addr:city'] ?? null;
  const postal = tags['addr:postcode'] ?? null;
  const country = tags['addr:country'] && /^[A-Za-z]{2}$/.test(tags['addr:country']) ? tags['addr:country'].toUpperCase() : null;
  const site = tags.website ?? tags['contact:website'] ?? tags.url ?? null;
  const closed = tags.disused === 'yes' || Object.keys(tags).some((k) => k.startsWith('disused:') || k.startsWith('was:'));
  return {
    os_id: osIdOf('osm', `${kind}/${id}`), place_id: null, engine_id: null, name,
    phone: tags.phone ?? tags['contact:phone'] ?? null, site, domain: domainKey(site),
    full_address: composeBusinessAddress({ houseNumber: tags['addr:housenumber'], road: tags['addr:street'] ?? tags['addr:place'], postcode: postal, city, countryCode: country }),
    street, city, county: tags['addr:county'] ?? null, state: tags['addr:state'] ?? tags['addr:province'] ?? null, postal_code: postal, country_code: country,
    latitude: lat, longitude: lon, rating: null, reviews: null, types: [...new Set(types)], category: types[0],
    business_status: closed ? 'closed_permanently' : null, verified: null, area_service: null,
    working_hours: tags.opening_hours ?? null, source: 'osm', attributes: attributesFromOsm(tags),
  };
}
