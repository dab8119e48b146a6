/**
 * What a running query may still spend (issue 28): the store bills a finished query whole while its
 * account can pay (./credit.ts), so without a cap on the query itself one 10,000-record query took a
 * 0.05 balance to -19.95. A purse is asked, before each step and for each step's records, how many
 * more records the query may keep; the runner stops the query there, keeps (and bills) what it has,
 * and notes CREDIT_NOTE.
 *
 * What the account can pay is read fresh from the store at each ask (balance plus credit limit; a fit
 * of records that cost no more than the last ask granted this query is answered without one, a
 * query's first ask from what its claim read, `PursePrice.claimed`, and asks of one account while a
 * read of it is in flight from that read: issue 37), less
 * what the other queries of the same account running in this process hold but have not been billed
 * for yet (`Purses`). A record is priced as the request's unit price times its units plus one unit of
 * each enrichment. The margin left: queries of the same account running in other worker processes at
 * the same moment each see the balance before the others' bills (at most what each may hold), and an
 * empty query's one unit (decision 20).
 *
 * @example
 *   const purses = new Purses();
 *   const purse = purses.open('acct', 'req:0', { unitPriceMicros: 3000, extraMicros: 0, available: async () => 50_000 });
 *   await purse.room({ records: 0, units: 0 }); // 16
 */
import type { Micros } from './money.ts';

export const CREDIT_LIMIT = 'credit_limit';

/** The note a query that stopped at its account's credit limit ends with (kept beside its records). */
export const CREDIT_NOTE = `${CREDIT_LIMIT}: stopped at the account's credit limit; the records before it are kept and billed (top up, then resume with next_page_cursor where the endpoint has one)`;

/** What a query holds so far: records, and units when they differ from records (streamed). */
export interface Held { records: number; units?: number }

export interface PursePrice {
  /** The request's price per unit. */
  unitPriceMicros: Micros;
  /** Enrichment prices billed once per record (place). */
  extraMicros: Micros;
  /** Balance plus credit limit now (0 or less: nothing more may be spent). */
  available(): Promise<Micros>;
  /** The same as a read that began at `readFrom` (performance.now()) found it: what the query's claim
   *  read (src/store/requests/contract.ts, WorkItem.payable). The first ask answers from it, unless a
   *  holding released since then is forgotten already (then it reads). */
  claimed?: { micros: Micros; readFrom: number };
}

export interface Purse {
  /** More records the query may keep beyond `held` (Infinity when records are free). */
  room(held: Held): Promise<number>;
  /** Up to `wanted` more records, held against the account at once (so its other queries asking at
   *  the same moment see them): how many the query may keep. */
  take(held: Held, wanted: number): Promise<number>;
  /** How many leading `records` fit in what the account can pay, each costing `unitsOf` units (no
   *  read when they cost no more than the last ask granted: a merge of the steps' records). */
  fit<T>(records: T[], unitsOf: (r: T) => number): Promise<number>;
}

/** The cost of holding `held` at `p`. */
const costOf = (p: PursePrice, held: Held): number => p.unitPriceMicros * (held.units ?? held.records) + p.extraMicros * held.records;

/** What one query holds; `releasedAt`: when its bill was written (or it ended), if so. */
interface Holding { id: string; micros: Micros; releasedAt: number | null }

/** How long a released holding is kept at least: a claim's read (PursePrice.claimed) that began up to
 *  this long before its query's first ask still finds the holdings released since it began. */
const KEEP_RELEASED_MS = 1_000;

/** One account's holdings in this process: its running queries', and the released ones still kept,
 *  in the order they were released (performance.now() only grows). A read walks the running ones and
 *  the released ones since it began, from the newest; a release drops the due ones from the oldest:
 *  both walked every holding released in the last second (285 at 285 queries/s: issue 37). */
class Holdings {
  readonly running = new Map<string, Holding>();
  readonly released: Holding[] = [];
  /** Index of the oldest release still kept in `released`. */
  head = 0;
}

/** The purses of one worker process: what each running query of an account holds, unbilled. */
export class Purses {
  private readonly held = new Map<string, Holdings>();
  /** Reads and releases are ordered by performance.now(): a read that began before a query's bill was
   *  written may not see the bill in the balance it reads (PostgreSQL reads are asynchronous), so it
   *  still counts the holding (a release at the very moment a read began counts too). In flight: each
   *  read's start, with how many began then. */
  private readonly reading = new Map<number, number>();
  /** Per account, the latest release of a holding no longer kept: a claim's read that began before it
   *  cannot tell whether it saw that bill, so the ask reads instead. */
  private readonly forgotten = new Map<string, number>();
  /** Per account, the read of what it can pay now in flight, and when it began: an ask meanwhile waits
   *  for it rather than sending its own (issue 37: on PostgreSQL each is a round trip, one a query of
   *  the service bench) and takes its start as its own, as a first ask takes its claim's read (the
   *  holdings released since are counted). Every purse of one account reads the same account. */
  private readonly inFlight = new Map<string, { began: number; micros: Promise<Micros> }>();

