import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataLocales, longestPrefix, prefixTable, timeZoneTable, type PrefixTable } from './prefix-data.ts';

test('longestPrefix picks the longest matching key and respects the key-length range', () => {
  const table: PrefixTable = {
    map: new Map([
      ['21', 'short'],
      ['212', 'longer'],
      ['2127', 'longest'],
    ]),
    minLen: 2,
    maxLen: 4,
  };
  assert.equal(longestPrefix(table, '2127365000'), 'longest');
  assert.equal(longestPrefix(table, '2128000000'), 'longer');
  assert.equal(longestPrefix(table, '2190000000'), 'short');
  assert.equal(longestPrefix(table, '3000000000'), null);
  assert.equal(longestPrefix(table, '2'), null);
  assert.equal(longestPrefix(null, '2127365000'), null);
});

test('the shipped tables load once and answer from the cache', () => {
  const us = prefixTable('geocodes', 'en', '1');
  assert.ok(us && us.map.size > 10000);
  assert.equal(prefixTable('geocodes', 'en', '1'), us, 'same object: read once');
  assert.equal(longestPrefix(prefixTable('carrier', 'en', '49'), '15123456789'), 'T-Mobile');
  assert.equal(longestPrefix(timeZoneTable(), '4930123456'), 'Europe/Berlin');
  assert.equal(prefixTable('geocodes', 'en', '999'), null, 'no file for an unknown code');
  assert.equal(prefixTable('geocodes', '../../etc', '1'), null, 'no path tricks');
});

test('request languages map onto the data locales with English last', () => {
  assert.deepEqual(dataLocales('geocodes', 'de'), ['de', 'en']);
  assert.deepEqual(dataLocales('geocodes', 'zh-TW'), ['zh_Hant', 'zh', 'en']);
  assert.deepEqual(dataLocales('geocodes', 'pt-BR'), ['pt', 'en']);
  assert.deepEqual(dataLocales('geocodes', undefined), ['en']);
  assert.deepEqual(dataLocales('carrier', 'de'), ['en'], 'no German carrier data');
  assert.deepEqual(dataLocales('carrier', 'ru'), ['ru', 'en']);
});
