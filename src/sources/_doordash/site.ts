/**
 * The food-delivery site's (DoorDash) web GraphQL, shared by `/delivery-reviews` and `/delivery`:
 * one operation per request as its own web client sends it, `POST
 * https://www.doordash.com/graphql/<operation>?operation=<operation>` with `{operationName,
 * variables, query}` (query text, not persisted hashes) and the web client's channel headers; and
 * the answer read into `data` or a typed error. The store page itself is not fetched: it sits
 * behind Cloudflare's managed challenge.
 *
 * @example const s = siteStep('menu', 'storepageFeed', { storeId: '24687' }, QUERY, '24687', { storeId: '24687' });
 */
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { GraphqlError, graphqlStep, htmlInPlaceOfAnswer, readGraphql } from '../_kit/graphql.ts';
import { idOf, int, num, obj, str, type Obj } from '../_kit/values.ts';

export const ORIGIN = 'https://www.doordash.com';

export const storeUrl = (id: string) => `${ORIGIN}/store/${id}/`;

/** One operation of the site's web GraphQL, with the store page as referer. */
export function siteStep(kind: string, operation: string, variables: Record<string, unknown>, query: string, storeId: string, state: Record<string, unknown>): Step {
  return graphqlStep(kind, `${ORIGIN}/graphql/${operation}?operation=${operation}`, { operationName: operation, variables, query }, {
    headers: {
      origin: ORIGIN,
      referer: storeUrl(storeId),
      'x-channel-id': 'marketplace',
      'x-experience-id': 'doordash',
      'apollographql-client-name': '@doordash/app-consumer-production-ssr-client',
    },
    state,
  });
}

/**
 * `data` of an answer. An HTML page in place of JSON (Cloudflare's challenge served with 200) is
 * `blocked`; an answer without data is a typed `GraphqlError` (rate limit, block, stale query), and
 * one that says nothing at all is `layout_changed`; `null` in place of the operation's field is
 * `not_found` (the site does not know the store or item).
 */
export function readSiteAnswer(res: FetchedResponse, operation: string): Obj {
  const wall = htmlInPlaceOfAnswer(res.body, res.status, operation);
  if (wall) throw wall;
  let data: Obj;
  try {
    data = readGraphql<Obj>(res.body);
  } catch (e) {
    if (e instanceof GraphqlError && e.code === 'no_data') throw new SourceError('layout_changed', `${operation}: HTTP ${res.status}, ${e.message.slice(0, 160)}`);
    throw e;
  }
  if (operation in data && data[operation] === null) throw new SourceError('not_found', `${operation}: the site has no such store or item`);
  return data;
}

/** The object carrying a store's header: `__typename` StoreHeader / Store, or the store's id with a name. */
export const isStoreHeader = (storeId: string | null) => (v: unknown): v is Obj => {
  const o = obj(v);
  if (!o || typeof o.name !== 'string') return false;
  if (typeof o.__typename === 'string' && /^(StoreHeader|Store|StorepageStoreHeader|StoreInfo)$/.test(o.__typename)) return true;
  return storeId !== null && idOf(o.id) === storeId;
};

export interface StoreHeader {
  id: string | null;
  name: string | null;
  rating: number | null;
  count: number | null;
  address: string | null;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** "2,300+ ratings" → 2300 (a lower bound, as shown). */
const countText = (v: unknown): number | null => {
  const m = typeof v === 'string' ? /(\d[\d,.]*)\s*(k)?\+?/i.exec(v) : null;
  if (!m) return null;
  const n = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(n) ? Math.round(m[2] ? n * 1000 : n) : null;
};

/**
 * The store header of an answer or page: `{id, name, ratings: {averageRating, numRatings}, address:
 * {displayAddress, lat, lng}, phoneNumber}`; every branch optional.
 * @example storeOf({ id: 1, name: 'X', ratings: { averageRating: 4.6, numRatings: 2310 } }).count // 2310
 */
export function storeOf(o: Obj | null): StoreHeader {
  const ratings = obj(o?.ratings) ?? obj(o?.rating) ?? o;
  const address = obj(o?.address) ?? obj(o?.location);
  const line = str(o?.address) ?? str(address?.displayAddress) ?? str(address?.printableAddress)
    ?? ([address?.street, address?.city, address?.state].every((x) => typeof x === 'string') ? `${address!.street}, ${address!.city}, ${address!.state}${str(address?.zipCode) ? ` ${address!.zipCode}` : ''}` : null);
  return {
    id: idOf(o?.id),
    name: str(o?.name),
    rating: num(ratings?.averageRating) ?? num(ratings?.starRating),
    count: int(ratings?.numRatings) ?? int(ratings?.numRatingsTotal) ?? countText(ratings?.numRatingsDisplayString),
    address: line,
    phone: str(o?.phoneNumber) ?? str(o?.phone) ?? str(obj(o?.contact)?.phoneNumber),
    latitude: num(address?.lat) ?? num(address?.latitude),
    longitude: num(address?.lng) ?? num(address?.longitude),
  };
}

/**
 * The merchant information block of a store page feed (`mxInfo { phoneno }`; other surfaces name it
 * `merchantInfo`): where the feed carries the store's phone when its header does not. Found by its
 * typename or by a phone field beside no name (a header has a name).
 */
export const isMerchantInfo = (v: unknown): v is Obj => {
  const o = obj(v);
  if (!o) return false;
  if (typeof o.__typename === 'string' && /^(Mx|Merchant)Info/i.test(o.__typename)) return true;
  return typeof o.phoneno === 'string';
};

/** The header's fields, its gaps filled from the merchant information block (phone, address). */
export function withMerchantInfo(store: StoreHeader, info: Obj | null | undefined): StoreHeader {
  if (!info) return store;
  const phone = str(info.phoneno) ?? str(info.phoneNumber) ?? str(info.phone) ?? str(info.displayPhoneNumber);
  const address = obj(info.address);
  return {
    ...store,
    phone: store.phone ?? (phone && phone.trim() ? phone.trim() : null),
    address: store.address ?? str(info.address) ?? str(address?.displayAddress) ?? str(address?.printableAddress),
  };
}
