/**
 * The food-delivery site's (DoorDash) store and menu-item links, shared by `/delivery-reviews` and
 * `/delivery`: a store link (`/store/<slug>-<id>/`, `/store/<id>/?...`, with a locale prefix such as
 * `/en-US/`), a menu-item link inside a store (`/store/<slug>-<id>/<menuId>/item/<itemId>`,
 * `/store/<slug>-<id>/item/<itemId>`, `/store/<id>/?item_id=<itemId>`), or a bare store id. Ids stay
 * strings (digits).
 *
 * @example
 *   readStoreLink('https://www.doordash.com/store/joes-pizza-24687/31337/item/998877/') // { id: '24687', menuId: '31337', itemId: '998877' }
 *   readStoreLink('doordash.com/store/24687/?pickup=true') // { id: '24687', menuId: null, itemId: null }
 */
const HOST = /^(?:(?:www|order|m)\.)?doordash\.com$/i;
const ID = /^\d{1,15}$/;

export interface StoreLink {
  /** The store id. */
  id: string;
  /** The menu id a link names (item links carry it), else null. */
  menuId: string | null;
  /** The menu item a link names, else null (a store link). */
  itemId: string | null;
}

export function readStoreLink(raw: string): StoreLink | { error: string } {
  const q = raw.trim();
  if (!q) return { error: 'empty query' };
  if (ID.test(q)) return { id: q, menuId: null, itemId: null };
  const looksLikeUrl = /^https?:\/\//i.test(q) || /^(?:[a-z]+\.)?doordash\.com\//i.test(q);
  if (!looksLikeUrl) return { error: `query "${q.slice(0, 100)}" is neither a store or menu-item link (/store/<slug>-<id>/) nor a store id` };
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
  } catch {
    return { error: `query "${q.slice(0, 100)}" is not a valid link` };
  }
  if (!HOST.test(u.hostname)) return { error: `query "${q.slice(0, 100)}" is not a food-delivery store link (host ${u.hostname})` };
  const m = /^(?:\/[a-z]{2}(?:-[A-Za-z]{2})?)?\/store\/(?:[^/?#]*?-)?(\d{1,15})(?:\/(\d{1,15}))?(?:\/item\/(\d{1,15}))?(?:[/?#]|$)/.exec(u.pathname);
  if (!m) return { error: `query "${q.slice(0, 100)}" is not a store or menu-item link (expected /store/<slug>-<id>/ or /store/<id>/)` };
  const itemParam = u.searchParams.get('item_id') ?? u.searchParams.get('itemId');
  const itemId = m[3] ?? (itemParam && ID.test(itemParam) ? itemParam : null);
  return { id: m[1]!, menuId: m[2] ?? null, itemId };
}

/**
 * The store id a saved store page names in its canonical link (or `og:url`); null when none.
 * @example canonicalStoreId('<link rel="canonical" href="https://www.doordash.com/store/x-24687/">') // '24687'
 */
export function canonicalStoreId(html: string): string | null {
  const link = /<link\b[^>]*rel=["']canonical["'][^>]*href=["']([^"']+)["']/i.exec(html)?.[1] ?? /<meta\b[^>]*property=["']og:url["'][^>]*content=["']([^"']+)["']/i.exec(html)?.[1];
  const q = link ? readStoreLink(link) : null;
  return q && 'id' in q ? q.id : null;
}
