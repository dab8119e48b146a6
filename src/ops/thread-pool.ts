/**
 * A small pool of worker threads for CPU-heavy jobs that would stall the API's event loop (issue 15:
 * a 10k-row parquet export blocked it for 620-790 ms, loading the geocoder's data 0.8-2.9 s). A job
 * module exports a default `(data, port) => Promise<result>`; the pool starts up to `size` threads
 * on demand, runs up to `jobsPerThread` jobs at once on each (more for jobs that mostly wait on the
 * network), queues the rest, and can hand a job a MessagePort for a conversation with its caller.
 * Idle threads do not keep the process alive; `close()` ends them.
 *
 * The threads run TypeScript through tsx like the main process (bin/run-ts.js registers it for the
 * main thread only, so each thread registers it first); a built `.js` job module loads directly.
 * A job's error comes back as an Error with the same message, name and own fields (`code`, `type`...).
 *
 * @example
 *   const pool = new ThreadPool(new URL('./job.ts', import.meta.url), 1);
 *   const { port1, port2 } = new MessageChannel();
 *   const result = await pool.run({ n: 1 }, port2);
 */
import { Worker, type MessagePort } from 'node:worker_threads';

/** The code each thread starts with: load the job module, then answer `{ id, data, port }` messages. */
const BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
const fields = (e) => {
  const out = {};
  if (e && typeof e === 'object') for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
};
(async () => {
  if (workerData.ts) (await import('tsx/esm/api')).register();
  const job = (await import(workerData.module)).default;
  parentPort.on('message', async ({ id, data, port }) => {
    try { parentPort.postMessage({ id, ok: true, value: await job(data, port) }); }
    catch (e) { parentPort.postMessage({ id, ok: false, error: { ...fields(e), message: String((e && e.message) || e), name: (e && e.name) || 'Error' } }); }
    finally { if (port) port.close(); }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => { throw e; });
`;

/** A job that ran past its `timeoutMs` (its thread was ended). */
export class ThreadTimeout extends Error {
  constructor(readonly ms: number) {
    super(`job ran past its ${ms} ms budget`);
    this.name = 'ThreadTimeout';
  }
}

interface Pending { resolve: (v: any) => void; reject: (e: Error) => void }
interface Slot { worker: Worker; running: Set<number>; ready: Promise<void>; dead?: boolean; die?: (e: Error) => void }

export class ThreadPool {
  private slots: Slot[] = [];
  private waiting: (() => void)[] = [];
  private jobs = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private starts = 0;

  constructor(private readonly module: URL, private readonly size: number, private readonly jobsPerThread = 1) {}

  /** Runs one job on a thread with room (starting one if fewer than `size` run); rejects with the job's error.
   *  With `timeoutMs`, a job still running then is ended with its thread (every job on it fails) and
   *  rejects with a ThreadTimeout: the budget of a check whose cost the caller cannot bound. */
  async run<T>(data: unknown, port?: MessagePort, o: { timeoutMs?: number } = {}): Promise<T> {
    const id = this.nextId++;
    const slot = await this.acquire(id);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<T>((resolve, reject) => {
        this.jobs.set(id, { resolve, reject });
        slot.worker.ref();
        slot.worker.postMessage({ id, data, port }, port ? [port] : []);
        if (o.timeoutMs !== undefined) {
          timer = setTimeout(() => {
            // Timers run before the loop reads the threads' messages: after a stall of this thread
            // (a loaded box, a long turn), the answer may be waiting already. Read it first.
            setImmediate(() => {
              if (!this.jobs.has(id)) return;
              // Out of the pool at once (its exit comes later): no job is given to it meanwhile.
              slot.die!(new ThreadTimeout(o.timeoutMs!));
              void slot.worker.terminate();
            });
          }, o.timeoutMs);
        }
      });
    } finally {
      clearTimeout(timer);
      this.jobs.delete(id);
      slot.running.delete(id);
      if (!slot.running.size) slot.worker.unref();
      this.waiting.shift()?.();
    }
  }

  /** Starts one thread now if none runs, without a job, and resolves once it is ready (its job
   *  module loaded): a pool whose job module loads data for seconds warms after the service listens,
   *  so a first request does not wait for it. Once ready, an idle thread does not keep the process
   *  alive; a thread that fails to start only fails the warming (the next run starts another). */
  warm(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const slot = this.slots[0] ?? this.start();
    // Referenced while it starts (as any thread), idle afterwards unless a job came meanwhile.
    return slot.ready.then(() => { if (!slot.running.size) slot.worker.unref(); }, () => {});
  }

  /** Threads started since the pool was made (a thread that died and was replaced counts twice). */
  get started(): number {
    return this.starts;
  }

  /** True when a job run now would start at once (a thread has room, or another may start). */
  hasRoom(): boolean {
    return !this.closed && (this.slots.length < this.size || this.slots.some((s) => s.running.size < this.jobsPerThread));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private async acquire(id: number): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new Error('thread pool closed');
      let slot = this.slots.filter((s) => s.running.size < this.jobsPerThread).sort((a, b) => a.running.size - b.running.size)[0];
      if ((!slot || slot.running.size > 0) && this.slots.length < this.size) slot = this.start();
      if (slot) {
        slot.running.add(id);
        try {
          await slot.ready;
        } catch (e) {
          slot.running.delete(id);
          throw e;
        }
        return slot;
      }
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  private start(): Slot {
    this.starts++;
    const worker = new Worker(BOOT, { eval: true, workerData: { module: this.module.href, ts: this.module.pathname.endsWith('.ts') } });
    let ready!: () => void;
    let failed!: (e: Error) => void;
    const slot: Slot = { worker, running: new Set(), ready: new Promise<void>((res, rej) => { ready = res; failed = rej; }) };
    slot.ready.catch(() => {});
    worker.on('message', (m: { ready?: boolean; id: number; ok: boolean; value?: unknown; error?: Record<string, unknown> & { message: string } }) => {
      if (m.ready) return ready();
      const p = this.jobs.get(m.id);
      if (!p) return;
      if (m.ok) p.resolve(m.value);
      else p.reject(Object.assign(new Error(m.error!.message), m.error));
    });
    // A thread that dies takes its running jobs with it: they fail, and a new thread starts on next use.
    const died = (e: Error) => {
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      failed(e);
      for (const id of slot.running) this.jobs.get(id)?.reject(e);
      this.waiting.shift()?.();
    };
    slot.die = died;
    worker.on('error', died);
    worker.on('exit', (code) => { if (!this.closed) died(new Error(`worker thread exited with code ${code}`)); });
    // Referenced while starting and while a job runs (run() unrefs it after the last), so a caller
    // waiting on it keeps the process alive, and an idle thread does not.
    this.slots.push(slot);
    return slot;
  }
}
