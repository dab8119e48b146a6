/**
 * `trawl parse /engine-search-careers <file>`: a saved response of this source → records.
 */
import { jobsOfHtml } from './parse.ts';
import type { JobRecord } from './record.ts';

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
