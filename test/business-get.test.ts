/**
 * `GET /businesses/{id}` (issue 27 item 7): one business record by its os_id (or the place_id it was
 * scraped by), as the account sees it (its own row before the shared pool's, another account's never),
 * billed as one business item; an unknown id is a 404 with the interface's error body and costs nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './support/harness.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { business } from '../src/store/businesses/conformance.ts';
import { OPEN_DATA } from '../src/store/businesses/contract.ts';
import { osIdOf } from '../src/store/businesses/os-id.ts';
import { fromMicros, toMicros } from '../src/billing/money.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

const PRICE = 0.125;
const balanceOf = async (id: string) => fromMicros((await h.svc.ctx.store.getAccount(id))!.balanceMicros);
const read = (id: string, query = '', key?: string) => h.json(`/businesses/${encodeURIComponent(id)}${query}`, key ? { key } : {});

async function account(balance = 10) {
  const a = await h.newAccount({ balance });
  await h.svc.ctx.store.setPrice('businesses', toMicros(PRICE), a.account.id);
  return a;
}

test('a record by its os_id or its place_id, with fields as the hosted clients send them; billed one business', async () => {
  const a = await account();
  const row = business(`get-${a.account.id}`, { name: 'Cafe Uno', phone: '+14155550100', country_code: 'US', city: 'San Francisco' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id, [row], Date.now());

  const whole = await read(row.os_id, '', a.key);
  assert.equal(whole.status, 200, JSON.stringify(whole.body));
  assert.equal(whole.body.os_id, row.os_id);
  assert.equal(whole.body.name, 'Cafe Uno');
  assert.equal(whole.body.city, 'San Francisco');
  assert.equal('data' in whole.body, false, 'the record itself, as the hosted Node client returns `data ?? body`');
  assert.equal(await balanceOf(a.account.id), 10 - PRICE);

  // The hosted Node client's businessesGet: fields comma-joined, async/ui sent with every read.
  const some = await read(row.os_id, '?fields=name,phone&async=false&ui=false', a.key);
  assert.equal(some.status, 200, JSON.stringify(some.body));
  assert.deepEqual(some.body, { name: 'Cafe Uno', phone: '+14155550100' });
  assert.equal(some.headers.get('x-unknown-parameters'), null, 'every parameter the client sends is declared');

  const byPlace = await read(row.place_id!, '', a.key);
  assert.equal(byPlace.status, 200, JSON.stringify(byPlace.body));
  assert.equal(byPlace.body.os_id, row.os_id);
  assert.equal(await balanceOf(a.account.id), 10 - 3 * PRICE);
  const osm = business('x', { os_id: osIdOf('osm', 'node/42'), place_id: null, name: 'OSM cafe', source: 'osm' });
  const engineOnly = business('y', { os_id: osIdOf('engine', '0x1:0x2'), place_id: null, engine_id: '0x1:0x2', name: 'Engine id only' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id, [osm, engineOnly], Date.now());
  assert.equal((await read('node/42', '?fields=name', a.key)).body.name, 'OSM cafe');
  assert.equal((await read('0x1:0x2', '?fields=name', a.key)).body.name, 'Engine id only');
  assert.equal(await balanceOf(a.account.id), 10 - 5 * PRICE);

  const bad = await read(row.os_id, '?fields=name,nope', a.key);
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /^422 Unprocessable Entity: fields: unknown field "nope"; known: os_id/);
  assert.equal(await balanceOf(a.account.id), 10 - 5 * PRICE, 'a refused read is not billed');
  const lines = await h.svc.ctx.store.usageForPeriod(a.account.id, 0, Date.now() + 1000);
  assert.deepEqual(lines, [{ product: 'businesses', unit: 'business', quantity: 5, amountMicros: toMicros(5 * PRICE), unitPriceMicros: toMicros(PRICE) }]);
});

test('unknown ids and another account\'s rows are 404s with the error body, not billed; the shared pool is read, the own row first', async () => {
  const a = await account();
  const b = await account();
  const theirs = business(`theirs-${b.account.id}`, { name: 'Not yours' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(b.account.id, [theirs], Date.now());
  for (const id of [theirs.os_id, 'bz_000000000000000000000000', 'no such place']) {
    const r = await read(id, '', a.key);
    assert.equal(r.status, 404, `${id}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error, true);
    assert.match(r.body.errorMessage, /^404 Not Found: no business /);
  }
  assert.equal((await read(theirs.os_id, '', b.key)).status, 200, 'its own account reads it');
  assert.equal(await balanceOf(a.account.id), 10, 'a 404 costs nothing');

  const open = business(`open-${a.account.id}`, { name: 'Open data cafe', source: 'osm' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(OPEN_DATA, [open], Date.now());
  assert.equal((await read(open.os_id, '', b.key)).body.name, 'Open data cafe');
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id, [{ ...open, name: 'My own copy' }], Date.now());
  assert.equal((await read(open.os_id, '', a.key)).body.name, 'My own copy');
  assert.equal((await read(open.os_id, '', b.key)).body.name, 'Open data cafe');

  assert.equal((await h.json(`/businesses/${open.os_id}`, { key: null })).status, 401);
});

test('an account that cannot pay gets a 402 and no record', async () => {
  const a = await account(0);
  const row = business(`poor-${a.account.id}`, { name: 'Cafe Due' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id, [row], Date.now());
  const r = await read(row.os_id, '', a.key);
  assert.equal(r.status, 402, JSON.stringify(r.body));
  assert.match(r.body.errorMessage, /^402 Payment Required/);
  assert.equal(await balanceOf(a.account.id), 0);
});
