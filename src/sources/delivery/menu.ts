/**
 * Menu items of a food-delivery answer or page state, found by shape rather than by one path (the
 * store page feed moves its lists between releases: `itemLists`, `menuBook.menuCategories`,
 * carousels): an item is an object with an id, a name and a price field (or a menu-item typename);
 * its category is the name of the object whose list holds it. An item listed twice (a "Most
 * Ordered" carousel and its own category) is one record, popular, under its own category; an item
 * seen only in a carousel has no known category (null), never the carousel's name.
 * Items come in menu order (a carousel item at its own category's place). Option lists, recommendations and reviews are not menu items and are not walked into.
 * An option is never an item, whatever key holds it: a surcharge price ("+$3.00"), an option
 * typename, or a list with selection bounds (`minNumOptions`, `maxSelection`...) says so.
 *
 * @example menuItems(data).map((m) => m.node.name)
 */
import { amountOf, currencyOf } from '../_kit/money.ts';
import { idOf, int, isAdNode, obj, str, type Obj } from '../_kit/values.ts';

const TYPED = /^(?:MenuPage|StorePage|Storepage|Menu|Store)?Item(?:Header)?$/;
const PRICED = ['displayPrice', 'price', 'unitAmount', 'priceDisplayString', 'quickAddContext'];
/** Branches that hold items which are not the store's menu items. */
const SKIP = /option|modifier|extra|review|recommend|upsell|cart|order|similar|cross/i;
const POPULAR = /popular|most ordered|most liked|best ?sell|featured/i;

/** The item's id (`id`, or `itemId` in some surfaces). */
export const itemIdOf = (o: Obj): string | null => idOf(o.id) ?? idOf(o.itemId);

/** Typenames of an item's choices (options, modifiers, extras), never menu items. */
const CHOICE_TYPE = /option|modifier|extra|choice|addon|customi[sz]ation/i;
/** Keys of a list of choices: its selection bounds. */
const CHOICE_BOUNDS = ['minNumOptions', 'maxNumOptions', 'minSelection', 'maxSelection', 'minSelections', 'maxSelections', 'selectionMode', 'isOptional'];

/** A price shown as an addition to the item's ("+$3.00"): an option's, never a menu item's. */
const surcharge = (o: Obj): boolean =>
  [o.displayPrice, o.displayString, o.priceDisplayString, obj(o.price)?.displayString, o.price].some((t) => typeof t === 'string' && /^\s*\+/.test(t));

/** A list of an item's choices (it states how many may be chosen). */
const isChoiceList = (o: Obj): boolean => CHOICE_BOUNDS.some((k) => k in o) || (typeof o.__typename === 'string' && CHOICE_TYPE.test(o.__typename) && !TYPED.test(o.__typename));

/** Shaped like a menu item (typename or price field, no ad, no choice), whether or not its id and name read. */
function itemShaped(o: Obj): boolean {
  // A promoted tile among the menu's lists is an ad, not the store's item.
  if (isAdNode(o)) return false;
  if (typeof o.__typename === 'string' && CHOICE_TYPE.test(o.__typename)) return false;
  if (surcharge(o)) return false;
  const typed = typeof o.__typename === 'string' && TYPED.test(o.__typename);
  return typed || PRICED.some((k) => k in o);
}

export function isMenuItem(v: unknown): v is Obj {
  const o = obj(v);
  if (!o || !str(o.name) || itemIdOf(o) === null) return false;
  return itemShaped(o);
}

export interface FoundItem {
  node: Obj;
  category: string | null;
  popular: boolean;
}

/** A list's name beats none; an own category beats a popular carousel. */
const betterCategory = (had: string | null, now: string | null): boolean =>
  now !== null && (had === null || (POPULAR.test(had) && !POPULAR.test(now)));

/** The items of an answer, and how many entries of its popular lists do not read as items. */
export interface FoundItems {
  items: FoundItem[];
  /** Entries of a popular list shaped like an item but without its id or name: which items are popular is then not known in full. */
  popularUnread: number;
}

/** Every menu item under `root`, once each, in the order first seen. */
export function menuItems(root: unknown): FoundItem[] {
  return findItems(root).items;
}

