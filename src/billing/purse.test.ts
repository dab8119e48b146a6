import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Purses } from './purse.ts';

const price = (available: () => number, extra = 0) => ({ unitPriceMicros: 3_000, extraMicros: extra, available: async () => available() });

test('queries of one account asking at once share what it can pay; a release gives it back', async () => {
  const purses = new Purses();
  const a = purses.open('acct', 'r:0', price(() => 50_000));
  const b = purses.open('acct', 'r:1', price(() => 50_000));
  const other = purses.open('else', 'q:0', price(() => 50_000));
  const [ta, tb, to] = await Promise.all([a.take({ records: 0 }, 10), b.take({ records: 0 }, 10), other.take({ records: 0 }, 10)]);
  assert.equal(ta + tb, 16, `50,000 pays 16 records of 3,000 between both (${ta} + ${tb})`);
  assert.equal(to, 10, 'another account is not touched');
  assert.equal(await b.room({ records: tb }), 0);
  purses.release('acct', 'r:0');
  assert.equal(await b.room({ records: tb }), 16 - tb);
});

test("fit counts each record's units and its enrichments; free records always fit", async () => {
  const purses = new Purses();
  const p = purses.open('acct', 'r:0', price(() => 20_000, 1_000));
  // 4 units + 1 enrichment = 13,000; then 2 units + 1 = 7,000 (20,000 reached); the third does not fit.
  assert.equal(await p.fit([4, 2, 1], (u) => u), 2);
  const free = purses.open('acct', 'r:1', { unitPriceMicros: 0, extraMicros: 0, available: async () => 0 });
  assert.equal(await free.fit([1, 2, 3], () => 1), 3);
  assert.equal(await free.room({ records: 5 }), Infinity);
  const broke = purses.open('acct', 'r:2', price(() => 0));
  assert.equal(await broke.take({ records: 0 }, 5), 0);
});

test('a fit within what the last ask granted makes no read; more than that, or after a refusal, reads again (issue 37)', async () => {
  const purses = new Purses();
  let balance = 50_000;
  let reads = 0;
  const p = purses.open('acct', 'r:0', price(() => { reads++; return balance; }));
  assert.equal(await p.take({ records: 0 }, 5), 5, '5 x 3,000 granted');
  // A merge that keeps 4 of the 5 records: within the grant, answered without a read.
  balance = 0;
  assert.equal(await p.fit([1, 1, 1, 1], () => 1), 4);
  assert.equal(reads, 1);
  // The holding is now 4 records: a 5th is beyond it, so the account is read (and cannot pay now).
  assert.equal(await p.fit([1, 1, 1, 1, 1], () => 1), 0);
  assert.equal(reads, 2);
  // After that refusal nothing is granted: even one record reads again.
  balance = 3_000;
  assert.equal(await p.fit([1], () => 1), 1);
  assert.equal(reads, 3);
  // An ask that found the holding beyond the balance grants nothing either.
  const q = purses.open('acct2', 'r:1', price(() => { reads++; return 1_000; }));
  assert.equal(await q.room({ records: 2 }), 0);
  assert.equal(await q.fit([1], () => 1), 0, '1,000 pays no record of 3,000');
  assert.equal(reads, 5);
});

test("a query's first ask answers from what its claim read, counting what was released since the claim began (issue 37)", async () => {
  const purses = new Purses();
  let reads = 0;
  const read = () => { reads++; return 50_000; };
  const a = purses.open('acct', 'r:0', price(read));
  assert.equal(await a.take({ records: 0 }, 10), 10, '30,000 held');
  // The claim of r:1 reads 50,000 (a's bill not in it yet), then a's bill is written and released.
  const claimed = { micros: 50_000, readFrom: performance.now() };
  purses.release('acct', 'r:0');
  const b = purses.open('acct', 'r:1', { ...price(read), claimed });
  assert.equal(await b.room({ records: 0 }), 6, "a's 30,000 still counted: 20,000 left pays 6 records");
  assert.equal(reads, 1, 'the first ask read nothing');
  assert.equal(await b.room({ records: 0 }), 16, 'the next ask reads (a fresh figure, with a released)');
  assert.equal(reads, 2);
  // A claim that began before a release no longer kept: the first ask reads instead.
  const c = purses.open('acct', 'r:2', price(read));
  await c.take({ records: 0 }, 1);
  const old = { micros: 50_000, readFrom: performance.now() };
  purses.release('acct', 'r:2');
  await new Promise((r) => setTimeout(r, 1_100));
  purses.release('acct', 'r:1');
  const d = purses.open('acct', 'r:3', { ...price(read), claimed: old });
  assert.equal(await d.room({ records: 0 }), 16);
  assert.equal(reads, 4, 'read, since r:2 was forgotten');
});

test('asks of one account while a read of it is in flight wait for that read, counting what was released since it began (issue 37)', async () => {
  const purses = new Purses();
  // Each read waits to be answered, in the order they were sent.
  const pending: ((v: number) => void)[] = [];
  let reads = 0;
  const answer = (v: number) => pending.shift()!(v);
  const read = () => { reads++; return new Promise<number>((r) => { pending.push(r); }); };
  const priced = { unitPriceMicros: 3_000, extraMicros: 0, available: read };
  const a = purses.open('acct', 'r:0', priced);
  const b = purses.open('acct', 'r:1', priced);
  const other = purses.open('else', 'q:0', priced);
  // b holds 10 records (30,000) when a's read begins; its bill is written while the read is in flight.
  const held = b.take({ records: 0 }, 10);
  answer(100_000);
  assert.equal(await held, 10);
  const first = a.room({ records: 0 });
  purses.release('acct', 'r:1');
  const c = purses.open('acct', 'r:2', priced);
  const second = c.room({ records: 0 });
  assert.equal(reads, 2, 'c waits for the read a sent');
  const elsewhere = other.room({ records: 0 });
  assert.equal(reads, 3, 'another account reads its own');
  answer(100_000);
  answer(60_000);
  // 100,000 read, which may not hold b's bill: b's 30,000 still counted for both.
  assert.deepEqual(await Promise.all([first, second]), [23, 23]);
  assert.equal(await elsewhere, 20);
  const after = c.room({ records: 0 });
  assert.equal(reads, 4, 'once answered, the next ask reads again');
  answer(100_000);
  assert.equal(await after, 33, 'a fresh read: b released');
});
