/**
 * Writes the work items a request was accepted without (issue 39). A request of more than
 * ITEMS_AT_ONCE queries (a task's expansion: up to 50,000) is stored with its queries waiting in
 * chunks of 1,000, so its answer does not wait for its items; this writes the waiting chunks, one
 * per event-loop turn, and announces each chunk's items to the queue.
 *
 * Every process runs one: `kick` after a submit, and a look at start and every LOOK_MS, which is how
 * the chunks a process left at a crash (`kill -9` between the answer and the last chunk) are written
 * by the next start or by another process. Chunks are written once whoever writes them (the store
 * deletes a chunk in the transaction that writes its items), so two writers only share the work.
 *
 * @example const w = new ItemWriter(ctx); w.start(); ...; w.kick(); ...; await w.stop();
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from './context.ts';

/** How often each process looks for chunks nobody is writing (a writer that died). */
export const LOOK_MS = 5_000;

/** Writes every waiting chunk, announcing each; resolves with the items written. */
export async function writeWaitingItems(ctx: Pick<AppContext, 'store' | 'queue'>, stopped: () => boolean = () => false): Promise<number> {
  let n = 0;
  while (!stopped()) {
    const w = await ctx.store.writeWaitingItems();
    if (!w) break;
    await ctx.queue.enqueue(Array.from({ length: w.to - w.from }, (_, i) => ({ id: `${w.requestId}:${w.from + i}` })));
    n += w.to - w.from;
    // A chunk is a few ms of work: the API and other work run between two.
    await nextTurn();
  }
  return n;
}

export class ItemWriter {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Pick<AppContext, 'store' | 'queue' | 'log'>) {}

  /** Writes what waits; a kick while writing makes the writer look once more when it is done. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    this.running = (async () => {
      do {
        this.again = false;
        // A failure (the store unreachable) leaves the chunks waiting for the next kick or look.
        await writeWaitingItems(this.ctx, () => this.stopped).catch((e) => this.ctx.log.warn({ err: (e as Error).message }, 'writing waiting work items failed'));
      } while (this.again && !this.stopped);
    })().finally(() => { this.running = null; });
  }

  /** Looks now (what an earlier process left) and every `everyMs`. */
  start(everyMs = LOOK_MS): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
  }

  /** Stops after the chunk being written; what still waits is written by the next start or another process. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
