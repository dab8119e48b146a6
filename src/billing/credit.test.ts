import { test } from 'node:test';
import assert from 'node:assert/strict';
import { affordableUnits, canCharge } from './credit.ts';

const acct = (balanceMicros: number, creditLimitMicros = 0, pastDue = false) => ({ balanceMicros, creditLimitMicros, pastDue });

test('credit rule: an account may be charged while not past due and its balance plus credit is above zero', () => {
  assert.equal(canCharge(acct(1)), true);
  assert.equal(canCharge(acct(-4, 5)), true, 'inside the credit');
  assert.equal(canCharge(acct(-5, 5)), false, 'at the limit');
  assert.equal(canCharge(acct(0)), false);
  assert.equal(canCharge(acct(100, 0, true)), false, 'past due, whatever the balance');
});

test('credit rule: a charge that is not one item (the duplicate surcharge) is cut to what the account can still take', () => {
  assert.equal(affordableUnits(acct(3_000_000), 51, 1_000_000), 3);
  assert.equal(affordableUnits(acct(3_500_000, 1_000_000), 51, 1_000_000), 4, 'the credit counts; part of a unit does not');
  assert.equal(affordableUnits(acct(100_000_000), 51, 1_000_000), 51, 'all when the account can pay');
  assert.equal(affordableUnits(acct(-1, 0), 51, 1_000_000), 0, 'nothing past the limit');
  assert.equal(affordableUnits(acct(100_000_000, 0, true), 51, 1_000_000), 0, 'nothing when past due');
  assert.equal(affordableUnits(acct(1), 51, 0), 51, 'free units are all taken');
  assert.equal(affordableUnits(acct(1), 0, 1), 0);
});
