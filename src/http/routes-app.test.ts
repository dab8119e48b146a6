import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerAppRoutes } from './routes-app.ts';
import { mapTilesFromEnv } from '../config/map-tiles.ts';

async function appWith(env: NodeJS.ProcessEnv = {}) {
  const app = Fastify();
  registerAppRoutes(app, mapTilesFromEnv(env));
  await app.ready();
  return app;
}

test('the landing page needs nothing its own policy refuses: no inline style or script, a stylesheet and a favicon of its own origin', async () => {
  const app = await appWith();
  const res = await app.inject('/');
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /style-src 'self';/);
  assert.doesNotMatch(res.body, /<style|style=|<script/i);
  const sheet = res.body.match(/<link rel="stylesheet" href="([^"]+)"/)![1];
  const icon = res.body.match(/<link rel="icon" href="([^"]+)"/)![1];
  assert.equal((await app.inject(sheet)).statusCode, 200);
  const svg = await app.inject(icon);
  assert.equal(svg.headers['content-type'], 'image/svg+xml');
  assert.match(svg.body, /^<svg/);
  assert.equal((await app.inject('/favicon.ico')).headers.location, icon);
  await app.close();
});

test('map data is served from the origin (TopoJSON of countries and US states); unknown assets are a 404', async () => {
  const app = await appWith();
  for (const name of ['world-110m.json', 'world-50m.json', 'us-states.json']) {
    const res = await app.inject(`/app/assets/${name}`);
    assert.equal(res.statusCode, 200, name);
    assert.equal(JSON.parse(res.body).type, 'Topology', name);
  }
  assert.equal((await app.inject('/app/assets/index.html')).statusCode, 404);
  assert.equal((await app.inject('/app/assets/..%2Fpackage.json')).statusCode, 404);
  await app.close();
});

test('without MAP_TILE_URL images come from the origin only; with it, from that tile server too, which the page is told of', async () => {
  const off = await appWith();
  const plain = await off.inject('/app');
  assert.match(String(plain.headers['content-security-policy']), /img-src 'self' data: blob:;/);
  assert.doesNotMatch(plain.body, /trawl-map-tiles/);
  await off.close();
  const on = await appWith({ MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png?key="x"', MAP_TILE_ATTRIBUTION: '© <OSM>' });
  const page = await on.inject('/app');
  assert.match(String(page.headers['content-security-policy']), /img-src 'self' data: blob: https:\/\/tiles\.example\.org;/);
  assert.match(String(page.headers['content-security-policy']), /connect-src 'self';/, 'the key still goes nowhere else');
  assert.match(page.body, /<meta name="trawl-map-tiles" content="https:\/\/tiles\.example\.org\/\{z\}\/\{x\}\/\{y\}\.png\?key=&#34;x&#34;" data-attribution="© &#60;OSM&#62;">/);
  await on.close();
});
