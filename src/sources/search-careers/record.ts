/**
 * Records of `/engine-search-careers` (unit `job`). Field names follow the parsed reference in
 * fixtures/google-jobs (title, company, location, posted_date, schedule_type, salary_range,
 * description, qualifications, apply links, job_id), snake_case, plus `posted_timestamp`.
 */
import type { VerticalParams } from '../_search/serp.ts';

export type CareersParams = Omit<VerticalParams, 'uule'>;

export interface ApplyLink {
  title: string | null;
  link: string;
}

export interface JobRecord {
  query: string;
  title: string;
  company: string | null;
  location: string | null;
  /** The board the listing came from ("LinkedIn"). */
  via: string | null;
  /** As printed ("2 days ago"). */
  posted_date: string | null;
  /** Unix s: from structured data, or the relative date counted back from the response's Date header. */
  posted_timestamp: number | null;
  schedule_type: string | null;
  salary_range: string | null;
  description: string | null;
  qualifications: string[];
  apply_links: ApplyLink[];
  application_url: string | null;
  job_id: string | null;
}
