/**
 * The map search body: fidelity on the real capture (20 places, "coffee", Athens area, 2024-12),
 * field by field for several places, plus truncated / reordered / re-typed / empty variants.
 * Expected values were read off the capture's own arrays ([0][1][i][14]).
 */
import { test } from 'node:test';
import OLC from 'open-location-code';
import assert from 'node:assert/strict';
import { SourceError } from '../_kit/errors.ts';
import { recordShapeErrors, placeRecordFields, type PlaceRecord } from './record.ts';
import { EMPTY_BODIES, SEARCH, fixture, missing, mutated, shuffled, truncations } from './test-support.ts';
import { parseSearchBody, parseSearchData, readSearchData } from './search-body.ts';

const byName = (rs: PlaceRecord[], n: string) => {
  const r = rs.find((x) => x.name === n);
  assert.ok(r, `place ${n} present`);
  return r;
};

test('search capture: 20 complete place records', { skip: missing(SEARCH) }, () => {
  const rs = parseSearchBody(fixture(SEARCH), { query: 'coffee', language: 'en' });
  assert.equal(rs.length, 20);
  for (const r of rs) {
    assert.deepEqual(Object.keys(r), [...placeRecordFields]);
    assert.deepEqual(recordShapeErrors(r as unknown as Record<string, unknown>), [], r.name ?? '');
    assert.equal(r.query, 'coffee');
    // Every result holds these (SOURCES.md: name, place_id, lat/lng, rating, review count, categories, phone).
    for (const f of ['name', 'place_id', 'engine_id', 'cid', 'latitude', 'longitude', 'rating', 'reviews', 'type', 'phone', 'time_zone', 'location_link', 'reviews_link', 'full_address', 'country_code'] as const) {
      assert.notEqual(r[f], null, `${r.name}: ${f}`);
    }
    assert.equal(r.time_zone, 'Europe/Athens');
    assert.equal(r.country_code, 'GR');
    assert.equal(r.country, 'Greece');
    assert.ok(r.latitude! > 38 && r.latitude! < 38.04 && r.longitude! > 23.67 && r.longitude! < 23.73, `${r.name} in the Athens area`);
  }
  assert.equal(new Set(rs.map((r) => r.engine_id)).size, 20);
  assert.equal(rs.filter((r) => r.site !== null).length, 8); // 8 of 20 list a website ([7][0])
  // Race Coffee's node has only an "Open now" status line, no weekly hours: null, not made up.
  assert.deepEqual(rs.filter((r) => r.working_hours === null).map((r) => r.name), ['Race Coffee']);
});

test('search capture: Coffee Island Άγιοι Ανάργυροι field by field', { skip: missing(SEARCH) }, () => {
  const r = byName(parseSearchBody(fixture(SEARCH), { query: 'coffee' }), 'Coffee Island Άγιοι Ανάργυροι');
  assert.equal(r.place_id, 'ChIJrWvODf2ioRQRa14aNd3N8oQ');
  assert.equal(r.engine_id, '0x14a1a2fd0dce6bad:0x84f2cddd351a5e6b');
  assert.equal(r.cid, BigInt('0x84f2cddd351a5e6b').toString());
  assert.equal(r.latitude, 38.027947399999995);
  assert.equal(r.longitude, 23.717453199999998);
  assert.equal(r.rating, 4.4);
  assert.equal(r.reviews, 272);
  assert.equal(r.range, '$');
  assert.equal(r.site, 'https://www.coffeeisland.gr/?utm_campaign=website&utm_medium=organic&utm_source=google');
  assert.equal(r.phone, '+30 21 0261 0808');
  assert.equal(r.type, 'Coffee shop');
  assert.equal(r.subtypes, 'Coffee shop, Coffee store');
  assert.equal(r.category, 'coffee shops');
  assert.equal(r.full_address, 'Ir. Politechniou 19, Agii Anargiri 135 61, Greece');
  assert.equal(r.street, 'Ir. Politechniou 19');
  assert.equal(r.city, 'Agioi Anargyroi');
  assert.equal(r.postal_code, '135 61');
  assert.equal(r.owner_id, '112901264981892234038');
  assert.equal(r.verified, true);
  assert.equal(r.reviews_link, 'https://search.google.com/local/reviews?placeid=ChIJrWvODf2ioRQRa14aNd3N8oQ&q=coffee&authuser=0&hl=en');
  assert.equal(r.working_hours!['Monday'], '6\u202fAM–7\u202fPM');
  assert.equal(r.working_hours!['Saturday'], '7\u202fAM–7\u202fPM');
  assert.deepEqual(Object.keys(r.working_hours!)[0], 'Monday');
  assert.deepEqual(Object.keys(r.about!), ['Service options', 'Accessibility', 'Offerings', 'Dining options', 'Amenities', 'Atmosphere', 'Planning', 'Payments', 'Children']);
  assert.equal(r.about!['Service options']['Outdoor seating'], true);
  // Computed from the coordinates (search results carry no plus code): its area holds the place.
  const area = new OLC.OpenLocationCode().decode(r.plus_code!);
  assert.ok(area.latitudeLo <= r.latitude! && r.latitude! < area.latitudeHi && area.longitudeLo <= r.longitude! && r.longitude! < area.longitudeHi);
  assert.equal(r.photos_count, null); // search results carry no photo strip
});

