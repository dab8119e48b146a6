/**
 * Query items of `/launchsite-reviews`: a product page link (`/products/<slug>`, with any tail such
 * as `/reviews` or `/launches/...`, any query string), a launch (post) link `/posts/<slug>`, or a
 * bare product slug. A post names a launch, not the product: its page is read to find the product.
 *
 * @example
 *   readProductQuery('https://www.producthunt.com/products/linear/reviews?order=LATEST') // { kind: 'product', slug: 'linear' }
 *   readProductQuery('producthunt.com/posts/linear-2') // { kind: 'post', slug: 'linear-2' }
 */
const HOST = /^(?:www\.)?producthunt\.com$/i;
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/i;

export type ProductQuery = { kind: 'product' | 'post'; slug: string };

export function readProductQuery(raw: string): ProductQuery | { error: string } {
  const q = raw.trim();
  if (!q) return { error: 'empty query' };
  if (SLUG.test(q)) return { kind: 'product', slug: q.toLowerCase() };
  const looksLikeUrl = /^https?:\/\//i.test(q) || /^(?:www\.)?producthunt\.com\//i.test(q);
  if (!looksLikeUrl) return { error: `query "${q.slice(0, 100)}" is neither a product page link (/products/<slug>, /posts/<slug>) nor a product slug` };
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
  } catch {
    return { error: `query "${q.slice(0, 100)}" is not a valid link` };
  }
  if (!HOST.test(u.hostname)) return { error: `query "${q.slice(0, 100)}" is not a product-launch site link (host ${u.hostname})` };
  const m = /^\/(products|posts)\/([^/?#]+)(?:\/|$)/.exec(u.pathname);
  const slug = m ? decodeURIComponent(m[2]) : '';
  if (!m || !SLUG.test(slug)) return { error: `query "${q.slice(0, 100)}" is not a product page link (expected /products/<slug>, /products/<slug>/reviews or /posts/<slug>)` };
  return { kind: m[1] === 'posts' ? 'post' : 'product', slug: slug.toLowerCase() };
}
