/**
 * A local lookup run on the lookup thread (issue 15): the adapter is loaded here, so its data (the
 * geocoder's 193k places and US polygons: 0.8-2.9 s of synchronous loading; the e-mail lists:
 * 0.3-0.4 s) loads without stalling the API. The caller's side is ./threaded.ts.
 */
import type { LocalAdapter } from '../sources/_kit/adapter.ts';

export interface LookupJob {
  /** The adapter's module and export name. */
  module: string;
  name: string;
  query: string;
  params: Record<string, unknown>;
  settings: Record<string, unknown>;
}

/** A plain function over shipped data (the business query's place names), called with one argument. */
export interface CallJob {
  module: string;
  name: string;
  call: unknown;
}

export default async function lookupJob(job: LookupJob | CallJob): Promise<unknown> {
  const exported = (await import(job.module))[job.name];
  if ('call' in job) return (exported as (arg: unknown) => unknown)(job.call);
  const adapter = exported as LocalAdapter;
  return adapter.lookup({ query: job.query, params: job.params }, { settings: job.settings });
}