test('search capture: Dream Coffee (unclaimed, closed on Sunday), NooK, Franci\'s Coffee', { skip: missing(SEARCH) }, () => {
  const rs = parseSearchBody(fixture(SEARCH));
  const dream = byName(rs, 'Dream Coffee');
  assert.equal(dream.place_id, 'ChIJoRVrMS-joRQRkzrMbbRUnBY');
  assert.equal(dream.engine_id, '0x14a1a32f316b15a1:0x169c54b46dcc3a93');
  assert.equal(dream.verified, false); // offers "Claim this business"
  assert.equal(dream.owner_id, null);
  assert.equal(dream.owner_link, null);
  assert.equal(dream.working_hours!['Sunday'], 'Closed');
  assert.equal(dream.working_hours!['Friday'], '7\u202fAM–8:30\u202fPM');
  assert.equal(dream.rating, 4.8);
  assert.equal(dream.reviews, 48);
  assert.equal(dream.site, 'https://www.vrisko.gr/details/ag2e4fci67301a_44_3i4a4c_f341701');
  assert.equal(dream.phone, '+30 21 0261 6578');
  assert.equal(dream.street, 'Eakou 74');
  assert.equal(dream.city, 'Ilion');
  assert.equal(dream.postal_code, '131 22');
  assert.equal(dream.query, '', 'no query given');

  const nook = byName(rs, 'NooK');
  assert.equal(nook.reviews, 1670);
  assert.equal(nook.rating, 4.7);
  assert.equal(nook.subtypes, 'Coffee shop, Breakfast restaurant, Coffee store, Diner, Restaurant');
  assert.equal(nook.type, 'Coffee shop');
  assert.equal(nook.category, 'restaurants');
  assert.equal(nook.range, '$$');
  assert.equal(nook.site, 'https://nookofficial.gr/');
  assert.equal(nook.working_hours!['Sunday'], '9\u202fAM–12\u202fAM');
  assert.equal(Object.keys(nook.about!).length, 13);

  const franci = byName(rs, "Franci's Coffee");
  assert.equal(franci.site, null);
  assert.equal(franci.category, 'cafes');
  assert.equal(franci.owner_id, '107811286023382325186');
  assert.equal(
    franci.location_link,
    "https://www.google.com/maps/place/Franci%27s+Coffee/@38.0304182,23.7128236,14z/data=!4m8!1m2!2m1!1sFranci%27s+Coffee!3m4!1s0x14a1a3347017fa47:0x575361ebcc78036d!8m2!3d38.0304182!4d23.7128236",
  );
});

