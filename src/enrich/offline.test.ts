import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enrichRecords } from './index.ts';
import { offlineFields } from './offline.ts';
import { brandIndexBuilt } from './chain/brands.ts';

const place = () => ({ name: 'Starbucks', category: 'Coffee shop', country_code: 'US', phone: '+1 212-555-0142', email_1: 'jane@mailinator.com' });

test('offline enrichments run on the lookup thread: the same fields as here, and the brand index is never built on this thread', { timeout: 120_000 }, async () => {
  const there = await enrichRecords('/maps/search', [place()], { enrichment: ['ai_chain_info', 'disposable_email_checker', 'phones_enricher_service'] }, {});
  assert.equal(brandIndexBuilt(), false, 'the 2-3 s brand index build happened off the API thread');
  assert.equal(there[0].is_chain, true);
  assert.equal(there[0].chain_name, 'Starbucks');
  assert.equal(there[0].email_1_disposable, true);
  assert.ok('phone_carrier_type' in there[0]);

  const here = place() as Record<string, unknown>;
  for (const name of ['ai_chain_info', 'disposable_email_checker', 'phones_enricher_service'] as const) {
    Object.assign(here, (await offlineFields({ name, records: [here], settings: {} }))[0]);
  }
  assert.deepEqual(there[0], here);
});
