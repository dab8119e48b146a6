/**
 * A scraped place (interface 2.3 record, or the place part of a map reviews element) as a business
 * record (decision 24). A place with neither a place id nor an engine id has no stable identity and
 * is skipped rather than given one that would duplicate it on the next scrape.
 *
 * @example businessFromPlace({ name: 'Joe', place_id: 'ChIJ...', ... }, '/maps/search')
 */
import type { BusinessRecord } from './contract.ts';
import { osIdOf } from './os-id.ts';
import { domainKey } from './row.ts';
import { placeTypes } from './category.ts';

type Rec = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

const STATUSES = new Set(['operational', 'closed_temporarily', 'closed_permanently']);

/** The attributes a place's `about` says it has: `{"Service options": {"Outdoor seating": true}}` → `Outdoor seating`.
 *  Plain loops over own keys, in their order, each once: a fifth of a place's capture was spent in
 *  Object.values/entries and a Set (issue 15). */
function attributesOf(about: unknown): string[] {
  if (!about || typeof about !== 'object') return [];
  const out: string[] = [];
  for (const name of Object.keys(about)) {
    const section = (about as Rec)[name];
    if (!section || typeof section !== 'object') continue;
    for (const k of Object.keys(section)) {
      if ((section as Rec)[k] !== true) continue;
      const a = k.trim();
      if (a && !out.includes(a)) out.push(a);
    }
  }
  return out;
}

/** The identity a place is stored under before its hash (`os_id`): its place id, else its engine id;
 *  null when it has neither. Two places with one identity are one business.
 *  @example placeIdentity({ place_id: ' ChIJx ' }) // 'place:ChIJx' */
export function placeIdentity(p: Rec): string | null {
  const placeId = str(p.place_id);
  if (placeId) return `place:${placeId}`;
  const engineId = str(p.engine_id);
  return engineId ? `engine:${engineId}` : null;
}

export function businessFromPlace(p: Rec, source: string): BusinessRecord | null {
  const placeId = str(p.place_id);
  const engineId = str(p.engine_id);
  if (!placeId && !engineId) return null;
  const name = str(p.name);
  if (!name) return null;
  const status = str(p.business_status)?.toLowerCase() ?? null;
  const types = placeTypes(p);
  const lat = num(p.latitude);
  const lng = num(p.longitude);
  const site = str(p.site);
  return {
    os_id: placeId ? osIdOf('place', placeId) : osIdOf('engine', engineId!),
    place_id: placeId, engine_id: engineId, name, phone: str(p.phone), site, domain: domainKey(site),
    full_address: str(p.full_address), street: str(p.street), city: str(p.city), county: str(p.county) ?? str(p.borough),
    state: str(p.state) ?? str(p.us_state), postal_code: str(p.postal_code), country_code: str(p.country_code)?.toUpperCase() ?? null,
    latitude: lat !== null && Math.abs(lat) <= 90 ? lat : null, longitude: lng !== null && Math.abs(lng) <= 180 ? lng : null,
    rating: num(p.rating), reviews: num(p.reviews), types, category: str(p.category) ?? str(p.type),
    business_status: status && STATUSES.has(status) ? (status as BusinessRecord['business_status']) : null,
    verified: bool(p.verified), area_service: bool(p.area_service), working_hours: p.working_hours ?? null, source,
    attributes: attributesOf(p.about), located_in: str(p.located_in),
    located_os_id: str(p.located_engine_id) ? osIdOf('engine', str(p.located_engine_id)!) : null,
  };
}
