import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapTilesFromEnv } from './map-tiles.ts';

test('MAP_TILE_URL: unset is no basemap; a {z}/{x}/{y} address gives its origin and attribution', () => {
  assert.equal(mapTilesFromEnv({}), undefined);
  assert.equal(mapTilesFromEnv({ MAP_TILE_URL: ' ' }), undefined);
  assert.deepEqual(mapTilesFromEnv({ MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© OpenStreetMap contributors' }),
    { url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', origin: 'https://tile.openstreetmap.org', attribution: '© OpenStreetMap contributors' });
  assert.equal(mapTilesFromEnv({ MAP_TILE_URL: 'http://127.0.0.1:9000/t/{z}/{x}/{y}.png' })!.origin, 'http://127.0.0.1:9000');
});

test('MAP_TILE_URL: a wrong address is refused at start, naming the setting', () => {
  assert.throws(() => mapTilesFromEnv({ MAP_TILE_URL: 'tiles/{z}/{x}/{y}.png' }), /MAP_TILE_URL must be an http\(s\) address/);
  assert.throws(() => mapTilesFromEnv({ MAP_TILE_URL: 'https://tiles.example/{z}/{x}.png' }), /with \{z\}, \{x\} and \{y\}/);
  assert.throws(() => mapTilesFromEnv({ MAP_TILE_URL: 'javascript:alert(1)//{z}{x}{y}' }), /MAP_TILE_URL/);
});
