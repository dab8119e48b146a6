import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { elapsedThisTurn, yieldIfLong } from './turn-budget.ts';

const busy = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };

test('elapsedThisTurn counts from the first call of a turn and starts again after a check phase', async () => {
  await nextTurn();
  assert.equal(elapsedThisTurn(), 0);
  busy(5);
  assert.ok(elapsedThisTurn() >= 5);
  await nextTurn();
  await nextTurn();
  assert.equal(elapsedThisTurn(), 0, 'a new turn starts at 0');
});

test('yieldIfLong: nothing to wait for within the budget, a later turn once it is used', async () => {
  await nextTurn();
  assert.equal(yieldIfLong(50), undefined);
  busy(6);
  const wait = yieldIfLong(5);
  assert.ok(wait instanceof Promise);
  let timer = false;
  setTimeout(() => { timer = true; }, 0);
  busy(2);
  await wait;
  assert.ok(timer, 'timers ran before the yielded work went on');
  assert.equal(yieldIfLong(5), undefined, 'the budget is the new turn\'s');
});
