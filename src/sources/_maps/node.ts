/**
 * One place node (the business array: `[6]` of a place-details body, `[0][1][i][14]` of a search
 * body) → one complete 2.3 record. Positions are the product's; every read is safe, so a missing or
 * re-typed branch gives a null field, never an exception.
 */
import OLC from 'open-location-code';
import { about, popularTimes, reviewsPerScore, reviewsTags } from './attributes.ts';
import { oldFormat, otherHours, workingHours } from './hours.ts';
import { idsFromEngineId } from './ids.ts';
import { locationLink, ownerLink, providerLinks, reservationLinks, reviewsLink } from './links.ts';
import { logo, mainPhoto, photosCount, streetView } from './media.ts';
import { asArr, asInt, asNum, asStr, at1, at2, at3, at4 } from './pos.ts';
import type { PlaceRecord } from './record.ts';
import { areaService, businessStatus, ownerId, verified } from './status.ts';
import { cleanUrl, countryName, text, unescapeLeftovers, usStateName } from './text.ts';

export interface NodeOptions {
  /** The user's query, copied into `query` ('' when none, e.g. a saved response parsed alone). */
  query?: string | null;
  /** hl/gl of the request, used only when a link has to be built rather than read. */
  language?: string | null;
  region?: string | null;
}

/**
 * The options every map adapter passes: the query, and the request's language (default `en`) and
 * region (upper-cased, or null).
 *
 * @example
 *   nodeOptionsOf('coffee', { region: 'gr' }) // { query: 'coffee', language: 'en', region: 'GR' }
 */
export function nodeOptionsOf(query: string, p: { language?: string; region?: string } | undefined): NodeOptions {
  return { query, language: p?.language || 'en', region: p?.region ? p.region.toUpperCase() : null };
}

const olc = new OLC.OpenLocationCode();
const FEATURE_ID = /^0x[0-9a-f]+:0x[0-9a-f]+$/i;

/**
 * True when `node` looks like a place node: an array with a name string at `[11]`. A feature id
 * there ("0x…:0x…", the `[10]` slot's) is a node whose slots moved by one: every value would be its
 * neighbour's, so it is no place node (the search counts it as unread).
 */
export function isPlaceNode(node: unknown): node is unknown[] {
  return Array.isArray(node) && typeof node[11] === 'string' && node[11] !== '' && !FEATURE_ID.test(node[11]);
}

/**
 * The place's types (`[13]`), all or none: one that does not read (emptied, moved) leaves the list
 * unknown, since the next would stand as the first (the `type`) in its place.
 */
