/**
 * A local adapter whose lookups run on the lookup thread (issue 15): its first call loads shipped
 * data (seconds for the geocoder) there, not on the API's event loop. checkQuery stays here (it runs
 * at submit time and loads no data). LOOKUP_THREADS threads (default 1; 0 = on the calling thread,
 * as before), each running up to 64 lookups at once (e-mail probes mostly wait on the network).
 * Errors come back with their type: a SourceError is rebuilt, so retries work as on this thread.
 * The abort signal stays here: a cancelled query's lookup runs to its end there (lookups are short;
 * probes have their own timeouts), its result dropped.
 *
 * @example
 *   adapter: async () => onLookupThread({ kind: 'local', endpoint: '/reverse-geocoding', checkQuery: checkCoordinates }, new URL('./adapter.ts', import.meta.url), 'reverseGeocodingAdapter'),
 */
import type { LocalAdapter } from '../sources/_kit/adapter.ts';
import { sourceErrorFrom } from '../sources/_kit/errors.ts';
import { ThreadPool } from '../ops/thread-pool.ts';
import type { CallJob, LookupJob } from './lookup-job.ts';

const JOBS_PER_THREAD = 64;
let pool: ThreadPool | null = null;

/** LOOKUP_THREADS, read once. */
export function lookupThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.LOOKUP_THREADS ?? 1);
  return Number.isInteger(n) && n >= 0 ? n : 1;
}

function lookupPool(): ThreadPool {
  return (pool ??= new ThreadPool(new URL('./lookup-job.ts', import.meta.url), lookupThreads(), JOBS_PER_THREAD));
}

/** What of an adapter stays on this thread: its identity and its submit-time check. */
export type LookupFront = Pick<LocalAdapter, 'kind' | 'endpoint' | 'checkQuery'>;

/**
 * The adapter exported as `name` by `module`, with its lookups on the lookup thread: here only
 * `front` (endpoint and checkQuery, from modules that load no data), so the adapter's own module is
 * never imported on this thread. With LOOKUP_THREADS=0, the adapter itself.
 */
export async function onLookupThread(front: LookupFront, module: URL, name: string, threads = lookupThreads()): Promise<LocalAdapter> {
  if (!(threads > 0)) return (await import(module.href))[name] as LocalAdapter;
  return {
    ...front,
    async lookup(ctx, lookup) {
      const job: LookupJob = { module: module.href, name, query: ctx.query, params: ctx.params, settings: lookup.settings };
      try {
        return await lookupPool().run<Record<string, unknown>[]>(job);
      } catch (e) {
        throw sourceErrorFrom(e);
      }
    },
  };
}

/**
 * `name(arg)` of `module` on the lookup thread, for a plain function whose first call loads shipped
 * data (the business query's gazetteer: about a second); with LOOKUP_THREADS=0, on this thread.
 * `arg` and the result cross by structured clone.
 */
export async function callOnLookupThread<A, R>(module: URL, name: string, arg: A, threads = lookupThreads()): Promise<R> {
  if (!(threads > 0)) return (await import(module.href))[name](arg) as R;
  const job: CallJob = { module: module.href, name, call: arg };
  return lookupPool().run<R>(job);
}