  open(accountId: string, itemId: string, p: PursePrice): Purse {
    let mine = this.held.get(accountId);
    if (!mine) this.held.set(accountId, (mine = new Holdings()));
    const own: Holding = { id: itemId, micros: 0, releasedAt: null };
    mine.running.set(itemId, own);
    const perRecord = p.unitPriceMicros + p.extraMicros;
    const hold = (micros: Micros) => { own.micros = micros; };
    // What the last read found the account could pay for this query's holding (-1: it could not pay
    // all it holds). Records that cost no more fit without another read: the others of this process
    // saw that holding since, and holding less is always within it (issue 37: a merged map search's
    // fit after the step's take was a third read of the account a query).
    let granted: Micros = -1;
    const grant = (micros: Micros, left: Micros) => { hold(micros); granted = micros <= left ? micros : -1; };
    // The balance, less what the others hold. What they hold is read in the same turn as this query's
    // own holding is set (no await between): queries of one account that ask at once each see the
    // others' holdings.
    let claimed = p.claimed;
    const read = async <T>(decide: (left: Micros) => T): Promise<T> => {
      let began: number;
      let available: Micros;
      if (claimed && claimed.readFrom > (this.forgotten.get(accountId) ?? -Infinity)) {
        // The claim's read, as if it had been made now: every holding released since it began is still kept.
        ({ readFrom: began, micros: available } = claimed);
      } else {
        const shared = this.inFlight.get(accountId) ?? this.readNow(accountId, p);
        began = shared.began;
        this.reading.set(began, (this.reading.get(began) ?? 0) + 1);
        try {
          available = await shared.micros;
        } finally {
          const n = this.reading.get(began)! - 1;
          if (n) this.reading.set(began, n); else this.reading.delete(began);
        }
      }
      claimed = undefined;
      let others = 0;
      for (const h of mine.running.values()) if (h !== own) others += h.micros;
      for (let i = mine.released.length - 1; i >= mine.head && mine.released[i].releasedAt! >= began; i--) {
        if (mine.released[i].id !== itemId) others += mine.released[i].micros;
      }
      this.forget(accountId);
      return decide(available - others);
    };
    /** How many leading records fit in a fresh read's budget. */
    const fitRead = <T>(records: T[], unitsOf: (r: T) => number): Promise<number> =>
      read((budget) => {
        let n = 0;
        let spent = 0;
        for (const r of records) {
          const cost = p.unitPriceMicros * unitsOf(r) + p.extraMicros;
          if (spent + cost > budget) break;
          spent += cost;
          n++;
        }
        grant(spent, budget);
        return n;
      });
    return {
      room: (held) => read((left) => {
        const spent = costOf(p, held);
        grant(spent, left);
        return perRecord <= 0 ? Infinity : Math.max(0, Math.floor((left - spent) / perRecord));
      }),
      take: (held, wanted) => read((left) => {
        const spent = costOf(p, held);
        const n = perRecord <= 0 ? wanted : Math.max(0, Math.min(wanted, Math.floor((left - spent) / perRecord)));
        grant(spent + n * perRecord, left);
        return n;
      }),
      fit: async (records, unitsOf) => {
        if (perRecord <= 0) return records.length;
        if (granted >= 0) {
          let all = 0;
          for (const r of records) all += p.unitPriceMicros * unitsOf(r) + p.extraMicros;
          if (all <= granted) {
            grant(all, granted);
            return records.length;
          }
        }
        return fitRead(records, unitsOf);
      },
    };
  }

  /** A read of what the account can pay, begun now and shared until it answers (`inFlight`). */
  private readNow(accountId: string, p: PursePrice): { began: number; micros: Promise<Micros> } {
    const read = { began: performance.now(), micros: p.available() };
    this.inFlight.set(accountId, read);
    const done = () => { if (this.inFlight.get(accountId) === read) this.inFlight.delete(accountId); };
    read.micros.then(done, done);
    return read;
  }

  /** The query's bill is written (or it failed): reads that begin from now on see it in the balance. */
  release(accountId: string, itemId: string): void {
    const mine = this.held.get(accountId);
    const h = mine?.running.get(itemId);
    if (mine && h) {
      mine.running.delete(itemId);
      h.releasedAt = performance.now();
      mine.released.push(h);
    }
    this.forget(accountId);
  }

  /** Drops released holdings no read in flight can still need, once kept KEEP_RELEASED_MS. */
  private forget(accountId: string): void {
    const mine = this.held.get(accountId);
    if (!mine) return;
    let oldest = performance.now() - KEEP_RELEASED_MS;
    for (const t of this.reading.keys()) oldest = Math.min(oldest, t);
    const { released } = mine;
    let i = mine.head;
    while (i < released.length && released[i].releasedAt! < oldest) i++;
    if (i > mine.head) {
      this.forgotten.set(accountId, Math.max(this.forgotten.get(accountId) ?? -Infinity, released[i - 1].releasedAt!));
      mine.head = i;
      // Compacted once the dropped part is most of the array: amortised O(1) a release.
      if (i === released.length) { released.length = 0; mine.head = 0; } else if (i > 64 && i * 2 > released.length) { released.splice(0, i); mine.head = 0; }
    }
    if (!mine.running.size && mine.head === released.length) this.held.delete(accountId);
  }
}
