/**
 * Records of `/engine-search-careers` (unit `job`): types of the declared record schema. Field
 * names follow the parsed reference in fixtures/google-jobs, snake_case, plus `posted_timestamp`.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { searchCareers } from '../../contract/endpoints/maps.ts';

export type CareersParams = ParamsOf<typeof searchCareers>;
export type { ApplyLink, JobRecord } from '../../contract/records/engine-search-careers.ts';
