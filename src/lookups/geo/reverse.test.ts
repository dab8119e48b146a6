import { test } from 'node:test';
import assert from 'node:assert/strict';
import olc from 'open-location-code';
import { loadReverseGeocoder } from './reverse.ts';
import { KNOWN_POINTS } from './known-points.ts';
import { composeAddress, type ReverseGeocodingRecord } from './record.ts';

const FIELDS = ['query', 'address', 'city', 'country_code', 'county', 'photo', 'plus_code', 'postal_code', 'state', 'street', 'time_zone'];
const codec = new olc.OpenLocationCode();
const geo = await loadReverseGeocoder();

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('the known-point table covers six continents and at least 50 points', () => {
  assert.ok(KNOWN_POINTS.length >= 50);
  const continents = new Set(KNOWN_POINTS.map((p) => {
    if (['US', 'CA', 'MX', 'CU', 'PR'].includes(p.country)) return 'NA';
    if (['BR', 'AR', 'CL', 'CO', 'VE', 'EC'].includes(p.country)) return 'SA';
    if (['EG', 'NG', 'KE', 'ZA', 'MA', 'ET', 'CD', 'SN'].includes(p.country)) return 'AF';
    if (['AU', 'NZ', 'FJ', 'PG'].includes(p.country)) return 'OC';
    if (['JP', 'CN', 'IN', 'KR', 'TH', 'ID', 'AE', 'IR', 'NP'].includes(p.country)) return 'AS';
    return 'EU';
  }));
  assert.equal(continents.size, 6);
});

for (const p of KNOWN_POINTS) {
  test(`known point: ${p.name}`, () => {
    const r = geo.reverse(p.lat, p.lng);
    assert.equal(r.country_code, p.country, 'country_code');
    assert.equal(r.state, p.state, 'state');
    assert.equal(r.time_zone, p.tz, 'time_zone');
    if (p.city) assert.equal(r.city, p.city, 'city');
    if (p.county !== undefined) assert.equal(r.county, p.county, 'county');
    // A full 10-digit code whose cell (decoded by open-location-code) contains the point; a point
    // on a cell edge is that cell's low edge.
    assert.match(r.plus_code ?? '', /^[2-9CFGHJMPQRVWX]{8}\+[2-9CFGHJMPQRVWX]{2}$/, 'plus_code form');
    const area = codec.decode(r.plus_code!);
    assert.ok(area.latitudeLo - 1e-9 <= p.lat && p.lat < area.latitudeHi, 'plus_code latitude cell');
    assert.ok(area.longitudeLo - 1e-9 <= p.lng && p.lng < area.longitudeHi, 'plus_code longitude cell');
    assert.ok(area.latitudeHi - area.latitudeLo < 0.000126 && area.longitudeHi - area.longitudeLo < 0.000126, 'plus_code size');
    // A US ZIP only where the centroids make it clear (us-zips.ts sureZip); never outside the US.
    if (p.country === 'US') assert.ok(r.postal_code === null || /^\d{5}$/.test(r.postal_code), 'US postal_code');
    else assert.equal(r.postal_code, null, 'postal_code outside the US');
    assert.equal(r.street, null);
    assert.equal(r.photo, null);
  });
}

test('US: the ZIP is in the same state and the record is consistent', () => {
  // Rockefeller Center: single-building ZIPs crowd Midtown (10151, 10153, 10103 ...), so no ZIP.
  const r = geo.reverse(40.7624284, -73.973794);
  assert.deepEqual(r, {
    query: '40.7624284,-73.973794',
    address: 'Manhattan, New York, United States',
    city: 'Manhattan',
    country_code: 'US',
    county: 'New York County',
    photo: null,
    plus_code: '87G8Q26G+XF',
    postal_code: null,
    state: 'New York',
    street: null,
    time_zone: 'America/New_York',
  });
  // Across the Hudson, New Jersey ZIPs are nearer for some points; the state rule keeps NY ones.
  const jc = geo.reverse(40.7178, -74.0431);
  assert.equal(jc.state, 'New Jersey');
  assert.equal(jc.county, 'Hudson County');
  assert.match(jc.postal_code!, /^07\d{3}$/);
});

test('US ZIPs: the area ZIP where centroids make it clear, null where they cannot', () => {
  const zip = (lat: number, lng: number) => geo.reverse(lat, lng).postal_code;
  assert.equal(zip(34.0901, -118.4065), '90210'); // Beverly Hills
  assert.equal(zip(44.4759, -73.2121), '05401'); // Burlington, Vermont
  assert.equal(zip(41.9227, -87.6533), '60614'); // Lincoln Park, Chicago
  // Times Square: the building ZIP 10112's centroid (0.50 km) is nearer than 10036's (0.56 km).
  assert.equal(zip(40.758, -73.9855), null);
  // South Beach: GeoNames puts 33154 (Bal Harbour) on Miami Beach's post office, 1 km off; no
  // ZIP rather than that one.
  assert.equal(zip(25.7826, -80.1341), null);
});

