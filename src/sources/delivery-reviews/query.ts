/**
 * Query items of `/delivery-reviews`: a store link (`/store/<slug>-<id>/`, `/store/<id>/?...`, with
 * a locale prefix such as `/en-US/`), a menu-item link inside a store (`/store/<slug>-<id>/<menu>/item/<item>`,
 * `/store/<id>/?item_id=...`: the reviews are the store's), or a bare store id. Ids stay strings.
 *
 * @example
 *   readStoreQuery('https://www.doordash.com/store/joes-pizza-san-francisco-24687/') // { id: '24687' }
 *   readStoreQuery('doordash.com/store/24687/?pickup=true') // { id: '24687' }
 */
const HOST = /^(?:(?:www|order|m)\.)?doordash\.com$/i;
const ID = /^\d{1,15}$/;

export function readStoreQuery(raw: string): { id: string } | { error: string } {
  const q = raw.trim();
  if (!q) return { error: 'empty query' };
  if (ID.test(q)) return { id: q };
  const looksLikeUrl = /^https?:\/\//i.test(q) || /^(?:[a-z]+\.)?doordash\.com\//i.test(q);
  if (!looksLikeUrl) return { error: `query "${q.slice(0, 100)}" is neither a store or menu-item link (/store/<slug>-<id>/) nor a store id` };
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
  } catch {
    return { error: `query "${q.slice(0, 100)}" is not a valid link` };
  }
  if (!HOST.test(u.hostname)) return { error: `query "${q.slice(0, 100)}" is not a food-delivery store link (host ${u.hostname})` };
  const m = /^(?:\/[a-z]{2}(?:-[A-Za-z]{2})?)?\/store\/(?:[^/?#]*?-)?(\d{1,15})(?:[/?#]|$)/.exec(u.pathname);
  if (!m) return { error: `query "${q.slice(0, 100)}" is not a store or menu-item link (expected /store/<slug>-<id>/ or /store/<id>/)` };
  return { id: m[1] };
}
