/**
 * Phone lookups: `/directory-phones` and the maps enrichment `phones_enricher_service`.
 * @example
 *   import { phoneRecord, enrichPhone, directoryPhonesAdapter } from './lookups/phones/index.ts';
 *   phoneRecord('+1 800 234 5678').line_type // 'toll_free'
 */
export { phoneRecord } from './record.ts';
export type { PhoneRecord, PhoneOptions, PhoneStatus, LineType, CarrierType } from './record.ts';
export { enrichPhone } from './enrich.ts';
export type { PhoneEnrichment } from './enrich.ts';
export { directoryPhonesAdapter } from './adapter.ts';
export type { DirectoryPhonesParams } from './adapter.ts';
export { parsePhone, normaliseRegion } from './parse.ts';
export { preloadPrefixData } from './prefix-data.ts';
