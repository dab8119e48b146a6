import { test } from 'node:test';
import assert from 'node:assert/strict';
import { yieldEvery } from './yield.ts';

/** A body produced without ever waiting for I/O, like a stored result read from SQLite. */
async function* body(parts: number, size: number): AsyncGenerator<string> {
  for (let i = 0; i < parts; i++) yield 'x'.repeat(size);
}

/** How many parts were consumed before a callback queued at the start (setImmediate) ran. */
async function partsBeforeTurn(src: AsyncIterable<string>): Promise<{ total: number; atTurn: number | null }> {
  let total = 0;
  let atTurn: number | null = null;
  setImmediate(() => { atTurn = total; });
  for await (const s of src) total += s.length ? 1 : 0;
  return { total, atTurn };
}

test('a long body gives the event loop a turn every everyChars characters', async () => {
  const r = await partsBeforeTurn(yieldEvery(body(100, 10_000), 50_000));
  assert.equal(r.total, 100);
  assert.equal(r.atTurn, 5, 'the queued callback ran after the first 50,000 characters');
});

test('everyChars 0 passes the body through without yielding (the switch the bench compares against)', async () => {
  const r = await partsBeforeTurn(yieldEvery(body(100, 10_000), 0));
  assert.equal(r.total, 100);
  assert.equal(r.atTurn, null, 'without yields the whole body is produced in one macrotask');
});
