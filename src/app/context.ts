/**
 * What the use cases need, built once by `startService` (or by a test with a fake clock and a
 * test-only adapter). Nothing in app/ knows HTTP or a storage engine.
 */
import type { EventEmitter } from 'node:events';
import type { Settings } from '../config/settings.ts';
import type { QueryResult, Store, RequestRow } from '../store/contract.ts';
import type { WorkQueue } from '../engine/queue.ts';
import type { RateLimiter } from '../billing/rate-limit.ts';
import type { AdapterRegistry } from '../sources/_kit/adapter.ts';
import type { Logger } from '../ops/log.ts';

/** Events of the process: `finished` (RequestRow) when a request ends here. */
export interface AppEvents extends EventEmitter {
  /** `results`: the request's results as stored, when the worker that ended it held them all
   *  (RunnerEvents.onRequestFinished); else read them from the store. `deliveries`: false when the
   *  end made no webhook delivery (FanIn.deliveries), else unknown or some. */
  on(e: 'finished', l: (r: RequestRow, results?: QueryResult[], deliveries?: boolean) => void): this;
  emit(e: 'finished', r: RequestRow, results?: QueryResult[], deliveries?: boolean): boolean;
}

export interface AppContext {
  settings: Settings;
  store: Store;
  queue: WorkQueue;
  rateLimiter: RateLimiter;
  adapters: AdapterRegistry;
  now: () => number;
  log: Logger;
  events: AppEvents;
  /** Writes the work items a large request was accepted without, after its answer (./item-writer.ts);
   *  absent (tests' own contexts), submit writes them before it answers. */
  itemWriter?: { kick(): void };
  /** Checks a user-given URL (webhooks) against the SSRF guard; throws with a reason. */
  checkTargetUrl(url: string): Promise<void>;
}