function categories(node: unknown): string[] {
  const out: string[] = [];
  const list = asArr(at1(node, 13));
  for (const c of list ?? []) {
    if (typeof c !== 'string' || c === '') return [];
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

function fullAddress(node: unknown, name: string | null): string | null {
  const own = text(at1(node, 39));
  if (own) return own;
  const lines = (asArr(at1(node, 2)) ?? []).filter((l): l is string => typeof l === 'string' && l !== '');
  if (lines.length) return lines.join(', ');
  const withName = text(at1(node, 18));
  if (withName && name && withName.startsWith(name + ',')) return text(withName.slice(name.length + 1));
  return withName;
}

/** Plus code: the node's global code (`[183][2][1][0]`), else computed from the coordinates. */
function plusCode(n183: unknown, lat: number | null, lng: number | null): string | null {
  const own = text(at3(n183, 2, 1, 0));
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
  const n1780 = at2(node, 178, 0);
  const forms = asArr(at1(n1780, 1));
  if (forms) {
    for (const f of forms) {
      const v = at1(f, 0);
      if (at1(f, 1) === 2 && typeof v === 'string') return text(v);
    }
  }
  return text(at1(n1780, 0));
}


/** `0x<hex>:0x<hex>` (any length; ids.ts checks the 64-bit bound where it matters), else null. */
function featureId(v: unknown): string | null {
  return typeof v === 'string' && FEATURE_ID.test(v) ? v : null;
}

/** A two-letter country code, upper-cased, or null. */
function twoLetters(c: string | null): string | null {
  return c && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : null;
}

/**
 * @example
 *   placeFromNode(data[6], { query: 'Kipriakon' }).name // 'Kipriakon'
 */
/** The "See nearby ..." block's shape: `[[<kind>, <category>], <caption>]`. */
function isNearbyBlock(v: unknown): boolean {
  const head = at1(v, 0);
  return Array.isArray(head) && typeof head[0] === 'number' && typeof head[1] === 'string';
}

/**
 * The place's category: the "See nearby ..." block's (`[164][0][1]`), else its first type. When the
 * block is there but its name does not read (moved, emptied), or it sits one slot off (`[163]`,
 * `[165]`: the node's slots shifted), the category is not known: null, not the type, which names it
 * another way.
 */
function primaryCategory(node: unknown[], cats: string[]): string | null {
  if (at1(node, 164) != null) return text(at3(node, 164, 0, 1));
  if (isNearbyBlock(at1(node, 163)) || isNearbyBlock(at1(node, 165))) return null;
  return cats[0] ?? null;
}

export function placeFromNode(node: unknown[], opts: NodeOptions = {}): PlaceRecord {
  // Branches read more than once are looked up once.
  const n4 = at1(node, 4);
  const n9 = at1(node, 9);
  const n183 = at1(node, 183);
  const name = text(at1(node, 11));
  const engineId = featureId(at1(node, 10));
  const placeId = text(at1(node, 78));
  const lat = asNum(at1(n9, 2));
  const lng = asNum(at1(n9, 3));
  const cats = categories(node);
  const addr = asArr(at1(n183, 1));
  const street = text(at1(addr, 1));
  const countryCode = twoLetters(asStr(at1(addr, 6)) ?? asStr(at1(node, 243)));
  const state = text(at1(addr, 5));
  const full = fullAddress(node, name);
  const ids = idsFromEngineId(engineId);
  const owner = ownerId(node);
  const providers = providerLinks(node);
  const reservations = reservationLinks(node, providers.reserve);
  const week = workingHours(node);
  const rating = asNum(at1(n4, 7));
  const reviews = asInt(at1(n4, 8));
  const n32 = at1(node, 32);
  const description = text(at2(n32, 1, 1)) ?? text(at2(n32, 0, 1));
  const located = asArr(at4(node, 134, 0, 0, 0));

  return {
    query: opts.query ?? '',
    name,
    place_id: placeId,
    engine_id: engineId,
    full_address: full,
    borough: text(at1(addr, 0)),
    street,
    postal_code: text(at1(addr, 4)),
    city: text(at1(addr, 3)),
    us_state: usStateName(countryCode, state, full),
    state,
    country: countryName(countryCode),
    country_code: countryCode,
    area_service: areaService(street, asArr(at1(node, 2))),
    plus_code: plusCode(n183, lat, lng),
    latitude: lat,
    longitude: lng,
    time_zone: text(at1(node, 30)),
    popular_times: popularTimes(node),
    site: cleanUrl(at2(node, 7, 0)),
    logo: logo(node),
    photo: mainPhoto(node),
    street_view: streetView(node),
    reviews_link: reviewsLink(node, placeId, opts.query ?? name, opts),
    location_link: locationLink(name, engineId, lat, lng),
    booking_appointment_link: reservations ? reservations[0] : null,
    owner_link: ownerLink(owner),
    phone: phone(node),
    type: cats[0] ?? null,
    category: primaryCategory(node, cats),
    subtypes: cats.length ? cats.join(', ') : null,
    description: description ? unescapeLeftovers(description) : null,
    located_in: text(at1(located, 0)),
    located_engine_id: featureId(at1(located, 1)),
    posts: null,
    reviews_tags: reviewsTags(node),
    order_links: providers.order,
    rating: rating !== null && rating >= 0 && rating <= 5 ? rating : null,
    reviews: reviews !== null && reviews >= 0 ? reviews : null,
    photos_count: photosCount(node),
    cid: ids.cid,
    reviews_id: ids.reviewsId,
    owner_id: owner,
    working_hours_old_format: oldFormat(week),
    working_hours: week,
    other_hours: otherHours(node),
    business_status: name ? businessStatus(node) : null,
    about: about(node),
    range: text(at1(n4, 2)),
    reviews_per_score: reviewsPerScore(node),
    reservation_links: reservations,
    menu_link: cleanUrl(at2(node, 38, 0)),
    verified: verified(node, owner),
    owner_title: text(at2(node, 57, 1)),
  };
}