/** `menuItems`, with the count of popular-list entries that do not read. */
export function findItems(root: unknown): FoundItems {
  const byId = new Map<string, FoundItem>();
  let popularUnread = 0;
  const add = (node: Obj, holder: Obj | null) => {
    const category = str(holder?.name) ?? str(holder?.title);
    const inPopularList = category !== null && POPULAR.test(category);
    const id = itemIdOf(node)!;
    const seen = byId.get(id);
    if (!seen) {
      byId.set(id, { node, category, popular: inPopularList });
      return;
    }
    seen.popular ||= inPopularList;
    if (betterCategory(seen.category, category)) {
      // First seen in a carousel (or bare, as an Apollo cache entry): the item takes its place in its own category.
      seen.category = category;
      byId.delete(id);
      byId.set(id, seen);
    }
    for (const [k, x] of Object.entries(node)) if (seen.node[k] == null && x != null) seen.node = { ...seen.node, [k]: x };
  };
  const walk = (v: unknown, holder: Obj | null, depth: number): void => {
    if (depth > 40 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, holder, depth + 1);
      return;
    }
    const o = v as Obj;
    if (isMenuItem(o)) return add(o, holder);
    if (isChoiceList(o)) return;
    const listName = str(holder?.name) ?? str(holder?.title);
    if (listName !== null && POPULAR.test(listName) && itemShaped(o)) {
      popularUnread++;
      return;
    }
    // A wrapper without a name of its own (`{data: item}`) keeps the list that holds it as holder.
    const named = str((v as Obj).name) !== null || str((v as Obj).title) !== null;
    for (const [k, x] of Object.entries(o)) if (!SKIP.test(k)) walk(x, Array.isArray(x) ? o : named ? null : holder, depth + 1);
  };
  walk(root, null, 0);
  // Seen only in a popular carousel (its own list's entry did not read): its menu category is not known.
  for (const f of byId.values()) if (f.category !== null && POPULAR.test(f.category)) f.category = null;
  return { items: [...byId.values()], popularUnread };
}

/** The site's price object of an item: `{unitAmount, currency, decimalPlaces, displayString}`. */
function priceObjOf(n: Obj): Obj | null {
  for (const v of [n.price, obj(n.quickAddContext)?.price, n.priceInfo, n.displayPriceInfo]) {
    const o = obj(v);
    if (o && ('unitAmount' in o || 'displayString' in o)) return o;
  }
  return 'unitAmount' in n ? n : null;
}

/** Price, currency and text of an item: minor units scaled by the answer's decimals, else the shown text. */
export function priceOf(n: Obj): { price: number | null; currency: string | null; text: string | null } {
  const p = priceObjOf(n);
  const text = str(n.displayPrice) ?? str(p?.displayString) ?? str(n.priceDisplayString) ?? str(n.price);
  const minor = int(p?.unitAmount);
  const decimals = int(p?.decimalPlaces) ?? 2;
  const price = minor !== null ? minor / 10 ** decimals : amountOf(text);
  const currency = str(p?.currency) ?? str(p?.currencyCode) ?? str(n.currency) ?? currencyOf(text);
  return { price, currency: currency?.toUpperCase() ?? null, text };
}

/** "👍 92% (120)" → 92 and 120; numeric fields when the answer has them. */
export function itemRatingOf(n: Obj): { rating: number | null; count: number | null } {
  const r = obj(n.rating) ?? obj(n.itemRating);
  const text = str(n.ratingDisplayString) ?? str(r?.displayString) ?? str(n.rating);
  const m = text ? /(\d{1,3})\s*%(?:\s*\((\d[\d,]*)\))?/.exec(text) : null;
  return {
    rating: int(r?.percentLiked) ?? int(r?.likePercent) ?? (m ? Number(m[1]) : null),
    count: int(r?.numRatings) ?? int(n.numRatings) ?? (m?.[2] ? Number(m[2].replace(/,/g, '')) : null),
  };
}

/** The item's own popularity mark: `isPopular`, a badge or callout such as "#1 Most liked". */
export function markedPopular(n: Obj): boolean | null {
  if (typeof n.isPopular === 'boolean') return n.isPopular;
  const texts = [n.calloutDisplayString, ...(Array.isArray(n.badges) ? n.badges.map((b) => obj(b)?.text ?? obj(b)?.title ?? b) : [])];
  if (texts.some((t) => typeof t === 'string' && POPULAR.test(t))) return true;
  return null;
}
