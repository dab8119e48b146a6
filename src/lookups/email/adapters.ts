/**
 * `/email-validator` and `/emails-finder` as local adapters. Settings (resolver, SMTP port, timeouts,
 * limits) come from `LookupContext.settings`; see settings.ts.
 */
import type { LocalAdapter, LookupContext, QueryContext } from '../../sources/_kit/adapter.ts';
import { SourceError } from '../../sources/_kit/errors.ts';
import { parseFinderQuery, findWith, type FinderRecord } from './finder.ts';
import { preloadLists } from './lists.ts';
import { checkFinderQuery, checkValidatorQuery } from './check.ts';
import { isBilledVerdict, validateWith, type EmailRecord } from './validate.ts';
import { verifierFor } from './verifier.ts';

/**
 * @example
 *   const [rec] = await emailValidatorAdapter.lookup({ query: 'jane@example.com', params: {} }, { settings: { smtpPort: 2525 } });
 *   rec.status // 'RECEIVING'
 */
export const emailValidatorAdapter: LocalAdapter<Record<string, unknown>, EmailRecord> = {
  kind: 'local',
  endpoint: '/email-validator',
  checkQuery: checkValidatorQuery,
  async lookup(ctx: QueryContext<Record<string, unknown>>, lookup: LookupContext): Promise<EmailRecord[]> {
    return [await validateWith(verifierFor(lookup.settings), ctx.query, { signal: lookup.signal })];
  },
  units: (records) => (records as { status: string; status_details: string }[]).filter(isBilledVerdict).length,
  async warmUp(): Promise<void> {
    preloadLists();
  },
};

/**
 * @example
 *   const [rec] = await emailsFinderAdapter.lookup({ query: 'Jane Doe example.com', params: {} }, { settings: {} });
 *   rec.email // 'jane.doe@example.com' when the server accepts it
 */
export const emailsFinderAdapter: LocalAdapter<Record<string, unknown>, FinderRecord> = {
  kind: 'local',
  endpoint: '/emails-finder',
  checkQuery: checkFinderQuery,
  async lookup(ctx: QueryContext<Record<string, unknown>>, lookup: LookupContext): Promise<FinderRecord[]> {
    // checkQuery refuses these at submit time; a query that slips past is not retried.
    const q = parseFinderQuery(ctx.query);
    if (!q.ok) throw new SourceError('invalid_query', q.message);
    return [await findWith(verifierFor(lookup.settings), ctx.query, { signal: lookup.signal })];
  },
  units: (records) => (records as { status: string; status_details: string }[]).filter(isBilledVerdict).length,
  async warmUp(): Promise<void> {
    preloadLists();
  },
};
