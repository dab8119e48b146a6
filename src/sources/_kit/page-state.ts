/**
 * Every JSON state blob a web-app page ships, in one list, for adapters that look for their data by
 * shape (`__typename`, keys) rather than by one path that moves between site releases: the page's
 * JSON scripts (`__NEXT_DATA__`, `application/json`, `ld+json`), a `window.__APOLLO_STATE__` cache,
 * and the Next.js app router's `ApolloSSRDataTransport` pushes. Apollo `{__ref}` links inside a blob
 * are resolved against the normalised cache entries (`"Type:id": {...}`) that blob carries.
 *
 * @example findValues(stateBlobs(html), isReview) // the reviews, wherever the page put them
 */
import { apolloState, jsonScripts, pushedLiterals, resolveRefs, type ApolloCache } from './embedded.ts';
import { obj } from './values.ts';

/** JSON pushed to the app router's Apollo transport: `(...ApolloSSRDataTransport...).push({...})`. */
const transportPushes = (html: string): unknown[] => pushedLiterals(html, /ApolloSSRDataTransport[^;]{0,80}?\.push\(\s*(?=[[{])/g);

/** Apollo cache entries (`"Type:id": {...}`) found near the top of a blob, for `{__ref}`s. */
export function cacheOf(blob: unknown): ApolloCache {
  const cache: ApolloCache = {};
  const walk = (v: unknown, depth: number): void => {
    const o = obj(v);
    if (!o || depth > 4) return;
    for (const [k, x] of Object.entries(o)) {
      if (/^[A-Z]\w*:/.test(k)) cache[k] = x as ApolloCache[string];
      else walk(x, depth + 1);
    }
  };
  walk(blob, 0);
  return cache;
}

/** Every state blob of the page, `{__ref}` links resolved against its own cache. */
export function stateBlobs(html: string): unknown[] {
  const raw: unknown[] = [...jsonScripts(html), ...transportPushes(html)];
  const apollo = apolloState(html);
  if (apollo) raw.push(apollo);
  return raw.map((b) => {
    const cache = cacheOf(b);
    return Object.keys(cache).length ? resolveRefs(cache, b as ApolloCache[string]) : b;
  });
}

