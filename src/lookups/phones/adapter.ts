/**
 * `/directory-phones` as a local adapter: one record per query, computed from shipped data only.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { directoryPhones } from '../../contract/endpoints/lookups.ts';
import type { LocalAdapter, QueryContext } from '../../sources/_kit/adapter.ts';
import { phoneRecord, type PhoneRecord } from './record.ts';
import { preloadPrefixData } from './prefix-data.ts';
import { checkPhoneQuery } from './check.ts';

/** `region`: country for numbers written without '+'; `language`: of area and carrier names. */
export type DirectoryPhonesParams = ParamsOf<typeof directoryPhones>;

/**
 * @example
 *   const [rec] = await directoryPhonesAdapter.lookup({ query: '+44 20 1234 5678', params: {} }, { settings: {} });
 *   rec.line_type // 'fixed_line'
 */
export const directoryPhonesAdapter: LocalAdapter<DirectoryPhonesParams, PhoneRecord> = {
  kind: 'local',
  endpoint: '/directory-phones',
  checkQuery: checkPhoneQuery,
  async lookup(ctx: QueryContext<DirectoryPhonesParams>): Promise<PhoneRecord[]> {
    const params = ctx.params ?? {};
    return [phoneRecord(ctx.query, { region: params.region, language: params.language })];
  },
  async warmUp(): Promise<void> {
    preloadPrefixData();
    phoneRecord('+12127365000');
  },
};
