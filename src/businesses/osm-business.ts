/**
 * An OSM object as a business record (decision 24), or null when it is not a point of interest.
 * A point of interest has a name and one of the tags that say what a place does (amenity, shop,
 * office, craft, tourism, healthcare, leisure); its types are those tags' values in words
 * (`fast_food` → `Fast food`), then its cuisines. Ways get the centroid of their nodes; tags such as
 * `internet_access` or `wheelchair` become its attributes (./osm-attributes.ts).
 *
 * @example businessFromOsm({ type: 'node', id: 1, lat: 43.7, lon: 7.4, tags: { amenity: 'cafe', name: 'Le Café' } }, 43.7, 7.4)
 */
import type { BusinessRecord } from '../store/businesses/contract.ts';
import { osIdOf } from '../store/businesses/os-id.ts';
import { domainKey } from '../store/businesses/row.ts';
import { attributesFromOsm } from './osm-attributes.ts';

export const POI_KEYS = ['amenity', 'shop', 'office', 'craft', 'tourism', 'healthcare', 'leisure'] as const;
/** Values that describe infrastructure rather than a business. */
const NOT_BUSINESS = new Set(['yes', 'no', 'bench', 'waste_basket', 'parking', 'parking_space', 'bicycle_parking', 'toilets', 'drinking_water',
  'telephone', 'post_box', 'recycling', 'shelter', 'fountain', 'vending_machine', 'clock', 'grit_bin', 'motorcycle_parking', 'park', 'playground',
  'pitch', 'garden', 'picnic_table', 'viewpoint', 'information', 'artwork', 'attraction', 'swimming_pool', 'track', 'slipway', 'marina']);

const words = (v: string) => { const s = v.replace(/[_;]+/g, ' ').trim(); return s ? s[0].toUpperCase() + s.slice(1) : ''; };

export function businessFromOsm(kind: 'node' | 'way', id: number, tags: Record<string, string> | undefined, lat: number | null, lon: number | null): BusinessRecord | null {
  if (!tags) return null;
  const name = tags.name?.trim();
  if (!name) return null;
  const types: string[] = [];
  for (const k of POI_KEYS) {
    for (const v of (tags[k] ?? '').split(';').map((x) => x.trim()).filter(Boolean)) if (!NOT_BUSINESS.has(v)) types.push(words(v));
  }
  if (!types.length) return null;
  for (const c of (tags.cuisine ?? '').split(';').map((x) => x.trim()).filter(Boolean)) types.push(`${words(c)} cuisine`);
  const street = [tags['addr:housenumber'], tags['addr:street']].filter(Boolean).join(' ') || null;
  const city = tags['addr:city'] ?? null;
  const postal = tags['addr:postcode'] ?? null;
  const country = tags['addr:country'] && /^[A-Za-z]{2}$/.test(tags['addr:country']) ? tags['addr:country'].toUpperCase() : null;
  const site = tags.website ?? tags['contact:website'] ?? tags.url ?? null;
  const closed = tags.disused === 'yes' || Object.keys(tags).some((k) => k.startsWith('disused:') || k.startsWith('was:'));
  return {
    os_id: osIdOf('osm', `${kind}/${id}`), place_id: null, engine_id: null, name,
    phone: tags.phone ?? tags['contact:phone'] ?? null, site, domain: domainKey(site),
    full_address: [street, [postal, city].filter(Boolean).join(' ') || null, country].filter(Boolean).join(', ') || null,
    street, city, county: tags['addr:county'] ?? null, state: tags['addr:state'] ?? tags['addr:province'] ?? null, postal_code: postal, country_code: country,
    latitude: lat, longitude: lon, rating: null, reviews: null, types: [...new Set(types)], category: types[0],
    business_status: closed ? 'closed_permanently' : null, verified: null, area_service: null,
    working_hours: tags.opening_hours ?? null, source: 'osm', attributes: attributesFromOsm(tags),
  };
}
