/**
 * The site's property nodes → records. Two node kinds, as served:
 * - a search result (`cat1.searchResults.listResults[]` / `mapResults[]`): `zpid`, `detailUrl`,
 *   `statusType`, `statusText`, `price` (text), `address` (one line), `latLong`, `beds`, `baths`,
 *   `area`, `imgSrc`, `brokerName`, and `hdpData.homeInfo` {zpid, streetAddress, zipcode, city,
 *   state, latitude, longitude, price, bedrooms, bathrooms, livingArea, homeType, homeStatus,
 *   daysOnZillow, zestimate, rentZestimate, currency, lotAreaValue, lotAreaUnit}; a rental building
 *   has `buildingId` and `units[]` instead of a zpid and a price, a new-construction community
 *   `plid` and `minBeds`/`minBaths`/`minArea` (its smallest home);
 * - a property page's node (`gdpClientCache` → `property`): zpid, address{}, latitude, longitude,
 *   price, currency, bedrooms, bathrooms, livingArea, lotAreaValue/lotAreaUnits, homeType,
 *   homeStatus, zestimate, rentZestimate, daysOnZillow, hdpUrl, hiResImageLink, brokerageName.
 */
import { amountOf } from '../_kit/money.ts';
import { countOf, unitRange, unitsOf } from './building.ts';
import { isAdNode } from '../_kit/values.ts';
import type { EstateRecord } from './record.ts';

export const SITE = 'https://www.zillow.com';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

const obj = (v: unknown): Node | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : null);
const s = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const firstOf = <T>(...vs: Array<T | null>): T | null => vs.find((v) => v !== null) ?? null;

/** Lot area in square feet from a value and its unit ("sqft", "Square Feet", "acres"). */
export function lotSqft(value: unknown, unit: unknown): number | null {
  const v = n(value);
  if (v === null) return null;
  const u = typeof unit === 'string' ? unit.toLowerCase() : 'sqft';
  if (u.startsWith('acre')) return Math.round(v * 43_560);
  return u.includes('sq') || u.includes('feet') ? v : null;
}

/** Absolute URL of a site path. */
export function absolute(path: unknown): string | null {
  const p = s(path);
  if (!p) return null;
  return /^https?:\/\//.test(p) ? p : `${SITE}${p.startsWith('/') ? '' : '/'}${p}`;
}

/** A days count ≥ 0 (the site writes -1 for "unknown"). */
const days = (v: unknown) => {
  const d = n(v);
  return d !== null && d >= 0 ? Math.trunc(d) : null;
};

/**
 * One search result → record; null for a node that names no property.
 * @example resultRecord({ zpid: '1', price: '$5', latLong: { latitude: 1, longitude: 2 } }, 'x')?.price // 5
 */
export function resultRecord(x: unknown, query: string): EstateRecord | null {
  const r = obj(x);
  // A paid tile among the results (flagged sponsored) is an ad, not a listing of the search.
  if (!r || isAdNode(r)) return null;
  const hi = obj(obj(r.hdpData)?.homeInfo) ?? {};
  const unit0 = obj(unitsOf(r)[0]);
  // Not `lotId`: the lot's number, not the listing's; a building without its own id is no record.
  const id = firstOf(s(r.zpid), s(hi.zpid), s(r.plid), s(r.buildingId));
  if (!id) return null;
  const range = unitRange(r);
  // A building's own price text is its cheapest unit's ("From $988,901"); a rental building has
  // none and lists units: the lowest of them, with its text.
  const cheapest = range.min_price !== null ? unitsOf(r).find((u) => amountOf(s(u.price)) === range.min_price) : null;
  const priceText = firstOf(s(r.price), s(cheapest?.price), s(unit0?.price));
  const price = firstOf(n(hi.price), n(r.unformattedPrice), amountOf(priceText), range.min_price);
  return {
    query,
    property_id: id,
    status: firstOf(s(hi.homeStatus), s(r.statusType)),
    address: s(r.address),
    street: firstOf(s(hi.streetAddress), s(r.addressStreet)),
    city: firstOf(s(hi.city), s(r.addressCity)),
    state: firstOf(s(hi.state), s(r.addressState)),
    postal_code: firstOf(s(hi.zipcode), s(r.addressZipcode)),
    latitude: firstOf(n(obj(r.latLong)?.latitude), n(hi.latitude)),
    longitude: firstOf(n(obj(r.latLong)?.longitude), n(hi.longitude)),
    price,
    currency: price === null ? null : (s(hi.currency) ?? 'USD'),
    price_text: priceText,
    beds: firstOf(countOf(r.beds), n(hi.bedrooms), range.min_beds),
    baths: firstOf(countOf(r.baths), n(hi.bathrooms), range.min_baths),
    area_sqft: firstOf(n(r.area), n(hi.livingArea), n(r.minArea)),
    lot_area_sqft: lotSqft(hi.lotAreaValue, hi.lotAreaUnit),
    home_type: s(hi.homeType),
    estimate: firstOf(n(hi.zestimate), n(r.zestimate)),
    rent_estimate: n(hi.rentZestimate),
    days_on_site: days(hi.daysOnZillow),
    photo: s(r.imgSrc),
    url: absolute(r.detailUrl),
    status_text: s(r.statusText),
    broker_name: s(r.brokerName),
    ...range,
  };
}

/**
 * A property page's node → record; null when it is no property node.
 * @example propertyRecord({ zpid: 1, address: { city: 'X' } }, 'q')?.city // 'X'
 */
export function propertyRecord(x: unknown, query: string): EstateRecord | null {
  const p = obj(x);
  const id = s(p?.zpid);
  if (!p || !id) return null;
  const a = obj(p.address) ?? {};
  const street = firstOf(s(a.streetAddress), s(p.streetAddress));
  const city = firstOf(s(a.city), s(p.city));
  const state = firstOf(s(a.state), s(p.state));
  const zip = firstOf(s(a.zipcode), s(p.zipcode));
  const price = n(p.price);
  const line = street && city && state ? `${street}, ${city}, ${state}${zip ? ` ${zip}` : ''}` : null;
  return {
    query,
    property_id: id,
    status: s(p.homeStatus),
    address: line,
    street,
    city,
    state,
    postal_code: zip,
    latitude: n(p.latitude),
    longitude: n(p.longitude),
    price,
    currency: price === null ? null : (s(p.currency) ?? 'USD'),
    price_text: null, // the node has the number only
    beds: n(p.bedrooms),
    baths: n(p.bathrooms),
    area_sqft: firstOf(n(p.livingArea), n(p.livingAreaValue)),
    lot_area_sqft: lotSqft(p.lotAreaValue ?? p.lotSize, p.lotAreaUnits ?? 'sqft'),
    home_type: s(p.homeType),
    estimate: n(p.zestimate),
    rent_estimate: n(p.rentZestimate),
    days_on_site: days(p.daysOnZillow),
    photo: firstOf(s(p.hiResImageLink), s(p.desktopWebHdpImageLink)),
    url: absolute(p.hdpUrl),
    status_text: s(p.listingTypeDimension),
    broker_name: s(p.brokerageName),
    // A property page is one home.
    is_building: false,
    unit_count: null,
    min_beds: null,
    max_beds: null,
    min_baths: null,
    max_baths: null,
    min_price: null,
    max_price: null,
  };
}
