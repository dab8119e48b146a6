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

export default async function lookupJob(job: LookupJob): Promise<unknown[]> {
  const adapter = (await import(job.module))[job.name] as LocalAdapter;
  return adapter.lookup({ query: job.query, params: job.params }, { settings: job.settings });
}
