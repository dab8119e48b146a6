/**
 * Records of `/engine-search-careers` (unit `job`): types of the declared record schema. Field
 * names follow the parsed reference in fixtures/google-jobs, snake_case, plus `posted_timestamp`.
 */
import type { VerticalParams } from '../_search/serp.ts';

export type CareersParams = Omit<VerticalParams, 'uule'>;
export type { ApplyLink, JobRecord } from '../../contract/records/engine-search-careers.ts';
