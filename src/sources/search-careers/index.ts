/**
 * `/engine-search-careers` adapter (unit `job`).
 *
 * @example
 *   const [step] = searchCareers.plan({ query: 'python developer san francisco', params: {} });
 *   const { records, next } = searchCareers.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { jobsOfHtml, parse } from './parse.ts';
import { plan } from './plan.ts';
import type { CareersParams, JobRecord } from './record.ts';

export const searchCareers: WebAdapter<CareersParams, JobRecord> = {
  kind: 'web',
  endpoint: '/engine-search-careers',
  unit: 'job',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give a search phrase such as "python developer berlin"'),
  plan,
  parse,
};

/**
 * Parses a saved jobs results page (for `trawl parse /engine-search-careers <file>`); relative
 * dates stay without a timestamp (a file has no response Date). Throws for anything else.
 * @example parseCapture(readFileSync('jobs.html', 'utf8'))[0].title
 */
export function parseCapture(text: string, query = ''): JobRecord[] {
  if (!/<(html|body|div|li|script)\b/i.test(text)) throw new Error('search-careers: expected an HTML results page of the jobs vertical');
  const jobs = jobsOfHtml(text, query, null);
  if (jobs === null) throw new Error('search-careers: the page holds no job cards, no schema.org JobPosting and no "no jobs" notice');
  return jobs;
}

export { jobsOfHtml };
export type { JobRecord, CareersParams };
