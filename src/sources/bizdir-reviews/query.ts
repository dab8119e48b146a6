/**
 * Query items of `/bizdir-reviews`: a business page link (`https://www.yelp.com/biz/<alias>`, any
 * query string or fragment, the `m.` host or a country site such as yelp.co.uk) or a bare business
 * id (the page alias, or the 22-character encid).
 *
 * @example
 *   readBizQuery('https://m.yelp.com/biz/vons-1000-spirits-seattle-4?osq=bar') // { id: 'vons-1000-spirits-seattle-4', form: 'alias' }
 *   readBizQuery('Lw7NmZ3j-WEye97ywEmkXQ') // { id: 'Lw7NmZ3j-WEye97ywEmkXQ', form: 'encid' }
 */
export interface BizQuery {
  /** What goes after `/biz/` on the business page. */
  id: string;
  form: 'alias' | 'encid';
}

const HOST = /^(?:[a-z0-9-]+\.)*yelp\.[a-z]{2,3}(?:\.[a-z]{2})?$/i;
/** Encids are 22 base64url characters; aliases are lower case, so an upper-case letter tells them apart. */
const ENCID = /^[A-Za-z0-9_-]{22}$/;
const ALIAS = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}._'-]*$/u;

function formOf(id: string): BizQuery | null {
  if (ENCID.test(id) && /[A-Z]/.test(id)) return { id, form: 'encid' };
  if (ALIAS.test(id) && id.length <= 200) return { id, form: 'alias' };
  return null;
}

/** The business a query item names, or a message saying why it names none. */
export function readBizQuery(raw: string): BizQuery | { error: string } {
  const q = raw.trim();
  if (!q) return { error: 'empty query' };
  const looksLikeUrl = /^https?:\/\//i.test(q) || /^(?:[a-z0-9-]+\.)*yelp\.[a-z.]+\//i.test(q);
  if (!looksLikeUrl) return formOf(q) ?? { error: `query "${q.slice(0, 100)}" is neither a business page link (/biz/<alias>) nor a business id` };
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
  } catch {
    return { error: `query "${q.slice(0, 100)}" is not a valid link` };
  }
  if (!HOST.test(u.hostname)) return { error: `query "${q.slice(0, 100)}" is not a business directory link (host ${u.hostname})` };
  const m = /^\/(?:biz|biz_photos|menu)\/([^/]+)\/?/.exec(u.pathname);
  if (!m) return { error: `query "${q.slice(0, 100)}" is not a business page link (expected /biz/<alias>)` };
  let seg: string;
  try {
    seg = decodeURIComponent(m[1]);
  } catch {
    return { error: `query "${q.slice(0, 100)}" has a malformed business alias` };
  }
  return formOf(seg) ?? { error: `query "${q.slice(0, 100)}" has no valid business alias` };
}
