/**
 * Fills the business database from scrapes (issue 13): the places of each completed item of a
 * place-finding endpoint are upserted, keyed by os_id, so a re-scrape updates rather than duplicates.
 * Owner: the account that asked, or the shared pool with BUSINESSES_SHARED (docs/businesses.md).
 *
 * Batched off the query's path (issue 37): a completion hands its places over and goes on; they are
 * written together, one transaction per owner and batch, CAPTURE_DELAY_MS after the first of them came
 * (sooner once CAPTURE_MAX_PLACES distinct places wait, so one batch stays a few milliseconds of the
 * API thread). A place found again before its batch is written is written once, as last found: a
 * re-scrape, a monitor or overlapping searches no longer pay one upsert per sighting. A crash loses
 * at most the batch not yet written; those places come in again on their next scrape.
 *
 * Bounded turns (issue 39): a big batch (an area query completes with 5,000-20,000 places) is
 * written CAPTURE_SLICE places at a time, one transaction and one event-loop turn each, so the API
 * answers between two slices (one upsert of 5,000 places held the API thread 1.7 s on SQLite,
 * docs/performance/areas.md). Taking a query's places yields every TAKE_SLICE too. A crash between
 * two slices leaves the slices written (each its own transaction; a place is keyed by its os_id, so
 * writing it again on its next scrape updates it, never doubles it) and loses the rest of the batch
 * as before. Batches are written one after another, in the order they were taken: a place found
 * again while an earlier batch is being written is written after it, as last found.
 *
 * @example
 *   const capture = new BusinessCapture(store, { shared: false, now: Date.now });
 *   await capture.add(item, records); // queued
 *   await capture.flush();            // written
 */
import type { Store, WorkItem } from '../store/contract.ts';
import { OPEN_DATA, type BusinessRecord } from '../store/businesses/contract.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { businessFromPlace, placeIdentity } from '../store/businesses/from-place.ts';
import type { Logger } from '../ops/log.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

type Rec = Record<string, unknown>;

/** Endpoints whose records are places (a map reviews element is a place with its reviews). */
export const PLACE_ENDPOINTS = new Set(['/maps/search', '/engine-places-by-domain', '/maps/reviews']);

/** How long the first place of a batch waits for others before the batch is written. */
export const CAPTURE_DELAY_MS = 100;
/** Distinct places that make a batch written at once (about 5-10 ms of upserts on SQLite). */
export const CAPTURE_MAX_PLACES = 200;
/** Places written in one transaction and one event-loop turn: about 0.1-0.35 ms each on SQLite
 *  (full map records, loaded box), so a slice stays within a few to 20 ms of the API thread. */
export const CAPTURE_SLICE = 50;
/** Places taken from a query's records between two turns (an identity each, and a read-back part's parse). */
export const TAKE_SLICE = 1_000;

interface Sighting { owner: string; place: Rec; source: string }

export class BusinessCapture {
  /** Places waiting, by owner and identity (a later sighting replaces an earlier one in place). */
  private pending = new Map<string, Sighting>();
  private since = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly delayMs: number;
  private readonly maxPlaces: number;
  private readonly slice: number;
  /** The batches being written, in order (never rejects: each flush's caller gets its own failure). */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store, private readonly o: { shared: boolean; now: () => number; delayMs?: number; maxPlaces?: number; slice?: number; log?: Logger }) {
    this.delayMs = o.delayMs ?? CAPTURE_DELAY_MS;
    this.maxPlaces = o.maxPlaces ?? CAPTURE_MAX_PLACES;
    this.slice = Math.max(1, o.slice ?? CAPTURE_SLICE);
  }

  /**
   * Takes the places of a completed item; writes the waiting batch when it is due. `records`: the
   * query's records as the runner held them; null when they were streamed to the store in chunks, and
   * then only those are read back (the runner never held them all at once). Returns the places taken.
   */
  async add(item: WorkItem, records: Rec[] | null): Promise<number> {
    if (!PLACE_ENDPOINTS.has(item.endpoint)) return 0;
    const owner = this.o.shared ? OPEN_DATA : item.accountId;
    let taken = 0;
    let seen = 0;
    const take = async (rs: Rec[]) => {
      for (const place of rs) {
        if (++seen % TAKE_SLICE === 0) await nextTurn();
        const id = place && typeof place === 'object' ? placeIdentity(place) : null;
        if (!id) continue;
        if (!this.pending.size) this.since = this.o.now();
        this.pending.set(`${owner}\n${id}`, { owner, place, source: item.endpoint });
        taken++;
      }
    };
    if (records) await take(records);
    else {
      // The store's parts are read without a turn between them (SQLite reads synchronously).
      for await (const part of this.store.readResults(item.requestId, item.queryIndex - 1)) {
        if (part.queryIndex !== item.queryIndex) break;
        await take(JSON.parse(part.recordsJson) as Rec[]);
        await nextTurn();
      }
    }
    if (this.pending.size >= this.maxPlaces || (this.pending.size && this.o.now() - this.since >= this.delayMs)) await this.flush();
    else if (this.pending.size && !this.timer) {
      // The last completions of a burst: nothing else will come to write them.
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch((e) => this.o.log?.warn({ err: (e as Error).message }, 'business capture failed'));
      }, this.delayMs);
      this.timer.unref();
    }
    return taken;
  }

  /** Writes every waiting place now (also on close); resolves once they and every batch taken
   *  before them are written. */
  async flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (!this.pending.size) return this.writing;
    const batch = this.pending;
    this.pending = new Map();
    const written = this.writing.then(() => this.write(batch));
    this.writing = written.catch(() => {});
    return written;
  }

  /** One batch, CAPTURE_SLICE places a transaction, a turn between two. */
  private async write(batch: Map<string, Sighting>): Promise<void> {
    const now = this.o.now();
    const db = businessStoreOf(this.store);
    let slice = new Map<string, BusinessRecord[]>();
    let n = 0;
    const writeSlice = async () => {
      for (const [owner, found] of slice) await db.upsertBusinesses(owner, found, now);
      slice = new Map();
      n = 0;
    };
    for (const s of batch.values()) {
      const b = businessFromPlace(s.place, s.source);
      if (!b) continue;
      const list = slice.get(s.owner);
      if (list) list.push(b);
      else slice.set(s.owner, [b]);
      if (++n < this.slice) continue;
      await writeSlice();
      await nextTurn();
    }
    if (n) await writeSlice();
  }
}
