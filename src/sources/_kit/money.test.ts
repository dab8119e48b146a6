import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountOf, currencyOf, toMinorUnit } from './money.ts';

test('amountOf reads the usual money texts and refuses to guess', () => {
  const cases: Array<[string | null, number | null]> = [
    ['$1,234', 1234], ['€25', 25], ['US$339.86', 339.86], ['$2,450/mo', 2450], ['€ 1.234,50', 1234.5], ['1.234.567 Ft', 1234567],
    ['€ 178', 178], ['12,5 €', 12.5], ['CHF 1\u2009250', 1250], ['$7,800,000', 7800000], ['1.234', null], [null, null], ['Free', null],
  ];
  for (const [text, want] of cases) assert.equal(amountOf(text), want, String(text));
});

test('currencyOf knows codes and the common signs', () => {
  assert.equal(currencyOf('US$4.03'), 'USD');
  assert.equal(currencyOf('€ 150'), 'EUR');
  assert.equal(currencyOf('CHF 1 250'), 'CHF');
  assert.equal(currencyOf('£80'), 'GBP');
  assert.equal(currencyOf('150'), null);
});

test('toMinorUnit rounds to the currency minor unit', () => {
  assert.equal(toMinorUnit(339.859938482295, 'USD'), 339.86);
  assert.equal(toMinorUnit(1234.5, 'JPY'), 1235);
  assert.equal(toMinorUnit(10.257, 'XYZ1'), 10.26);
  assert.equal(toMinorUnit(null, 'USD'), null);
});
