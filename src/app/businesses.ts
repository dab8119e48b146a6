/**
 * `POST /businesses` (interface 4.8). The body is validated against its declaration first, so a bad
 * filter is a 422 naming it; the searchable database itself has no data source in this deployment
 * yet, which is a 501 rather than an empty page that would pretend to be an answer.
 *
 * @example await searchBusinesses(ctx, account, { filters: { country_code: 'US' }, limit: 10 })
 */
import type { Account } from '../store/contract.ts';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { businessesBody } from '../contract/account.ts';
import { checkBody } from './body.ts';

export async function searchBusinesses(_ctx: AppContext, _account: Account, body: Record<string, unknown>): Promise<never> {
  checkBody(businessesBody, body);
  throw new AppError(501, 'POST /businesses has no business database in this deployment yet');
}
