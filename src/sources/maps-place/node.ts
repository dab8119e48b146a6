/**
 * One place node (the business array: `[6]` of a place-details body, `[0][1][i][14]` of a search
 * body) → one complete 2.3 record. Positions are the product's; every read is safe, so a missing or
 * re-typed branch gives a null field, never an exception.
 */
import OLC from 'open-location-code';
import { arr, at, int, num, str } from '../_kit/positional.ts';
import { about, popularTimes, reviewsPerScore, reviewsTags } from './attributes.ts';
import { oldFormat, otherHours, workingHours } from './hours.ts';
import { cidFromEngineId, reviewsIdFromCid } from './ids.ts';
import { locationLink, ownerLink, providerLinks, reservationLinks, reviewsLink } from './links.ts';
import { logo, mainPhoto, photosCount, streetView } from './media.ts';
import type { PlaceRecord } from './record.ts';
import { areaService, businessStatus, ownerId, verified } from './status.ts';
import { cleanUrl, countryName, text, unescapeLeftovers, usStateName } from './text.ts';

export interface NodeOptions {
  /** The user's query, copied into `query`. */
  query?: string | null;
  /** hl/gl of the request, used only when a link has to be built rather than read. */
  language?: string | null;
  region?: string | null;
}

const olc = new OLC.OpenLocationCode();

/** True when `node` looks like a place node: an array with a name string at `[11]`. */
export function isPlaceNode(node: unknown): node is unknown[] {
  return Array.isArray(node) && typeof node[11] === 'string' && node[11] !== '';
}

function categories(node: unknown): string[] {
  const out: string[] = [];
  for (const c of arr(node, 13) ?? []) if (typeof c === 'string' && c !== '' && !out.includes(c)) out.push(c);
  return out;
}

function fullAddress(node: unknown, name: string | null): string | null {
  const own = text(str(node, 39));
  if (own) return own;
  const lines = (arr(node, 2) ?? []).filter((l): l is string => typeof l === 'string' && l !== '');
  if (lines.length) return lines.join(', ');
  const withName = text(str(node, 18));
  if (withName && name && withName.startsWith(name + ',')) return text(withName.slice(name.length + 1));
  return withName;
}

/** Plus code: the node's global code (`[183][2][1][0]`), else computed from the coordinates. */
function plusCode(node: unknown, lat: number | null, lng: number | null): string | null {
  const own = text(str(node, 183, 2, 1, 0));
  if (own) return own;
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  try {
    return olc.encode(lat, lng, 10);
  } catch {
    return null;
  }
}

function phone(node: unknown): string | null {
  // [178][0][1] lists the number's forms with a kind; kind 2 is the international one.
  for (const f of arr(node, 178, 0, 1) ?? []) if (at(f, 1) === 2 && typeof at(f, 0) === 'string') return text(str(f, 0));
  return text(str(node, 178, 0, 0));
}

/**
 * @example
 *   placeFromNode(data[6], { query: 'Kipriakon' }).name // 'Kipriakon'
 */
export function placeFromNode(node: unknown[], opts: NodeOptions = {}): PlaceRecord {
  const name = text(str(node, 11));
  const engineId = (() => {
    const v = str(node, 10);
    return v && /^0x[0-9a-f]+:0x[0-9a-f]+$/i.test(v) ? v : null;
  })();
  const placeId = text(str(node, 78));
  const lat = num(node, 9, 2);
  const lng = num(node, 9, 3);
  const cats = categories(node);
  const addr = arr(node, 183, 1);
  const street = text(str(addr, 1));
  const countryCode = (() => {
    const c = str(addr, 6) ?? str(node, 243);
    return c && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : null;
  })();
  const state = text(str(addr, 5));
  const full = fullAddress(node, name);
  const cid = cidFromEngineId(engineId);
  const owner = ownerId(node);
  const providers = providerLinks(node);
  const reservations = reservationLinks(node, providers.reserve);
  const week = workingHours(node);
  const rating = num(node, 4, 7);
  const reviews = int(node, 4, 8);
  const description = text(str(node, 32, 1, 1)) ?? text(str(node, 32, 0, 1));
  const located = arr(node, 134, 0, 0, 0);

  return {
    query: opts.query ?? null,
    name,
    place_id: placeId,
    engine_id: engineId,
    full_address: full,
    borough: text(str(addr, 0)),
    street,
    postal_code: text(str(addr, 4)),
    city: text(str(addr, 3)),
    us_state: usStateName(countryCode, state, full),
    state,
    country: countryName(countryCode),
    country_code: countryCode,
    area_service: areaService(street, arr(node, 2)),
    plus_code: plusCode(node, lat, lng),
    latitude: lat,
    longitude: lng,
    time_zone: text(str(node, 30)),
    popular_times: popularTimes(node),
    site: cleanUrl(at(node, 7, 0)),
    logo: logo(node),
    photo: mainPhoto(node),
    street_view: streetView(node),
    reviews_link: reviewsLink(node, placeId, opts.query ?? name, opts),
    location_link: locationLink(name, engineId, lat, lng),
    booking_appointment_link: reservations ? reservations[0] : null,
    owner_link: ownerLink(owner),
    phone: phone(node),
    type: cats[0] ?? null,
    category: text(str(node, 164, 0, 1)) ?? cats[0] ?? null,
    subtypes: cats.length ? cats.join(', ') : null,
    description: description ? unescapeLeftovers(description) : null,
    located_in: text(str(located, 0)),
    located_engine_id: (() => {
      const v = str(located, 1);
      return v && /^0x[0-9a-f]+:0x[0-9a-f]+$/i.test(v) ? v : null;
    })(),
    posts: null,
    reviews_tags: reviewsTags(node),
    order_links: providers.order,
    rating: rating !== null && rating >= 0 && rating <= 5 ? rating : null,
    reviews: reviews !== null && reviews >= 0 ? reviews : null,
    photos_count: photosCount(node),
    cid,
    reviews_id: reviewsIdFromCid(cid),
    owner_id: owner,
    working_hours_old_format: oldFormat(week),
    working_hours: week,
    other_hours: otherHours(node),
    business_status: name ? businessStatus(node) : null,
    about: about(node),
    range: text(str(node, 4, 2)),
    reviews_per_score: reviewsPerScore(node),
    reservation_links: reservations,
    menu_link: cleanUrl(at(node, 38, 0)),
    verified: verified(node, owner),
    owner_title: text(str(node, 57, 1)),
  };
}
