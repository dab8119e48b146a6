import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directoryPhonesAdapter, enrichPhone } from './index.ts';
import type { DirectoryPhonesParams } from './adapter.ts';
import { directoryPhones } from '../../contract/endpoints/lookups.ts';
import { parseQueryString, readParams } from '../../contract/params.ts';

test('the adapter serves /directory-phones with one record per query', async () => {
  assert.equal(directoryPhonesAdapter.kind, 'local');
  assert.equal(directoryPhonesAdapter.endpoint, '/directory-phones');
  await directoryPhonesAdapter.warmUp?.();
  const recs = await directoryPhonesAdapter.lookup({ query: '020 1234 5678', params: { region: 'GB' } }, { settings: {} });
  assert.equal(recs.length, 1);
  assert.equal(recs[0].query, '020 1234 5678');
  assert.equal(recs[0].e164, '+442012345678');
  assert.equal(recs[0].region, 'London');
  const bad = await directoryPhonesAdapter.lookup({ query: 'not a phone', params: {} }, { settings: {} });
  assert.equal(bad[0].status, 'NOT_A_NUMBER');
});

test('the declared language parameter, as the reader gives it, names areas in that language', async () => {
  const params = readParams(directoryPhones.params, parseQueryString('language=de')) as DirectoryPhonesParams;
  const [rec] = await directoryPhonesAdapter.lookup({ query: '+49 89 1234567', params }, { settings: {} });
  assert.equal(rec.region, 'München');
});

test('checkQuery refuses only empty queries', () => {
  assert.match(directoryPhonesAdapter.checkQuery!('  ') ?? '', /empty/);
  assert.equal(directoryPhonesAdapter.checkQuery!('garbage'), undefined);
  assert.equal(directoryPhonesAdapter.checkQuery!('+1 212 736 5000'), undefined);
});

test('enrichPhone gives carrier_name and carrier_type, nulls when unknown', () => {
  assert.deepEqual(enrichPhone('+49 1512 3456789'), { carrier_name: 'T-Mobile', carrier_type: 'mobile' });
  assert.deepEqual(enrichPhone('(212) 736-5000', 'US'), { carrier_name: null, carrier_type: 'mobile_or_landline' });
  assert.deepEqual(enrichPhone('+44 20 1234 5678'), { carrier_name: null, carrier_type: 'landline' });
  assert.deepEqual(enrichPhone('+44 56 1234 5678'), { carrier_name: null, carrier_type: 'voip' });
  assert.deepEqual(enrichPhone('(212) 736-5000'), { carrier_name: null, carrier_type: null }, 'no region: unknown');
  assert.deepEqual(enrichPhone(null), { carrier_name: null, carrier_type: null });
  assert.deepEqual(enrichPhone(''), { carrier_name: null, carrier_type: null });
});
