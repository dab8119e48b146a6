/**
 * A small pool of worker threads for CPU-heavy jobs that would stall the API's event loop (issue 15:
 * a 10k-row parquet export blocked it for 620-790 ms). A job module exports a default
 * `(data, port) => Promise<result>`; the pool starts up to `size` threads on demand, queues jobs
 * beyond that, and hands each job a MessagePort for a conversation with the caller (streamed input).
 * Idle threads do not keep the process alive; `close()` ends them.
 *
 * The threads run TypeScript through tsx like the main process (bin/run-ts.js registers it for the
 * main thread only, so each thread registers it first); a built `.js` job module loads directly.
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
(async () => {
  if (workerData.ts) (await import('tsx/esm/api')).register();
  const job = (await import(workerData.module)).default;
  parentPort.on('message', async ({ id, data, port }) => {
    try { parentPort.postMessage({ id, ok: true, value: await job(data, port) }); }
    catch (e) { parentPort.postMessage({ id, ok: false, error: { message: String(e && e.message || e), name: e && e.name, code: e && e.code } }); }
    finally { if (port) port.close(); }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => { throw e; });
`;

interface Pending { resolve: (v: any) => void; reject: (e: Error) => void }
interface Slot { worker: Worker; busy: boolean; ready: Promise<void>; current?: number; dead?: boolean }

export class ThreadPool {
  private slots: Slot[] = [];
  private waiting: (() => void)[] = [];
  private jobs = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly module: URL, private readonly size: number) {}

  /** Runs one job on a free thread (starting one if fewer than `size` run); rejects with the job's error. */
  async run<T>(data: unknown, port?: MessagePort): Promise<T> {
    const slot = await this.acquire();
    try {
      return await new Promise<T>((resolve, reject) => {
        const id = this.nextId++;
        this.jobs.set(id, { resolve, reject });
        slot.current = id;
        slot.worker.ref();
        slot.worker.postMessage({ id, data, port }, port ? [port] : []);
      });
    } finally {
      slot.worker.unref();
      slot.busy = false;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new Error('thread pool closed');
      const free = this.slots.find((s) => !s.busy);
      if (free) { free.busy = true; await free.ready; return free; }
      if (this.slots.length < this.size) {
        const s = this.start();
        s.busy = true;
        await s.ready;
        return s;
      }
      await new Promise<void>((r) => this.waiting.push(r));
    }
  }

  private start(): Slot {
    const worker = new Worker(BOOT, { eval: true, workerData: { module: this.module.href, ts: this.module.pathname.endsWith('.ts') } });
    let ready!: () => void;
    let failed!: (e: Error) => void;
    const slot: Slot = { worker, busy: false, ready: new Promise<void>((res, rej) => { ready = res; failed = rej; }) };
    worker.on('message', (m: { ready?: boolean; id: number; ok: boolean; value?: unknown; error?: { message: string; name?: string; code?: string } }) => {
      if (m.ready) return ready();
      const p = this.jobs.get(m.id);
      if (!p) return;
      this.jobs.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(Object.assign(new Error(m.error!.message), { name: m.error!.name ?? 'Error', code: m.error!.code }));
    });
    // A thread that dies takes its jobs with it: they fail, and the slot is replaced on next use.
    const died = (e: Error) => {
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      failed(e);
      const p = slot.current === undefined ? undefined : this.jobs.get(slot.current);
      if (p) { this.jobs.delete(slot.current!); p.reject(e); }
      this.waiting.shift()?.();
    };
    worker.on('error', died);
    worker.on('exit', (code) => { if (!this.closed) died(new Error(`worker thread exited with code ${code}`)); });
    // Referenced while starting and while a job runs (run() unrefs it after), so a caller waiting on
    // it keeps the process alive, and an idle thread does not.
    this.slots.push(slot);
    return slot;
  }
}
