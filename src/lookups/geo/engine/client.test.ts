import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineReverse } from './client.ts';
import { geocoderSettings, GeocoderSettingsError } from './settings.ts';
import { startPlayback } from './playback-server.ts';
import { isSourceError } from '../../../sources/_kit/errors.ts';
import { constructedNominatim, constructedPelias, constructedPhoton } from './constructed-samples.ts';

const srv = await startPlayback(() => ({ body: {} }));
/** The playback server is on loopback: allowed as ALLOW_PRIVATE_TARGETS=127.0.0.1 would. */
const LOOPBACK = { guard: { allow: ['127.0.0.1'] } };
after(() => srv.close());

const isNetwork = (re: RegExp) => (e: unknown) => isSourceError(e) && e.type === 'network' && re.test(e.message);

test('calls each engine\'s reverse endpoint with the point and maps the answer', async () => {
  srv.reply = (u) =>
    u.pathname === '/reverse' && u.searchParams.get('format') === 'jsonv2' ? { body: constructedNominatim }
    : u.pathname === '/reverse' ? { body: constructedPhoton }
    : u.pathname === '/v1/reverse' ? { body: constructedPelias }
    : { status: 404 };
  const n = await engineReverse({ ...LOOPBACK, url: srv.url, kind: 'nominatim' }, 40.7624, -73.9737);
  assert.equal(n?.road, 'West 52nd Street');
  let q = srv.requests.at(-1)!;
  assert.deepEqual(Object.fromEntries(q.searchParams), { format: 'jsonv2', lat: '40.7624', lon: '-73.9737', addressdetails: '1' });
  const p = await engineReverse({ ...LOOPBACK, url: srv.url, kind: 'photon' }, 52.5163, 13.3777);
  assert.equal(p?.postal_code, '10117');
  q = srv.requests.at(-1)!;
  assert.deepEqual(Object.fromEntries(q.searchParams), { lat: '52.5163', lon: '13.3777', limit: '1' });
  const e = await engineReverse({ ...LOOPBACK, url: `${srv.url}/`, kind: 'pelias' }, -33.8568, 151.2153);
  assert.equal(e?.country_code, 'AU');
  q = srv.requests.at(-1)!;
  assert.equal(q.pathname, '/v1/reverse');
  assert.deepEqual(Object.fromEntries(q.searchParams), { 'point.lat': '-33.8568', 'point.lon': '151.2153', size: '1' });
});

test('a 500 is a network SourceError', async () => {
  srv.reply = () => ({ status: 500, body: { error: 'boom' } });
  await assert.rejects(engineReverse({ ...LOOPBACK, url: srv.url, kind: 'photon' }, 1, 2), isNetwork(/status 500/));
});

test('no answer within the timeout is a network SourceError, promptly', async () => {
  srv.reply = () => ({ hang: true });
  const t = performance.now();
  await assert.rejects(engineReverse({ ...LOOPBACK, url: srv.url, kind: 'nominatim', timeoutMs: 150 }, 1, 2), isNetwork(/no answer within 150 ms/));
  assert.ok(performance.now() - t < 2000);
});

test('a body that is not JSON, or too large, is refused', async () => {
  srv.reply = () => ({ raw: '<html>maintenance</html>' });
  await assert.rejects(engineReverse({ ...LOOPBACK, url: srv.url, kind: 'photon' }, 1, 2), isNetwork(/not JSON/));
  srv.reply = () => ({ raw: Buffer.alloc(2 << 20, 32) });
  await assert.rejects(engineReverse({ ...LOOPBACK, url: srv.url, kind: 'photon' }, 1, 2), isNetwork(/larger than/));
});

test('a refused connection is a network SourceError whose message names neither host nor port (the detail does)', async () => {
  const dead = await startPlayback(() => ({}));
  const url = dead.url;
  await dead.close();
  const port = new URL(url).port;
  await assert.rejects(engineReverse({ ...LOOPBACK, url, kind: 'pelias', timeoutMs: 1000 }, 1, 2),
    (e: unknown) => isNetwork(/could not be reached/)(e) && !(e as Error).message.includes('127.0.0.1') && !(e as Error).message.includes(port)
      && ((e as { detail?: string }).detail ?? '').includes(url));
});

test('the caller\'s abort signal stops the call', async () => {
  srv.reply = () => ({ hang: true });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(engineReverse({ ...LOOPBACK, url: srv.url, kind: 'photon', timeoutMs: 5000 }, 1, 2, ac.signal), isNetwork(/./));
});

test('settings come from the context or the environment and are validated', () => {
  assert.equal(geocoderSettings({}, {}), undefined);
  assert.deepEqual(geocoderSettings({}, { GEOCODER_URL: 'http://n:8080', GEOCODER_KIND: 'nominatim' }), { url: 'http://n:8080', kind: 'nominatim', timeoutMs: 3000, guard: { allowPrivate: false, allow: [] } });
  assert.deepEqual(geocoderSettings({ geocoder: { url: 'https://p', kind: 'pelias', timeoutMs: 500 } }, { GEOCODER_URL: 'http://other', GEOCODER_KIND: 'photon' }), { url: 'https://p', kind: 'pelias', timeoutMs: 500, guard: { allowPrivate: false, allow: [] } });
  assert.deepEqual(geocoderSettings({}, { GEOCODER_URL: 'http://x', GEOCODER_KIND: 'photon', GEOCODER_TIMEOUT_MS: '1200' }), { url: 'http://x', kind: 'photon', timeoutMs: 1200, guard: { allowPrivate: false, allow: [] } });
  assert.throws(() => geocoderSettings({}, { GEOCODER_URL: 'http://x', GEOCODER_KIND: 'google' }), GeocoderSettingsError);
  assert.throws(() => geocoderSettings({}, { GEOCODER_URL: 'http://x' }), /kind must be one of nominatim, photon, pelias/);
  assert.throws(() => geocoderSettings({}, { GEOCODER_URL: 'ftp://x', GEOCODER_KIND: 'photon' }), /http\(s\) URL/);
  assert.throws(() => geocoderSettings({}, { GEOCODER_URL: 'http://x', GEOCODER_KIND: 'photon', GEOCODER_TIMEOUT_MS: '0' }), /timeoutMs/);
});
