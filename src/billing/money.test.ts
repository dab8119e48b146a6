import { test } from 'node:test';
import assert from 'node:assert/strict';
import { currencyDigits, fixedMicros, fromMicros, parseMicros, roundedMicros, shownAmount, shownParts, toMicros } from './money.ts';

test('a thousand 0.001 charges sum to exactly 1 in micros, not to a float near it', () => {
  let micros = 0;
  let float = 0;
  for (let i = 0; i < 1_000; i++) { micros += toMicros(0.001); float += 0.001; }
  assert.equal(fromMicros(micros), 1);
  assert.notEqual(float, 1, 'the float sum drifts (why money is not kept in floats)');
});

test('100 - 0.112 (0.003 x 24 + 0.002 x 20) reads 99.888', () => {
  const balance = toMicros(100) - 24 * toMicros(0.003) - 20 * toMicros(0.002);
  assert.equal(JSON.stringify({ b: fromMicros(balance) }), '{"b":99.888}');
  assert.equal(JSON.stringify({ b: 100 - 24 * 0.003 - 20 * 0.002 }), '{"b":99.88799999999999}');
});

test('parseMicros reads decimal text exactly and refuses what is not a plain decimal of at most 6 places', () => {
  assert.equal(parseMicros('0.003'), 3_000);
  assert.equal(parseMicros('25'), 25_000_000);
  assert.equal(parseMicros('-0.5'), -500_000);
  assert.equal(parseMicros(' 1.000001 '), 1_000_001);
  assert.equal(parseMicros('-0'), 0);
  for (const bad of ['', '.5', '1.', '1e3', '0x10', '1.0000001', 'abc', '1,5', 'NaN', 'Infinity']) assert.equal(parseMicros(bad), null, bad);
});

test('fixedMicros prints six decimals from integers', () => {
  assert.equal(fixedMicros(25_000_000), '25.000000');
  assert.equal(fixedMicros(99_888_000), '99.888000');
  assert.equal(fixedMicros(-1_500), '-0.001500');
  assert.equal(fixedMicros(0), '0.000000');
});

test('toMicros refuses what is not an amount', () => {
  assert.throws(() => toMicros(Number.NaN), RangeError);
  assert.throws(() => toMicros(1e12), RangeError);
  assert.equal(Object.is(toMicros(-0), 0), true);
});

test('amounts are shown rounded to the currency\'s precision on the integer micros, halves away from zero', () => {
  assert.deepEqual([currencyDigits('usd'), currencyDigits('JPY'), currencyDigits('BHD'), currencyDigits('not-a-code')], [2, 0, 3, 2]);
  assert.equal(shownAmount(99_888_000, 'USD'), 99.89);
  assert.equal(shownAmount(26_000, 'usd'), 0.03);
  assert.equal(shownAmount(5_000, 'USD'), 0.01);
  assert.equal(shownAmount(4_999, 'USD'), 0);
  assert.equal(shownAmount(-5_000, 'USD'), -0.01);
  assert.equal(Object.is(shownAmount(-4_999, 'USD'), -0), false, 'no -0');
  assert.equal(shownAmount(1_500_000, 'JPY'), 2);
  assert.equal(shownAmount(1_234_567, 'BHD'), 1.235);
  // 0.1 + 0.2 in float is 0.30000000000000004; in micros it is 300000, shown 0.3.
  assert.equal(JSON.stringify(shownAmount(toMicros(0.1) + toMicros(0.2), 'USD')), '0.3');
});

test('shownParts: lines rounded to the currency add up to their rounded total, the largest remainders rounded up', () => {
  // Two phone lookups (0.004) and six locations (0.006): total 0.01; alone each line rounds to 0.00 / 0.01.
  assert.deepEqual(shownParts([4_000, 6_000], 'usd'), [0, 10_000]);
  assert.deepEqual(shownParts([4_000, 4_000, 2_000], 'usd'), [10_000, 0, 0], 'a tie goes to the earlier line');
  assert.deepEqual(shownParts([5_000, 5_000], 'usd'), [10_000, 0]);
  assert.deepEqual(shownParts([2_000, 3_000], 'usd', 0), [0, 0], 'a given total');
  assert.deepEqual(shownParts([], 'usd'), []);
  assert.deepEqual(shownParts([1_499_999, 1_500_001], 'JPY'), [1_000_000, 2_000_000]);
  assert.deepEqual(shownParts([-4_000, -4_000], 'usd'), [0, -10_000]);
  // Seeded random lines: the parts always sum to the rounded total and each is within one step of its value.
  let seed = 7;
  const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let run = 0; run < 500; run++) {
    const parts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => Math.floor(rnd() * 50_000));
    const shown = shownParts(parts, 'usd');
    assert.equal(shown.reduce((s, p) => s + p, 0), roundedMicros(parts.reduce((s, p) => s + p, 0), 'usd'), String(parts));
    shown.forEach((p, i) => assert.ok(p % 10_000 === 0 && Math.abs(p - parts[i]) < 10_000, `${parts} -> ${shown}`));
  }
});
