/**
 * `useZipCodes`: a location is searched ZIP by ZIP, every ZIP code of the postal data that lies in it
 * and only those, the task keeps what was searched, and its listing says how many (`metadata.queries_count`). The expected codes are
 * read here from the data file itself, apart from the code under test.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startHarness, until } from './support/harness.ts';
import { US_ZIPS_TXT } from '../src/lookups/geo/data-files.ts';

const rows = readFileSync(US_ZIPS_TXT, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
const zipsWhere = (keep: (r: string[]) => boolean) => [...new Set(rows.filter(keep).map((r) => r[1]))].sort();

const h = await startHarness();
after(() => h.close());
const postTask = (body: Record<string, unknown>) => h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', ...body }), headers: { 'content-type': 'application/json' } });

async function searched(body: Record<string, unknown>): Promise<string[]> {
  const post = await postTask(body);
  assert.equal(post.status, 200, JSON.stringify(post.body));
  const task = await until(async () => { const t = await h.svc.ctx.store.getTask(post.body.id); return t?.status === 'SUCCESS' && t; }, 60_000, 'the task');
  const listed = await h.json(`/tasks?query=${encodeURIComponent(String((body.tags as string[])[0]))}`);
  const view = listed.body.tasks.find((t: { id: string }) => t.id === task.id);
  const row = await h.svc.ctx.store.getRequest(task.requestId!);
  assert.equal(row!.queriesTotal, task.queries.length, 'the task\'s queries are the queries the request searched');
  // The listing's summary: the first 10 and how many (src/store/tasks/summary.ts).
  assert.deepEqual(view.metadata.queries, task.queries.slice(0, 10));
  assert.equal(view.metadata.queries_count ?? view.metadata.queries.length, task.queries.length);
  return task.queries;
}

test('a state is searched ZIP by ZIP: every ZIP code the data files under it, and only those', async () => {
  const want = zipsWhere((r) => r[3] === 'Vermont');
  assert.ok(want.length > 250, `Vermont has ${want.length} ZIP codes in the data`);
  const q = await searched({ categories: ['dentist'], locations: ['US>Vermont'], useZipCodes: true, tags: ['zip-state'] });
  assert.deepEqual(q, want.map((z) => `dentist ${z}, US`));
});

test('a city: the codes named after it; two categories × two cities; a city no code is named after gets its nearest', async () => {
  const burlington = zipsWhere((r) => r[3] === 'Vermont' && r[2] === 'Burlington');
  const montpelier = zipsWhere((r) => r[3] === 'Vermont' && r[2] === 'Montpelier');
  assert.ok(burlington.length >= 2 && montpelier.length >= 1);
  const q = await searched({ categories: ['dentist', 'cafe'], locations: ['US>Vermont>Burlington', 'US>Vermont>Montpelier'], useZipCodes: true, tags: ['zip-city'] });
  const where = [...burlington, ...montpelier];
  assert.deepEqual(q, [...where.map((z) => `dentist ${z}, US`), ...where.map((z) => `cafe ${z}, US`)]);
  // Addison (a /locations city of Vermont) has no postal place of its own name.
  assert.equal(zipsWhere((r) => r[3] === 'Vermont' && r[2] === 'Addison').length, 0);
  const addison = await searched({ categories: ['dentist'], locations: ['US>Vermont>Addison'], useZipCodes: true, tags: ['zip-nearest'] });
  assert.equal(addison.length, 1);
  assert.match(addison[0], /^dentist 05\d{3}, US$/, 'a Vermont code');
});

test('without postal data or without useZipCodes a location is one area, with enrichLocations false one phrase; an unknown US location is a 422', async () => {
  assert.deepEqual(await searched({ categories: ['dentist'], locations: ['SE>Stockholm'], useZipCodes: true, tags: ['zip-se'] }), ['dentist in SE>Stockholm']);
  const my = await postTask({ categories: ['dentist'], locations: ['MY>Johor>Nowhere Town'], useZipCodes: true });
  assert.equal(my.status, 422, 'a Malaysian city the postal data does not name');
  assert.deepEqual(await searched({ categories: ['dentist'], locations: ['30309'], useZipCodes: true, enrichLocations: false, tags: ['zip-own'] }), ['dentist 30309']);
  assert.deepEqual(await searched({ categories: ['dentist'], locations: ['US>Vermont>Burlington'], tags: ['zip-off'] }), ['dentist in US>Vermont>Burlington']);
  const bad = await postTask({ categories: ['dentist'], locations: ['US>Vermont', 'US>Atlantis'], useZipCodes: true });
  assert.equal(bad.status, 422);
  assert.match(bad.body.errorMessage, /locations\.1: "US>Atlantis" has no ZIP codes in the postal data: give a state, or a city the data names, of GET \/locations\?country=US/);
});

test('Malaysia: a state is searched code by code, every postcode malaysia-postcodes files under it; a town, its own', async () => {
  const { allPostcodes } = createRequire(import.meta.url)('malaysia-postcodes') as { allPostcodes: { name: string; city: { name: string; postcode: string[] }[] }[] };
  const perlis = allPostcodes.find((s) => s.name === 'Perlis')!;
  const want = [...new Set(perlis.city.flatMap((c) => c.postcode))].sort();
  assert.deepEqual(await searched({ categories: ['cafe'], locations: ['MY>Perlis'], useZipCodes: true, tags: ['zip-my'] }), want.map((z) => `cafe ${z}, MY`));
  const kangar = [...new Set(perlis.city.find((c) => c.name === 'Kangar')!.postcode)].sort();
  assert.deepEqual(await searched({ categories: ['cafe'], locations: ['MY>Perlis>Kangar'], useZipCodes: true, tags: ['zip-my-town'] }), kangar.map((z) => `cafe ${z}, MY`));
});

test('every /locations state of a postal-data country has its codes in the data', async () => {
  const { postalRows, ZIP_COUNTRIES } = await import('../src/lookups/geo/zip-areas.ts');
  for (const cc of ZIP_COUNTRIES) {
    const states = (await h.json(`/locations?country=${cc}`)).body.items.filter((i: { children: unknown[] }) => i.children.length).map((i: { title: string }) => i.title).sort();
    const postal = new Set(postalRows(cc).map((r) => r.state));
    assert.deepEqual(states.filter((s: string) => !postal.has(s)), [], `${cc}: /locations states without postal codes`);
  }
});

test('supports_zip_codes is true only for countries searched ZIP by ZIP', async () => {
  assert.equal((await h.json('/locations?country=US')).body.supports_zip_codes, true);
  assert.equal((await h.json('/locations?country=MY')).body.supports_zip_codes, true);
  assert.equal((await h.json('/locations?country=SE')).body.supports_zip_codes, false);
});
