/**
 * The PostgreSQL work queue: several worker processes, no Redis. Workers claim straight from the
 * store like the embedded queue (the store's claims use `FOR UPDATE SKIP LOCKED`, so claimers never
 * block each other); what this adds is the wake-up across processes: `enqueue` sends a NOTIFY and every
 * started queue LISTENs, so an item submitted by an API process starts at once instead of at the next
 * poll. The poll stays as the safety net for retries whose backoff ended, expired leases and
 * notifications missed while a listener was reconnecting.
 *
 * @example
 *   const store = await openPostgresStore(url);
 *   const q = new PostgresQueue(store);
 *   q.start((item) => runner.run(item), { concurrency: 8, owner: 'w-1', leaseMs: 60_000 });
 *   await q.enqueue([{ id: 'req:0' }]); // wakes every worker process
 */
import pg from 'pg';
import type { WorkItem } from '../../store/contract.ts';
import type { PostgresStore } from '../../store/postgres/store.ts';
import type { ConsumeOptions, RunItem, WorkQueue } from '../queue.ts';
import { randomUUID } from 'node:crypto';
import { EmbeddedQueue } from './embedded.ts';

export interface PostgresQueueOptions {
  /** Safety-net poll. Default 1000 ms (wake-ups arrive by NOTIFY). */
  pollMs?: number;
  /** Longest wait between two attempts to re-open a lost LISTEN connection. Default 10000 ms. */
  maxReconnectMs?: number;
  now?: () => number;
}

export class PostgresQueue implements WorkQueue {
  readonly kind = 'postgres' as const;
  /** NOTIFY channels are per database, not per schema: the schema is part of the name. */
  readonly channel: string;
  private readonly local: EmbeddedQueue;
  private listener: pg.Client | null = null;
  private started = false;
  private reconnectMs = 100;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly maxReconnectMs: number;
  /** This queue's NOTIFY payload: its own announcements, already enqueued locally, come back to its
   *  LISTEN connection too and are not claimed for a second time (issue 37). */
  private readonly token = randomUUID();

  constructor(private readonly store: PostgresStore, o: PostgresQueueOptions = {}) {
    if (store.kind !== 'postgres') throw new Error('the postgres queue needs the PostgreSQL store');
    this.channel = `trawl_items${store.schema ? `_${store.schema}` : ''}`.slice(0, 63);
    this.local = new EmbeddedQueue(store, o.pollMs ?? 1_000, o.now ?? Date.now);
    this.maxReconnectMs = o.maxReconnectMs ?? 10_000;
  }

  /** Backend pid of the LISTEN connection (tests cut it to check the reconnect). */
  get listenerPid(): number | null {
    return (this.listener as { processID?: number } | null)?.processID ?? null;
  }

  async enqueue(items: { id: string; delayMs?: number }[]): Promise<void> {
    // Items leased to this process by their insert are running: nobody needs waking for them.
    items = this.local.unhanded(items);
    if (!items.length) return;
    await this.local.enqueue(items);
    const soonest = Math.min(...items.map((i) => i.delayMs ?? 0));
    if (soonest <= 0) await this.notify();
    // A retry's wake-up for the other processes; if this process dies first, their poll finds it.
    else setTimeout(() => void this.notify(), soonest).unref();
  }

  private async notify(): Promise<void> {
    try {
      await this.store.pool.query('SELECT pg_notify($1, $2)', [this.channel, this.token]);
    } catch (e) {
      process.emitWarning(`postgres queue: notify failed (workers will poll): ${(e as Error).message}`);
    }
  }

  start(run: RunItem, opts: ConsumeOptions): void {
    this.started = true;
    this.local.start(run, opts);
    void this.listen();
  }

  private async listen(): Promise<void> {
    if (!this.started) return;
    const c = new pg.Client(this.store.clientConfig());
    const lost = (e?: Error) => {
      if (this.listener !== c) return;
      this.listener = null;
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (e) process.emitWarning(`postgres queue: LISTEN connection lost: ${e.message}`);
      this.scheduleReconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (m) => { if (m.payload !== this.token) void this.local.enqueue([{ id: '' }]); });
    this.listener = c;
    try {
      await c.connect();
      await c.query(`LISTEN "${this.channel}"`);
      this.reconnectMs = 100;
      // Whatever was announced while the listener was away.
      void this.local.enqueue([{ id: '' }]);
    } catch (e) {
      lost(e as Error);
    }
    if (!this.started) await this.closeListener();
  }

  private scheduleReconnect(): void {
    if (!this.started || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.listen();
    }, this.reconnectMs);
    this.reconnectTimer.unref();
    this.reconnectMs = Math.min(this.maxReconnectMs, this.reconnectMs * 2);
  }

  private async closeListener(): Promise<void> {
    const c = this.listener;
    this.listener = null;
    if (c) await c.end().catch(() => {});
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await this.closeListener();
    await this.local.stop();
  }

  async depth(): Promise<number> {
    return this.local.depth();
  }

  async ping(): Promise<void> {
    await this.store.ping();
  }

  async close(): Promise<void> {
    await this.stop();
  }
}
