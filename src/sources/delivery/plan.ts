/**
 * Steps of `/delivery`: the site's web GraphQL (`_doordash/site.ts`). A store link asks the store
 * page feed (`storepageFeed`: the store header and its whole menu, every category with its items,
 * in one answer); a menu-item link asks the same feed and keeps that item (it carries the store,
 * the category and the "most ordered" marks), and only when the feed does not list it, the item
 * page (`itemPage`). The store page HTML is not fetched (Cloudflare's managed challenge).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { readStoreLink } from '../_doordash/links.ts';
import { siteStep, type StoreHeader } from '../_doordash/site.ts';

export const FEED = 'storepageFeed';
export const ITEM = 'itemPage';

/** Price fields as the web client asks them: minor units, currency, decimals and the shown text. */
const PRICE = 'price { unitAmount currency decimalPlaces displayString }';

/**
 * The feed operation text. Field names after the site's store page data; the answer is read by
 * shape (menu items by typename or keys, categories by the list that holds them), so a renamed
 * wrapper does not break it.
 */
export const FEED_QUERY = `query ${FEED}($storeId: ID!, $menuId: ID, $isMerchantPreview: Boolean, $fulfillmentType: FulfillmentType, $cursorContext: StoreItemListCursorContextInput) {
  ${FEED}(storeId: $storeId, menuId: $menuId, isMerchantPreview: $isMerchantPreview, fulfillmentType: $fulfillmentType, cursorContext: $cursorContext) {
    storeHeader { id name phoneNumber address { displayAddress street city state zipCode lat lng }
      ratings { averageRating numRatings numRatingsDisplayString } }
    mxInfo { phoneno }
    menuBook { id name menuCategories { id name numItems } }
    itemLists { id name description items { id name description displayPrice imageUrl calloutDisplayString
      ratingDisplayString isPopular quickAddContext { ${PRICE} } } }
  }
}`;

export const ITEM_QUERY = `query ${ITEM}($storeId: ID!, $itemId: ID!, $isMerchantPreview: Boolean, $fulfillmentType: FulfillmentType) {
  ${ITEM}(storeId: $storeId, itemId: $itemId, isMerchantPreview: $isMerchantPreview, fulfillmentType: $fulfillmentType) {
    itemHeader { id name description imgUrl unitAmount currency decimalPlaces displayString ratingDisplayString menuId }
    optionLists { id name isOptional minNumOptions maxNumOptions options { id name unitAmount currency decimalPlaces displayString } }
  }
}`;

export interface MenuState {
  [k: string]: unknown;
  storeId: string;
  menuId: string | null;
  /** The item an item link names (null: the whole menu). */
  itemId: string | null;
  /** The store header the feed gave, for the item page (which does not repeat it). */
  store?: StoreHeader | null;
}

const common = { isMerchantPreview: false, fulfillmentType: 'Delivery' };

/** @example JSON.parse(feedStep({ storeId: '24687', menuId: null, itemId: null }).body!).variables.storeId // '24687' */
export function feedStep(state: MenuState): Step {
  return siteStep('menu', FEED, { storeId: state.storeId, menuId: state.menuId, ...common, cursorContext: null }, FEED_QUERY, state.storeId, { ...state });
}

export function itemStep(state: MenuState & { itemId: string }): Step {
  return siteStep('item', ITEM, { storeId: state.storeId, itemId: state.itemId, ...common }, ITEM_QUERY, state.storeId, { ...state });
}

/**
 * Query → the store page feed.
 * @example plan({ query: 'https://www.doordash.com/store/joes-pizza-24687/', params: {} })[0].url // 'https://www.doordash.com/graphql/storepageFeed?operation=storepageFeed'
 */
export function plan(ctx: QueryContext): Step[] {
  const q = readStoreLink(ctx.query);
  if ('error' in q) throw new SourceError('invalid_query', q.error);
  return [feedStep({ storeId: q.id, menuId: q.menuId, itemId: q.itemId })];
}