test('a county only where the 1 km ring stays in it; a district only from the city', () => {
  const eiffel = geo.reverse(48.8584, 2.2945);
  assert.deepEqual([eiffel.city, eiffel.county, eiffel.state], ['Paris', 'Paris', 'Île-de-France']);
  // Tokyo's wards are not in the shipped data: no ward rather than the nearest place's (Shibuya-ku).
  const tower = geo.reverse(35.6586, 139.7454);
  assert.deepEqual([tower.city, tower.county, tower.state], ['Tokyo', null, 'Tokyo']);
  // The Washtenaw/Wayne line (Michigan) crosses 42.25° N at -83.542° in the polygons: 0.4 km east
  // of it no county, 5 km east Wayne County, 5 km west Washtenaw County.
  assert.equal(geo.reverse(42.25, -83.537).county, null);
  assert.equal(geo.reverse(42.25, -83.48).county, 'Wayne County');
  assert.equal(geo.reverse(42.25, -83.6).county, 'Washtenaw County');
});

test('open sea and poles: only what is known, never a guessed city', () => {
  const sea = geo.reverse(0, -30);
  assert.equal(sea.country_code, 'BR'); // Brazilian maritime area in country-coder
  assert.equal(sea.city, null);
  assert.equal(sea.state, null);
  assert.equal(sea.time_zone, 'Etc/GMT+2');
  assert.equal(sea.address, 'Brazil');
  const north = geo.reverse(90, 0);
  assert.equal(north.country_code, null);
  assert.equal(north.address, null);
  assert.equal(north.time_zone, 'Etc/GMT');
  const lake = geo.reverse(43.8, -87.0); // middle of Lake Michigan: US waters, no county polygon
  assert.equal(lake.country_code, 'US');
  assert.equal(lake.county, null);
  assert.equal(lake.city, null);
  assert.equal(lake.postal_code, null);
});

test('points beside the antimeridian find places on the other side', () => {
  // Taveuni, Fiji, straddles 180°: a point just west of it must still see places east of it.
  const r = geo.reverse(-16.85, -179.95);
  assert.equal(r.country_code, 'FJ');
  assert.equal(r.state, 'Northern');
  assert.equal(r.time_zone, 'Pacific/Fiji');
});

test('2,000 seeded points anywhere: never throws, every field a string or null, query kept', () => {
  const rnd = seeded(7);
  for (let i = 0; i < 2000; i++) {
    const lat = rnd() * 180 - 90;
    const lng = rnd() * 360 - 180;
    const r: ReverseGeocodingRecord = geo.reverse(lat, lng, `q${i}`);
    assert.deepEqual(Object.keys(r), FIELDS);
    for (const k of FIELDS) {
      const v = (r as unknown as Record<string, unknown>)[k];
      assert.ok(v === null || (typeof v === 'string' && v.length > 0), `${k} at ${lat},${lng}`);
    }
    assert.equal(r.query, `q${i}`);
    assert.ok(r.time_zone && r.plus_code);
    if (r.country_code === null) {
      assert.deepEqual([r.state, r.county, r.city, r.postal_code, r.address], [null, null, null, null, null]);
    }
    if (r.country_code !== 'US') assert.equal(r.postal_code, null);
  }
});

test('loadReverseGeocoder is memoised and reports its load', async () => {
  assert.equal(await loadReverseGeocoder(), geo);
  assert.ok(geo.stats.places > 190_000, `places ${geo.stats.places}`);
  assert.ok(geo.stats.zips > 30_000, `zips ${geo.stats.zips}`);
  // The 3 s start-up budget is measured by bench/geo.bench.ts; a unit test on a shared CI core
  // would only be flaky.
  assert.ok(Number.isFinite(geo.stats.loadMs) && geo.stats.loadMs > 0);
});

test('composeAddress writes known parts once', () => {
  assert.equal(composeAddress({ city: 'Manhattan', state: 'New York', postal_code: '10151', country: 'United States' }), 'Manhattan, New York 10151, United States');
  assert.equal(composeAddress({ city: 'Singapore', country: 'Singapore' }), 'Singapore');
  assert.equal(composeAddress({ city: 'Berlin', state: 'Berlin', postal_code: '10117', country: 'Germany' }), 'Berlin, 10117, Germany');
  assert.equal(composeAddress({ street: '51 West 52nd Street', city: 'Manhattan', country: 'United States' }), '51 West 52nd Street, Manhattan, United States');
  assert.equal(composeAddress({}), null);
});
