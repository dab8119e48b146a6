/**
 * `/engine-search-careers` steps: result pages of the jobs vertical (`ibp=htl;jobs`), one after
 * another while pages hold jobs, up to `pagesPerQuery`. Since 2025 the vertical is rendered by
 * script (a plain fetch gets an empty shell), so steps ask for a browser.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { verticalUrl } from '../_search/serp.ts';
import type { CareersParams } from './record.ts';

/** @example jobsPageStep('python developer', 1, {}).url // '...q=python%20developer&ibp=htl%3Bjobs&hl=en&start=10' */
export function jobsPageStep(query: string, page: number, p: CareersParams): Step {
  return { kind: 'jobs-page', url: verticalUrl(query, 'jobs', page, { language: p.language, region: p.region }), expect: 'html', browser: true, state: { page } };
}

/** @example plan({ query: 'python developer', params: {} })[0].kind // 'jobs-page' */
export function plan(ctx: QueryContext<CareersParams>): Step[] {
  const q = ctx.query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty');
  return [jobsPageStep(q, 0, ctx.params ?? {})];
}
