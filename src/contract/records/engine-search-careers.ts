/**
 * `/engine-search-careers` records (decision 24): one job of the search engine's jobs results.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '../dsl.ts';
import { nint, nstr, record, str, strs } from './fields.ts';

export const applyLink = Type.Object({ title: nstr('Link label, e.g. "Apply on LinkedIn".'), link: str('Application page URL.') }, { additionalProperties: true });

export const jobRecord = record('EngineSearchCareerRecord', 'A job from the search engine\'s jobs results.', {
  query: str('The query item as given.'),
  title: str('Job title.'),
  company: nstr('Hiring company.'),
  location: nstr('Location as printed.'),
  via: nstr('The job board the listing came from, e.g. "LinkedIn".'),
  posted_date: nstr('Posting date as printed, e.g. "2 days ago".'),
  posted_timestamp: nint('Posting time, Unix seconds: from structured data, or the printed relative date counted back from the response time.'),
  schedule_type: nstr('Schedule, e.g. "Full-time".'),
  salary_range: nstr('Salary as printed.'),
  description: nstr('Job description text.'),
  qualifications: strs('Qualification lines.'),
  apply_links: Type.Array(applyLink, { description: 'Where to apply, in page order.' }),
  application_url: nstr('The first application link.'),
  job_id: nstr("The engine's id of the listing."),
});

export type JobRecord = Static<typeof jobRecord>;
export type ApplyLink = Static<typeof applyLink>;
