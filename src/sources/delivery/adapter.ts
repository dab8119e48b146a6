/**
 * `/delivery` adapter (unit `listing`): one record per menu item of a food-delivery store.
 *
 * @example
 *   const [step] = adapter.plan({ query: 'https://www.doordash.com/store/joes-pizza-24687/', params: {} });
 *   adapter.parse(step, response, ctx).records; // [{ item_name, price, currency, category, ... }]
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { readStoreLink } from '../_doordash/links.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import type { MenuItemRecord } from './record.ts';
import { checkByResult } from '../_kit/check.ts';

export const adapter: WebAdapter<Record<string, unknown>, MenuItemRecord> = {
  kind: 'web',
  endpoint: '/delivery',
  checkQuery: checkByResult(readStoreLink),
  plan,
  parse,
};
