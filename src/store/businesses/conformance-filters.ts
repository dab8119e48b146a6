/**
 * The later filters of interface 4.8 on both stores (sqlite.test.ts, postgres.test.ts): attributes,
 * broad_match, business_only, located_in, polygon. Kept beside ./conformance.ts so each suite stays
 * one concern; the same answers are expected from both stores.
 *
 * @example businessFilterConformance('sqlite', async () => openSqliteStore(':memory:'))
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../contract.ts';
import type { BusinessQuery } from './contract.ts';
import { businessStoreOf } from './index.ts';
import { osIdOf } from './os-id.ts';
import { business } from './conformance.ts';

const MALL = osIdOf('engine', 'mall-1');

/** A mall with two shops inside, a park, a park cafe, and a square of four corners for polygons. */
export const FILTER_SAMPLE = [
  business('mall', { name: 'Barton Mall', place_id: null, engine_id: 'mall-1', os_id: MALL, types: ['Shopping mall'], latitude: 30.0, longitude: -97.0 }),
  business('shoe', { name: 'Shoe Town', types: ['Shoe store'], located_in: 'Barton Mall', located_os_id: MALL, latitude: 30.0001, longitude: -97.0001,
    attributes: ['Wheelchair accessible entrance', 'In-store pickup'] }),
  business('food', { name: 'Food Court Pizza', types: ['Italian restaurant', 'Pizza restaurant'], located_in: 'Barton Mall', located_os_id: MALL,
    latitude: 29.9999, longitude: -96.9999, attributes: ['Outdoor seating', 'Wheelchair accessible entrance', 'Dine-in'] }),
  business('park', { name: 'Zilker Park', types: ['Park', 'Tourist attraction'], latitude: 30.5, longitude: -97.5, attributes: ['Dogs allowed'] }),
  business('kiosk', { name: 'Park Kiosk', types: ['Park', 'Cafe'], latitude: 30.5, longitude: -97.0, attributes: ['Outdoor seating'] }),
  business('untyped', { name: 'Nothing Known', latitude: 31.0, longitude: -97.0 }),
];

export function businessFilterConformance(name: string, open: () => Promise<Store>, opts: { skip?: string | false } = {}): void {
  const t = (title: string, fn: (s: Store) => Promise<void>) =>
    test(`business filter conformance [${name}]: ${title}`, { skip: opts.skip || false }, async () => {
      const s = await open();
      try {
        await businessStoreOf(s).upsertBusinesses('a1', FILTER_SAMPLE, 1_000_000);
        await fn(s);
      } finally { await s.close(); }
    });
  const names = async (s: Store, q: Partial<BusinessQuery>) =>
    (await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 100, ...q })).items.map((b) => b.name).sort();

  t('attributes: every one asked, whole and case-insensitive; contained with broadMatch', async (s) => {
    assert.deepEqual(await names(s, { attributes: ['wheelchair accessible entrance'] }), ['Food Court Pizza', 'Shoe Town']);
    assert.deepEqual(await names(s, { attributes: ['Wheelchair accessible entrance', 'OUTDOOR SEATING'] }), ['Food Court Pizza']);
    assert.deepEqual(await names(s, { attributes: ['wheelchair'] }), [], 'a part of an attribute is not the attribute');
    assert.deepEqual(await names(s, { attributes: ['wheelchair'], broadMatch: true }), ['Food Court Pizza', 'Shoe Town']);
    assert.deepEqual(await names(s, { attributes: ['seating|dine-in'] }), [], 'the separator is no wildcard');
    // The records answer their attributes as given.
    const [shoe] = (await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 1, name: 'shoe' })).items;
    assert.deepEqual(shoe.attributes, ['Wheelchair accessible entrance', 'In-store pickup']);
  });

  t('broadMatch: types and ignore_types match a type containing the text', async (s) => {
    assert.deepEqual(await names(s, { types: ['restaurant'] }), []);
    assert.deepEqual(await names(s, { types: ['restaurant'], broadMatch: true }), ['Food Court Pizza']);
    assert.deepEqual(await names(s, { types: ['store', 'mall'], broadMatch: true }), ['Barton Mall', 'Shoe Town']);
    assert.deepEqual(await names(s, { ignoreTypes: ['park', 'store'], broadMatch: true }), ['Barton Mall', 'Food Court Pizza', 'Nothing Known']);
  });

  t('businessOnly: rows with a type that is not a map place (a park cafe is a business; no type is not)', async (s) => {
    assert.deepEqual(await names(s, { businessOnly: true }), ['Barton Mall', 'Food Court Pizza', 'Park Kiosk', 'Shoe Town']);
    assert.equal((await names(s, { businessOnly: false })).length, FILTER_SAMPLE.length);
  });

  t('locatedIn: the businesses inside a place', async (s) => {
    assert.deepEqual(await names(s, { locatedIn: [MALL] }), ['Food Court Pizza', 'Shoe Town']);
    assert.deepEqual(await names(s, { locatedIn: [osIdOf('engine', 'elsewhere')] }), []);
  });

  t('polygon: even-odd rule, the prefilter box from its vertices', async (s) => {
    const square: [number, number][] = [[29.9, -97.1], [29.9, -96.9], [30.1, -96.9], [30.1, -97.1]];
    assert.deepEqual(await names(s, { geo: [{ type: 'polygon', points: square }] }), ['Barton Mall', 'Food Court Pizza', 'Shoe Town']);
    // A triangle whose long side (lat - lng = 126.99995) runs between the mall (30, -97: 127) and the pizza
    // place (29.9999, -96.9999: 126.9998).
    const triangle: [number, number][] = [[29.99, -97.00995], [30.01, -97.00995], [30.01, -96.98995]];
    assert.deepEqual(await names(s, { geo: [{ type: 'polygon', points: triangle }] }), ['Barton Mall', 'Shoe Town']);
    // A concave L: the kiosk (30.5, -97.0) sits in its notch, the park (30.5, -97.5) in its arm.
    const ell: [number, number][] = [[30.4, -97.6], [30.4, -96.9], [30.45, -96.9], [30.45, -97.4], [30.6, -97.4], [30.6, -97.6]];
    assert.deepEqual(await names(s, { geo: [{ type: 'polygon', points: ell }] }), ['Zilker Park']);
    // Ten polygons of 500 vertices (the body's most): every one must hold, and the statement stays within
    // the stores' limits on bound values.
    const ring = (r: number): [number, number][] => Array.from({ length: 500 }, (_, i) => [30 + r * Math.sin((2 * Math.PI * i) / 500), -97 + r * Math.cos((2 * Math.PI * i) / 500)]);
    assert.deepEqual(await names(s, { geo: Array.from({ length: 10 }, (_, k) => ({ type: 'polygon' as const, points: ring(0.01 + k * 0.001) })) }),
      ['Barton Mall', 'Food Court Pizza', 'Shoe Town']);
    // With another filter: both must hold.
    assert.deepEqual(await names(s, { geo: [{ type: 'polygon', points: square }, { type: 'circle', lat: 30, lng: -97, radius_m: 5 }] }), ['Barton Mall']);
  });
}
