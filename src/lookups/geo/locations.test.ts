import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isKnownCountry, isUnknownCountryError, locationsFor, UnknownCountryError, type LocationItem } from './locations.ts';

test('US: 51 states including DC, each with cities, values shaped right', () => {
  const us = locationsFor('US');
  assert.equal(us.supports_zip_codes, true);
  assert.equal(us.items.length, 51);
  const titles = us.items.map((s) => s.title);
  assert.ok(titles.includes('District of Columbia'));
  assert.ok(titles.includes('New York') && titles.includes('California') && titles.includes('Wyoming'));
  assert.deepEqual(titles, [...titles].sort((a, b) => a.localeCompare(b, 'en')));
  for (const s of us.items) {
    assert.equal(s.value, `US>${s.title}`);
    assert.ok(s.children.length > 0, `${s.title} has cities`);
    for (const c of s.children) {
      assert.equal(c.value, `US>${s.title}>${c.title}`);
      assert.deepEqual(c.children, []);
    }
    assert.equal(new Set(s.children.map((c) => c.title)).size, s.children.length, `${s.title} cities are distinct`);
  }
  const ny = us.items.find((s) => s.title === 'New York')!;
  assert.ok(ny.children.some((c) => c.value === 'US>New York>Adams'));
  assert.ok(ny.children.some((c) => c.value === 'US>New York>Brooklyn'));
  const cities = us.items.reduce((n, s) => n + s.children.length, 0);
  assert.ok(cities > 15_000, `US cities ${cities}`);
});

test('other countries: states from GeoNames admin1, no postal data', () => {
  const gb = locationsFor('GB');
  assert.equal(gb.supports_zip_codes, false);
  // The four GeoNames admin1 of GB, then places GeoNames files under GB without one (Dhekelia).
  assert.deepEqual(gb.items.slice(0, 4).map((s) => s.title), ['England', 'Northern Ireland', 'Scotland', 'Wales']);
  assert.ok(gb.items.slice(0, 4).every((s) => s.children.length > 100));
  assert.ok(gb.items.slice(4).every((c) => c.children.length === 0 && c.value === `GB>${c.title}`));
  const de = locationsFor('de');
  assert.equal(de.items.length, 16);
  assert.ok(de.items.find((s) => s.title === 'Bavaria')!.children.some((c) => c.value === 'DE>Bavaria>Munich'));
  assert.equal(locationsFor('JP').items.length, 47);
});

test('cities without a named state are listed at the top level', () => {
  const sg = locationsFor('SG');
  assert.ok(sg.items.length > 0);
  for (const it of sg.items) {
    assert.match(it.value, /^SG>[^>]+$/);
    assert.deepEqual(it.children, []);
  }
  assert.ok(sg.items.some((it) => it.title === 'Singapore'));
});

test('built once per country: a second call is the cached, frozen object', () => {
  const a = locationsFor('FR');
  const t = performance.now();
  const b = locationsFor('fr');
  assert.ok(performance.now() - t < 5);
  assert.equal(a, b);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.items) && Object.isFrozen(a.items[0]) && Object.isFrozen(a.items[0].children));
  assert.throws(() => (a.items as LocationItem[]).push({ title: 'x', value: 'x', children: [] }));
});

test('unknown or malformed country codes throw UnknownCountryError', () => {
  for (const code of ['ZZ', 'USA', '', 'u', '1A', 'U S']) {
    assert.equal(isKnownCountry(code), false, code);
    assert.throws(() => locationsFor(code), (e: unknown) => isUnknownCountryError(e) && e instanceof UnknownCountryError && /ISO 3166-1 alpha-2/.test(e.message));
  }
  assert.equal(isKnownCountry('us'), true);
  assert.equal(isKnownCountry(' BR '), true);
  assert.throws(() => locationsFor(undefined as unknown as string), UnknownCountryError);
});
