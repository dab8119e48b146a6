import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { reverseGeocodingAdapter } from './index.ts';
import { isSourceError } from '../../sources/_kit/errors.ts';
import { startPlayback } from './engine/playback-server.ts';
import { constructedNominatim, constructedPelias, constructedPhoton, constructedNominatimNothing } from './engine/constructed-samples.ts';

const noEngine = { settings: {} };
/** The playback engine is on loopback: allowed as ALLOW_PRIVATE_TARGETS=127.0.0.1 would. */
const lookup = (query: string, settings: Record<string, unknown> = {}) =>
  reverseGeocodingAdapter.lookup({ query, params: {} }, { settings: { allowPrivateTargets: false, allowedTargets: ['127.0.0.1'], ...settings } });

const srv = await startPlayback(() => ({ body: {} }));
after(() => srv.close());

test('adapter shape: local, /reverse-geocoding, checkQuery', async () => {
  assert.equal(reverseGeocodingAdapter.kind, 'local');
  assert.equal(reverseGeocodingAdapter.endpoint, '/reverse-geocoding');
  assert.equal(reverseGeocodingAdapter.checkQuery?.('40.7624284 -73.973794'), undefined);
  assert.match(reverseGeocodingAdapter.checkQuery?.('91,200') ?? '', /latitude must be from -90 to 90/);
  await reverseGeocodingAdapter.warmUp?.();
});

test('lookup returns one record whose query is the original string', async () => {
  const [r, ...rest] = await reverseGeocodingAdapter.lookup({ query: ' 41.8781 , -87.6298 ', params: {} }, noEngine);
  assert.equal(rest.length, 0);
  assert.equal(r.query, ' 41.8781 , -87.6298 ');
  assert.equal(r.county, 'Cook County');
  assert.equal(r.street, null);
});

test('an invalid query is a SourceError invalid_query', async () => {
  await assert.rejects(lookup('not a point'), (e: unknown) => isSourceError(e) && e.type === 'invalid_query');
});

test('nominatim playback: street and postal_code from the engine, the rest offline', async () => {
  srv.reply = () => ({ body: constructedNominatim });
  const [r] = await lookup('40.7624284,-73.973794', { geocoder: { url: srv.url, kind: 'nominatim' } });
  assert.equal(r.street, '51 West 52nd Street');
  assert.equal(r.postal_code, '10019');
  assert.equal(r.city, 'Manhattan');
  assert.equal(r.county, 'New York County');
  assert.equal(r.address, '51 West 52nd Street, Manhattan, New York 10019, United States');
  assert.equal(r.query, '40.7624284,-73.973794');
});

test('photon playback (Berlin) and pelias playback (Sydney)', async () => {
  srv.reply = () => ({ body: constructedPhoton });
  const [b] = await lookup('52.5163 13.3777', { geocoder: { url: srv.url, kind: 'photon' } });
  assert.equal(b.street, 'Pariser Platz 1');
  assert.equal(b.postal_code, '10117');
  assert.equal(b.country_code, 'DE');
  assert.match(b.address!, /^Pariser Platz 1, Berlin, .*10117, Germany$/);
  srv.reply = () => ({ body: constructedPelias });
  const [s] = await lookup('-33.8568, 151.2153', { geocoder: { url: srv.url, kind: 'pelias' } });
  assert.equal(s.street, '2 Macquarie Street');
  assert.equal(s.postal_code, '2000');
  assert.equal(s.state, 'New South Wales');
});

test('engine errors, timeouts and empty answers fall back to the offline record', async () => {
  const [offline] = await lookup('40.7624284,-73.973794');
  for (const reply of [{ status: 500 }, { status: 404 }, { hang: true }, { raw: 'not json' }, { body: constructedNominatimNothing }]) {
    srv.reply = () => reply;
    const t = performance.now();
    const [r] = await lookup('40.7624284,-73.973794', { geocoder: { url: srv.url, kind: 'nominatim', timeoutMs: 200 } });
    assert.deepEqual(r, offline, JSON.stringify(reply));
    assert.ok(performance.now() - t < 3000);
  }
});

test('an engine configured through the environment is used', async () => {
  srv.reply = () => ({ body: constructedPhoton });
  const saved = { url: process.env.GEOCODER_URL, kind: process.env.GEOCODER_KIND };
  process.env.GEOCODER_URL = srv.url;
  process.env.GEOCODER_KIND = 'photon';
  try {
    const [r] = await lookup('52.5163,13.3777');
    assert.equal(r.street, 'Pariser Platz 1');
  } finally {
    if (saved.url === undefined) delete process.env.GEOCODER_URL;
    else process.env.GEOCODER_URL = saved.url;
    if (saved.kind === undefined) delete process.env.GEOCODER_KIND;
    else process.env.GEOCODER_KIND = saved.kind;
  }
});

test('an engine the SSRF guard refuses fails the query naming ALLOW_PRIVATE_TARGETS, not its address (the log has it); it is never called', async () => {
  srv.reply = () => ({ body: constructedNominatim });
  const before = srv.requests.length;
  const port = new URL(srv.url).port;
  await assert.rejects(lookup('40.7624284,-73.973794', { geocoder: { url: srv.url, kind: 'nominatim' }, allowedTargets: [] }),
    (e: unknown) => isSourceError(e) && e.type === 'forbidden_target' && /GEOCODER_URL.*ALLOW_PRIVATE_TARGETS/.test(e.message)
      && !e.message.includes('127.0.0.1') && !e.message.includes(port) && /refused target 127\.0\.0\.1/.test(e.detail ?? ''));
  assert.equal(srv.requests.length, before);
});
