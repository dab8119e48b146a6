/**
 * `parse` of `/delivery`: a store page feed or item page answer (or a page state blob) → one
 * record per menu item. The store is the object carrying its header (`_doordash/site.ts`), the
 * items are found by shape (menu.ts). An answer with neither items nor the store is
 * `layout_changed`: never "no items"; a store whose feed lists no item gives no records.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { findValues } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { idOf, obj, str, type Obj } from '../_kit/values.ts';
import { isMerchantInfo, isStoreHeader, ORIGIN, readSiteAnswer, storeOf, storeUrl, withMerchantInfo, type StoreHeader } from '../_doordash/site.ts';
import { findItems, itemIdOf, itemRatingOf, markedPopular, priceOf, type FoundItem } from './menu.ts';
import { FEED, ITEM, itemStep, type MenuState } from './plan.ts';
import type { MenuItemRecord } from './record.ts';
import { splitItemPages, type ItemOption } from './item-page.ts';

export interface MenuPage {
  store: StoreHeader | null;
  menuId: string | null;
  items: FoundItem[];
  /** Choices per item id, of the items read from an item page; a feed's items' choices are not listed. */
  options?: Map<string, ItemOption[]>;
  /** Some entries of a popular list did not read: an item not seen in one may still be popular. */
  popularUnread?: boolean;
}

/**
 * The `data` of an answer (or a page state blob) → its store and items; neither → `layout_changed`.
 * @example readMenu({ storepageFeed: { storeHeader: { __typename: 'StoreHeader', id: '1', name: 'X' }, itemLists: [] } }, '1').items // []
 */
export function readMenu(data: unknown, storeId: string | null, label = FEED): MenuPage {
  const header = findValues(data, isStoreHeader(storeId))[0] ?? null;
  // An item page is its header's one item with its choices: its carousels and recommendations are no items.
  const pages = splitItemPages(data);
  const found = findItems(pages.rest);
  const items = [...found.items.filter((f) => !pages.options.has(itemIdOf(f.node) ?? '')), ...pages.items];
  const popularUnread = found.popularUnread;
  if (!header && !items.length) {
    const keys = obj(data) ? Object.keys(data as Obj).join(', ').slice(0, 80) : typeof data;
    throw new SourceError('layout_changed', `${label}: the answer holds neither menu items nor the store (keys: ${keys})`);
  }
  const book = findValues(data, (v): v is Obj => obj(v)?.__typename === 'MenuBook' || (!!obj(v) && Array.isArray(obj(v)!.menuCategories)))[0];
  // The feed's merchant information block carries the phone when the header does not.
  const info = findValues(data, isMerchantInfo)[0];
  const store = header ? withMerchantInfo(storeOf(header), info) : null;
  return { store, menuId: idOf(book?.id), items, popularUnread: popularUnread > 0, ...(pages.items.length ? { options: pages.options } : {}) };
}

/** One found item → its record. */
export function recordOf(f: FoundItem, page: MenuPage, query: string, storeId: string | null): MenuItemRecord {
  const n = f.node;
  const s = page.store;
  const id = s?.id ?? storeId;
  const itemId = itemIdOf(n);
  const menuId = idOf(n.menuId) ?? page.menuId;
  const { price, currency, text } = priceOf(n);
  const { rating, count } = itemRatingOf(n);
  const marked = markedPopular(n);
  // Not in a popular list, while one exists and each of its entries read: not popular; else unknown.
  const popularKnown = page.items.some((x) => x.popular) && !page.popularUnread;
  return {
    query,
    store_id: id,
    store_name: s?.name ?? null,
    store_address: s?.address ?? null,
    store_phone: s?.phone ?? null,
    store_rating: s?.rating ?? null,
    store_reviews: s?.count ?? null,
    item_id: itemId,
    item_name: str(n.name),
    description: str(n.description),
    category: f.category ?? str(n.categoryName) ?? str(obj(n.category)?.name) ?? str(n.category),
    price,
    currency,
    image: str(n.imageUrl) ?? str(n.imgUrl) ?? str(obj(n.image)?.url) ?? str(n.image),
    rating,
    ratings_count: count,
    is_popular: f.popular || marked === true ? true : marked === false || popularKnown ? false : null,
    price_text: text,
    item_url: id && menuId && itemId ? `${ORIGIN}/store/${id}/${menuId}/item/${itemId}/` : null,
    store_url: id ? storeUrl(id) : null,
    store_latitude: s?.latitude ?? null,
    store_longitude: s?.longitude ?? null,
    menu_id: menuId,
    options: (itemId !== null ? page.options?.get(itemId) : undefined) ?? null,
  };
}

/** Records of a page; only the named item when the query names one. */
export function pageRecords(page: MenuPage, query: string, storeId: string | null, itemId: string | null): MenuItemRecord[] {
  const items = itemId ? page.items.filter((f) => itemIdOf(f.node) === itemId) : page.items;
  return items.map((f) => recordOf(f, page, query, storeId));
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext): ParseResult<MenuItemRecord> {
  const state = step.state as MenuState;
  if (step.kind === 'menu') {
    const page = readMenu(readSiteAnswer(res, FEED), state.storeId);
    const records = pageRecords(page, ctx.query, state.storeId, state.itemId);
    // An item the feed does not list (another menu, a hidden item): its own page, with the store.
    if (state.itemId && !records.length) return { records: [], next: [itemStep({ ...state, itemId: state.itemId, menuId: state.menuId ?? page.menuId, store: page.store })] };
    return { records };
  }
  if (step.kind === 'item') {
    const page = readMenu(readSiteAnswer(res, ITEM), state.storeId, ITEM);
    const withStore = { ...page, store: page.store ?? state.store ?? null, menuId: page.menuId ?? state.menuId };
    const records = pageRecords(withStore, ctx.query, state.storeId, state.itemId);
    if (!records.length) throw new SourceError('not_found', `${ITEM}: the store ${state.storeId} has no item ${state.itemId}`);
    return { records };
  }
  throw new SourceError('layout_changed', `delivery: unknown step kind ${step.kind}`);
}
