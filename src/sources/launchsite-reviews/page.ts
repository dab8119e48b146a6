/**
 * What `/launchsite-reviews` reads from a product or launch page: the product (slug, id, name), the
 * reviews its state already holds, and the persisted-query hash of the reviews operation when the
 * page names it. The state is looked for by shape (`__typename` Product / Post / Review) in every
 * place the site has shipped it: `__NEXT_DATA__` (pages router, `apolloState` inside), a
 * `window.__APOLLO_STATE__` cache, and the app router's `ApolloSSRDataTransport` pushes; Apollo
 * `{__ref}` links are resolved. The canonical link names the product as a last resort.
 *
 * @example readProductPage(html).product // { slug: 'linear', id: '512345', name: 'Linear' }
 */
import { findValues } from '../_kit/embedded.ts';
import { stateBlobs } from '../_kit/page-state.ts';
import { persistedHashOf } from '../_kit/graphql.ts';
import { idOf, obj, str, type Obj } from '../_kit/values.ts';
import { OPERATION } from './plan.ts';
import { isReviewNode } from './review.ts';

export interface ProductInfo {
  slug: string | null;
  id: string | null;
  name: string | null;
}

export interface ProductPage {
  product: ProductInfo | null;
  /** Reviews the page state holds (refs resolved), each with the product it sits under when known. */
  reviews: Obj[];
  hash: string | null;
  /** The page carries the site's app state at all (not a bare error or block page). */
  isAppPage: boolean;
}

const isProduct = (v: unknown): v is Obj => {
  const o = obj(v);
  return !!o && o.__typename === 'Product' && typeof o.slug === 'string';
};
const isPost = (v: unknown): v is Obj => {
  const o = obj(v);
  return !!o && o.__typename === 'Post' && 'product' in o;
};

export const productOf = (o: Obj | null): ProductInfo | null => (o ? { slug: str(o.slug), id: idOf(o.id), name: str(o.name) } : null);

export function readProductPage(html: string, post = false): ProductPage {
  const blobs = stateBlobs(html);
  const canonical = /<link\b[^>]*rel=["']canonical["'][^>]*href=["'][^"']*\/products\/([a-z0-9-]+)/i.exec(html)?.[1]?.toLowerCase() ?? null;
  let product: ProductInfo | null = null;
  if (post) {
    const launch = blobs.flatMap((b) => findValues(b, isPost))[0];
    product = productOf(obj(launch?.product));
  }
  const products = blobs.flatMap((b) => findValues(b, isProduct));
  product ??= productOf(products.find((p) => canonical && p.slug === canonical) ?? products[0] ?? null);
  if (!product && canonical) product = { slug: canonical, id: null, name: null };
  const reviews = blobs.flatMap((b) => findValues(b, isReviewNode));
  return {
    product,
    reviews,
    hash: persistedHashOf(html, OPERATION),
    isAppPage: blobs.length > 0 || /__NEXT_DATA__|__APOLLO_STATE__|ApolloSSRDataTransport|self\.__next_f/.test(html),
  };
}
