/**
 * `/geocoding` over HTTP as the hosted Node client calls it (`geocoding(query)`: repeated `query`,
 * `async=false`): one answer entry per query, the city's record or nothing, billed one `location`
 * per record found (a query that finds nothing is free: decision 20 names the endpoints where it is not).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import { geocodingAdapter } from '../src/lookups/geo/geocoding-adapter.ts';
import { toMicros } from '../src/billing/money.ts';

let h: Harness;
before(async () => { h = await startHarness({ adapters: registryOfAdapters([geocodingAdapter]) }); });
after(async () => { await h.close(); });

test('forward geocoding: a record per query that names a city, nothing for one that does not, billed per record', async () => {
  const a = await h.newAccount({ balance: 10 });
  const r = await h.json(`/geocoding?query=${encodeURIComponent('321 California Ave, Palo Alto, CA 94306')}&query=${encodeURIComponent('no such place qqq')}&async=false`, { key: a.key });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.data.length, 2);
  const [rec] = r.body.data[0];
  assert.deepEqual([rec.city, rec.state, rec.country_code, rec.match], ['Palo Alto', 'California', 'US', 'city']);
  assert.equal(typeof rec.latitude, 'number');
  assert.deepEqual(r.body.data[1], []);
  const lines = await h.svc.ctx.store.usageForPeriod(a.account.id, 0, Date.now() + 1000);
  assert.deepEqual(lines.map((l) => [l.product, l.unit, l.quantity, l.unitPriceMicros]), [['geocoding_service', 'location', 1, toMicros(0.001)]]);
});

test('an empty query is a 422 naming it', async () => {
  const r = await h.json('/geocoding?query=%20&async=false');
  assert.equal(r.status, 422);
  assert.match(r.body.errorMessage, /^422 Unprocessable Entity: .*query is empty/);
});

test('a configured geocoder the guard refuses fails the query without its host or port in the answer; the log has them', async () => {
  // A private address the deployment did not allow: the query fails, and the user is told so by the
  // setting's name, never by where the operator's geocoder lives (issue 39).
  const lines: string[] = [];
  const { createLogger } = await import('../src/ops/log.ts');
  const { settingsFromEnv } = await import('../src/config/settings.ts');
  const base = settingsFromEnv({});
  const g = await startHarness({
    adapters: registryOfAdapters([geocodingAdapter]), log: createLogger('info', { write: (l: string) => { lines.push(l); } }),
    settings: { lookup: { ...base.lookup, geocoder: { url: 'http://10.77.3.9:24790', kind: 'nominatim', timeoutMs: 500 } } },
  });
  try {
    const r = await g.json(`/geocoding?query=${encodeURIComponent('Paris, TX')}&async=false`);
    const text = JSON.stringify(r.body) + (r.headers.get('x-request-error') ?? '');
    assert.match(text, /GEOCODER_URL/, text);
    assert.doesNotMatch(text, /10\.77\.3\.9|24790/, text);
    assert.ok(lines.some((l) => l.includes('10.77.3.9:24790')), 'the operator reads the address in the log');
  } finally {
    await g.close();
  }
});
