import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropWithRetry } from './testing.ts';

test('a scratch schema\'s drop chosen as a deadlock victim is tried again; other errors are not', async () => {
  const sent: string[] = [];
  let fails = 2;
  await dropWithRetry(async (sql) => {
    sent.push(sql);
    if (fails-- > 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
  }, 'trawl_test_x');
  assert.deepEqual(sent, Array(3).fill('DROP SCHEMA IF EXISTS trawl_test_x CASCADE'));
  let calls = 0;
  await assert.rejects(dropWithRetry(async () => { calls++; throw Object.assign(new Error('permission denied'), { code: '42501' }); }, 's'), /permission denied/);
  assert.equal(calls, 1);
  calls = 0;
  await assert.rejects(dropWithRetry(async () => { calls++; throw Object.assign(new Error('deadlock detected'), { code: '40P01' }); }, 's'), /deadlock/);
  assert.equal(calls, 5, 'at most five tries');
});