test('search body with and without the )]}\' line parse the same', { skip: missing(SEARCH) }, () => {
  const t = fixture(SEARCH);
  assert.deepEqual(parseSearchBody(")]}'\n" + t), parseSearchBody(t));
});

function layoutChanged(fn: () => unknown, label: string): void {
  assert.throws(fn, (e: unknown) => e instanceof SourceError && e.type === 'layout_changed', label);
}

test('truncated and empty search bodies are layout_changed; an empty search frame is zero places', { skip: missing(SEARCH) }, () => {
  for (const t of truncations(fixture(SEARCH))) layoutChanged(() => parseSearchBody(t), `cut at ${t.length}`);
  for (const b of [...EMPTY_BODIES, '[]', '[[]]', '[[1,2]]', '[null]']) layoutChanged(() => parseSearchBody(b), JSON.stringify(b));
  assert.deepEqual(parseSearchBody('[["coffee"]]'), []);
  assert.deepEqual(parseSearchBody(")]}'\n" + '[["coffee",[[null,null,null,null,null,null,null,null,"x","y",["coffee",0]]]]]'), []);
});

test('reordered search results: same places, reversed order; shuffled nodes never crash', { skip: missing(SEARCH) }, () => {
  const data = JSON.parse(fixture(SEARCH)) as unknown[][];
  const items = data[0][1] as unknown[][];
  const names = parseSearchData(data).map((r) => r.name);
  const rev = structuredClone(data);
  (rev[0] as unknown[])[1] = [items[0], ...items.slice(1).reverse()];
  assert.deepEqual(parseSearchData(rev).map((r) => r.name), names.slice().reverse());
  for (let seed = 1; seed <= 20; seed++) {
    const copy = structuredClone(data);
    const its = (copy[0] as unknown[])[1] as unknown[][];
    for (let i = 1; i < its.length; i++) {
      const n = its[i][14] as unknown[];
      const sh = shuffled(n, seed * 100 + i);
      const at = sh.indexOf(n[11]);
      [sh[11], sh[at]] = [sh[at], sh[11]];
      its[i][14] = sh;
    }
    const rs = parseSearchData(copy);
    assert.equal(rs.length, 20);
    for (const r of rs) assert.deepEqual(recordShapeErrors(r as unknown as Record<string, unknown>), [], `seed ${seed}`);
  }
});

test('randomly re-typed search bodies: records well-typed or layout_changed, nothing else', { skip: missing(SEARCH) }, () => {
  const data = JSON.parse(fixture(SEARCH));
  for (let seed = 1; seed <= 150; seed++) {
    const m = mutated(data, seed, 40);
    try {
      for (const r of parseSearchData(m)) assert.deepEqual(recordShapeErrors(r as unknown as Record<string, unknown>), [], `seed ${seed}`);
    } catch (e) {
      if (!(e instanceof SourceError && e.type === 'layout_changed')) throw new Error(`seed ${seed}: ${String(e)}`, { cause: e });
    }
  }
});

test('a search that resolved to a single place (place-details shape) is accepted', () => {
  const node: unknown[] = [];
  node[11] = 'Constructed Museum';
  node[10] = '0xabc:0xdef';
  const rs = parseSearchBody(JSON.stringify([null, null, null, null, null, null, node]), { query: 'museum' });
  assert.equal(rs.length, 1);
  assert.equal(rs[0].name, 'Constructed Museum');
  assert.equal(rs[0].cid, String(0xdef));
});

test('a result node whose slots moved by one (the feature id where the name was) is unread, not a place named "0x…"', { skip: missing(SEARCH) }, () => {
  const data = JSON.parse(fixture(SEARCH).replace(/^\)\]\}'\s*/, ''));
  const before = readSearchData(data);
  const node = data[0][1][4][14] as unknown[];
  node.splice(10, 0, null);
  const after = readSearchData(data);
  assert.equal(after.places.length, before.places.length - 1);
  assert.equal(after.unread, before.unread + 1);
  assert.ok(after.places.every((p) => !/^0x/.test(p.name ?? '')));
});
