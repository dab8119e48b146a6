/**
 * Forward geocoding (`/geocoding`): the city a text names from the shipped gazetteer, the operator's
 * geocoder's hit when GEOCODER_URL is set (constructed answers in each engine's documented search
 * format, played back on loopback), the SSRF guard on that URL, and the fallbacks.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { checkGeocodingQuery, findCity } from './forward.ts';
import { geocodingAdapter } from './geocoding-adapter.ts';
import { parseSearch, searchUrl } from './engine/formats.ts';
import { startPlayback } from './engine/playback-server.ts';
import { constructedNominatim, constructedPelias, constructedPhoton } from './engine/constructed-samples.ts';
import { isSourceError } from '../../sources/_kit/errors.ts';

const srv = await startPlayback(() => ({ body: [] }));
after(() => srv.close());
const lookup = (query: string, settings: Record<string, unknown> = {}) =>
  geocodingAdapter.lookup({ query, params: {} }, { settings: { allowPrivateTargets: false, allowedTargets: ['127.0.0.1'], ...settings } });

test('the city a text names: the last one, narrowed by a state or country after it, else the most populous', () => {
  const cases: Array<[string, string | null, string?, string?]> = [
    ['321 California Ave, Palo Alto, CA 94306', 'Palo Alto', 'US', 'California'], // California before the city is a street
    ['Paris', 'Paris', 'FR'],
    ['Paris, TX', 'Paris', 'US', 'Texas'],
    ['Paris, Texas, USA', 'Paris', 'US', 'Texas'],
    ['Cambridge, MA', 'Cambridge', 'US', 'Massachusetts'],
    ['Cambridge, UK', 'Cambridge', 'GB'],
    ['1600 Pennsylvania Ave NW, Washington, DC 20500', 'Washington', 'US', 'District of Columbia'],
    ['10 Downing Street, London SW1A 2AA, United Kingdom', 'London', 'GB'],
    ['Hauptstraße 12, 10115 Berlin, Germany', 'Berlin', 'DE'],
    ['51 West 52nd Street, New York, NY 10019', 'New York', 'US', 'New York'],
    ['Portland, Maine', 'Portland', 'US', 'Maine'],
    ['São Paulo, Brasil', 'São Paulo', 'BR'],
    ['Aix-en-Provence, Provence-Alpes-Côte d\'Azur, France', 'Aix-en-Provence', 'FR', 'Provence-Alpes-Côte d\'Azur'], // a region's whole name is the region, not towns named by its words
    ['Rosario, Santa Fe, Argentina', 'Rosario', 'AR', 'Santa Fe'], // a region named like a city, a Rosario lying in it
    ['Hamburg, Germany', 'Hamburg', 'DE'], // a region's name before any city is the city
    ['Monaco', 'Monaco', 'MC'], // a city-state named as its country
    ['Central Park, NY', null], // no town of that name in New York: not the one in Washington
    ['France', null], // a country alone has no point in the gazetteer
    ['asdkjh qwe', null],
  ];
  assert.equal(cases.length, 19);
  for (const [text, name, country, state] of cases) {
    const m = findCity(text);
    if (name === null) { assert.equal(m, null, text); continue; }
    assert.ok(m, text);
    assert.equal(m.name, name, text);
    assert.equal(m.city.country, country, text);
    if (state) assert.equal(m.city.state, state, text);
  }
});

test('offline record: the city\'s point, its state and country, county and zone of the point; no street or postal code', async () => {
  const [r, ...rest] = await lookup('321 California Ave, Palo Alto, CA 94306');
  assert.equal(rest.length, 0);
  assert.equal(r.match, 'city');
  assert.equal(r.query, '321 California Ave, Palo Alto, CA 94306');
  assert.ok(Math.abs(r.latitude - 37.442) < 0.01 && Math.abs(r.longitude + 122.143) < 0.01, `${r.latitude},${r.longitude}`);
  assert.deepEqual([r.city, r.state, r.county, r.country_code, r.country, r.time_zone], ['Palo Alto', 'California', 'Santa Clara County', 'US', 'United States', 'America/Los_Angeles']);
  assert.deepEqual([r.street, r.postal_code], [null, null]);
  assert.equal(r.address, 'Palo Alto, California, United States');
  assert.match(r.plus_code!, /^[23456789CFGHJMPQRVWX]{8}\+[23456789CFGHJMPQRVWX]{2}$/);
  assert.deepEqual(await lookup('nowhere at all qqq'), [], 'nothing found: no record');
});

test('queries no geocoder could read are refused at submit', () => {
  assert.match(checkGeocodingQuery('   ')!, /empty/);
  assert.match(checkGeocodingQuery('x'.repeat(501))!, /at most 500/);
  assert.equal(checkGeocodingQuery('Paris'), undefined);
});

test('search URLs and answers of the three engines (constructed samples in their documented formats)', () => {
  assert.equal(searchUrl('nominatim', 'http://g:8080/', 'Palo Alto, CA'), 'http://g:8080/search?q=Palo%20Alto%2C%20CA&format=jsonv2&addressdetails=1&limit=1');
  assert.equal(searchUrl('photon', 'http://g', 'a&b'), 'http://g/api?q=a%26b&limit=1');
  assert.equal(searchUrl('pelias', 'http://g/p', 'x'), 'http://g/p/v1/search?text=x&size=1');
  const n = parseSearch('nominatim', [constructedNominatim]);
  assert.deepEqual([n?.lat, n?.lng, n?.address?.road], [40.7624, -73.9737, 'West 52nd Street']);
  const p = parseSearch('photon', constructedPhoton);
  assert.deepEqual([p?.lat, p?.lng, p?.address?.postal_code], [52.5163, 13.3777, '10117']);
  const e = parseSearch('pelias', constructedPelias);
  assert.deepEqual([e?.lat, e?.lng, e?.address?.country_code], [-33.8567, 151.2152, 'AU']);
  for (const nothing of [[], {}, [{ lat: 'x', lon: '1' }], [{ lat: '91', lon: '0' }], null]) assert.equal(parseSearch('nominatim', nothing), null, JSON.stringify(nothing));
  assert.equal(parseSearch('photon', { type: 'FeatureCollection', features: [] }), null);
  assert.equal(parseSearch('pelias', { features: [{ properties: {} }] }), null, 'a hit without a point');
});

test('with GEOCODER_URL: the geocoder\'s hit, the street and postal code its, on loopback when allowed', async () => {
  srv.reply = (u) => (u.pathname === '/search' ? { body: [constructedNominatim] } : { status: 404 });
  const [r] = await lookup('51 West 52nd Street, New York', { geocoder: { url: srv.url, kind: 'nominatim' } });
  const asked = srv.requests.at(-1)!;
  assert.deepEqual(Object.fromEntries(asked.searchParams), { q: '51 West 52nd Street, New York', format: 'jsonv2', addressdetails: '1', limit: '1' });
  assert.equal(r.match, 'geocoder');
  assert.deepEqual([r.latitude, r.longitude], [40.7624, -73.9737]);
  assert.deepEqual([r.street, r.postal_code, r.city, r.county, r.country_code], ['51 West 52nd Street', '10019', 'Manhattan', 'New York County', 'US']);
  assert.equal(r.address, '51 West 52nd Street, Manhattan, New York 10019, United States');

  // Found nothing, failed, or too slow: the gazetteer's city instead.
  for (const reply of [{ body: [] }, { status: 500 }, { hang: true }, { raw: 'not json' }]) {
    srv.reply = () => reply;
    const [c] = await lookup('Paris, TX', { geocoder: { url: srv.url, kind: 'nominatim', timeoutMs: 200 } });
    assert.deepEqual([c.match, c.city, c.state], ['city', 'Paris', 'Texas'], JSON.stringify(reply));
  }
});

test('a geocoder the SSRF guard refuses fails the query naming ALLOW_PRIVATE_TARGETS, never called', async () => {
  srv.reply = () => ({ body: [constructedNominatim] });
  const before = srv.requests.length;
  await assert.rejects(lookup('Paris', { geocoder: { url: srv.url, kind: 'nominatim' }, allowedTargets: [] }),
    (e: unknown) => isSourceError(e) && e.type === 'forbidden_target' && /ALLOW_PRIVATE_TARGETS/.test(e.message));
  assert.equal(srv.requests.length, before);
  const [ok] = await lookup('Paris', { geocoder: { url: srv.url, kind: 'nominatim' }, allowPrivateTargets: true, allowedTargets: [] });
  assert.equal(ok.match, 'geocoder', 'ALLOW_PRIVATE_TARGETS=true lets it through');
});
