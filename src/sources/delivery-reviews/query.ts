/**
 * Query items of `/delivery-reviews`: a store link, a menu-item link inside a store (the reviews are
 * the store's), or a bare store id; the link forms are the site's, read in `_doordash/links.ts`.
 *
 * @example
 *   readStoreQuery('https://www.doordash.com/store/joes-pizza-san-francisco-24687/') // { id: '24687' }
 *   readStoreQuery('doordash.com/store/24687/?pickup=true') // { id: '24687' }
 */
import { readStoreLink } from '../_doordash/links.ts';

export function readStoreQuery(raw: string): { id: string } | { error: string } {
  const r = readStoreLink(raw);
  return 'error' in r ? r : { id: r.id };
}
