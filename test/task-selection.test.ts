/**
 * A task's selection end to end (POST /tasks → runner → result, usage and file): `filters` and
 * `exactMatch` leave places out before they are stored, so those places are not billed; bad selection
 * fields are a 422 naming them. Filters on the source's fields run before the enrichments (a place
 * they leave out is never enriched: its website is not fetched), those on enrichment fields after.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness, until } from './support/harness.ts';
import { registryOfAdapters } from '../src/sources/registry.ts';
import type { LocalAdapter, ParseResult, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { pagedAdapter, startPagedServer } from './support/paged-source.ts';

// Every query finds the same five places, with its own ids.
const places: LocalAdapter = {
  kind: 'local', endpoint: '/maps/search',
  async lookup({ query }) {
    const p = (i: number, type: string, rating: number, site: string | null, status: string) =>
      ({ name: `${query} ${i}`, place_id: `${query}-${i}`, type, subtypes: type, rating, site, business_status: status });
    return [p(1, 'Dentist', 4.9, 'https://a.example', 'OPERATIONAL'), p(2, 'Dentist', 3.1, 'https://b.example', 'OPERATIONAL'),
      p(3, 'Dentist', 4.7, null, 'OPERATIONAL'), p(4, 'Dental clinic', 4.8, 'https://d.example', 'OPERATIONAL'), p(5, 'Dentist', 4.6, 'https://e.example', 'CLOSED_PERMANENTLY')];
  },
};

const h = await startHarness({ adapters: registryOfAdapters([places]) });
after(() => h.close());
const postTask = (body: Record<string, unknown>) => h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', ...body }), headers: { 'content-type': 'application/json' } });

test('filters and exactMatch keep only the places asked, in the result and the file; the places left out are not billed', async () => {
  const post = await postTask({
    categories: ['dentist'], locations: ['US>New York>Adams', 'US>Vermont>Burlington'], exactMatch: true, settings: { output_extension: 'json' },
    // Each location is an area searched with the phrase `dentist`: here both find the same places, kept per query.
    dropDuplicates: false,
    filters: [{ exclusiveGroup: 'site_existence', key: 'site', labelKey: 'title.onlyWithWebsite', operator: 'is not blank', value: null },
      { key: 'business_status', operator: 'equals', value: ['operational'] }, { key: 'rating', operator: 'greater than or equals', value: 4 }],
  });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  const task = await until(async () => { const t = await h.svc.ctx.store.getTask(post.body.id); return t?.status === 'SUCCESS' && t; });
  const r = await h.json(`/requests/${task.requestId}`);
  assert.equal(r.status, 200);
  // Place 1 only: 2 rates 3.1, 3 has no site, 4 is a Dental clinic (not the category asked), 5 is closed.
  assert.deepEqual(r.body.data.map((q: { name: string }[]) => q.map((p) => p.name)), [['dentist 1'], ['dentist 1']]);
  const file = JSON.parse(readFileSync(task.filePath!, 'utf8')) as { name: string }[];
  assert.deepEqual(file.map((p) => p.name), ['dentist 1', 'dentist 1']);
  const lines = await h.svc.ctx.store.usageForPeriod(h.account.id, 0, Date.now() + 60_000);
  assert.equal(lines.filter((l) => l.product === 'engine_maps_service_v2').reduce((s, l) => s + l.quantity, 0), 2, 'billed for the 2 places kept, not the 10 found');
});

test('a selection the service cannot read is a 422 naming the field', async () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ filters: [{ key: 'rating', operator: 'bigger', value: 4 }] }, /filters\.0\.operator: expected one of "equals", .*got "bigger"/],
    [{ filters: [{ key: 'site', operator: 'is blank' }, { key: 'ratting', operator: 'equals', value: 4 }] }, /filters\.1\.key: "ratting" is not a field of the place record/],
    [{ filters: [{ key: 'rating', operator: 'less than', value: 'four' }] }, /filters\.0\.value: operator "less than" needs a number/],
    [{ filters: [{ key: 'rating', operator: 'equals', value: 4, extra: 1 }] }, /filters\.0\.extra: unexpected property/],
    [{ filters: { key: 'rating' } }, /filters: expected array/],
    [{ ignoreWithoutEmails: true }, /ignoreWithoutEmails needs the contacts enrichment/],
    [{ dropEmailDuplicates: true, enrichments: ['ai_chain_info'] }, /dropEmailDuplicates needs the contacts enrichment/],
    [{ exactMatch: 'yes' }, /exactMatch: expected boolean/],
    [{ enrich: 1 }, /enrich: expected boolean/],
    [{ enrichLocations: 'no' }, /enrichLocations: expected boolean/],
    [{ service_name: 'reverse_geocoding_service', exactMatch: true }, /exactMatch compares place categories; reverse_geocoding_service returns location records/],
  ];
  for (const [body, want] of bad) {
    const r = await postTask({ queries: ['dentist'], ...body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.match(r.body.errorMessage, want, JSON.stringify(body));
  }
});

test('the stored selection cannot be set from the query string', async () => {
  const get = await h.json(`/maps/search?query=q&_selection=${encodeURIComponent(JSON.stringify({ ignoreWithoutEmails: true }))}`);
  assert.equal(get.status, 202, JSON.stringify(get.body));
  assert.equal((await h.svc.ctx.store.getRequest(get.body.id))!.params._selection, undefined);
});

test('enrich is accepted, kept in the task\'s metadata, and changes nothing', async () => {
  const ids: string[] = [];
  for (const enrich of [true, false]) {
    const post = await postTask({ queries: ['q'], enrich, tags: [`enrich-${enrich}`] });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    ids.push(post.body.id);
  }
  const names: string[][] = [];
  for (const id of ids) {
    const t = await until(async () => { const x = await h.svc.ctx.store.getTask(id); return x?.status === 'SUCCESS' && x; });
    assert.equal(typeof t.spec.enrich, 'boolean');
    names.push((await h.json(`/requests/${t.requestId}`)).body.data[0].map((p: { name: string }) => p.name));
  }
  assert.deepEqual(names[0], names[1]);
  assert.equal(names[0].length, 5);
});

test('a streamed source (paged, no finish): filters drop records chunk by chunk, the limit counts the records kept, each billed once', { timeout: 60_000 }, async () => {
  const src = await startPagedServer({ total: 100, pageSize: 7 });
  const paged = pagedAdapter(src.url);
  // The constructed records as review records: review_rating 1..5 by position.
  const reviews: WebAdapter = { ...paged, parse: (step, res, ctx) => {
    const out = paged.parse(step, res, ctx) as ParseResult;
    return { ...out, records: out.records.map((r) => ({ review_id: r.id, review_rating: (Number(r.i) % 5) + 1, review_text: r.text, i: r.i })) };
  } };
  const h2 = await startHarness({ adapters: registryOfAdapters([reviews]), settings: { allowPrivateTargets: true }, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  try {
    const post = await h2.json('/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({
      service_name: 'bizdir_reviews_service', queries: ['shop'], limit: 20, filters: [{ key: 'review_rating', operator: 'greater than or equals', value: 4 }] }) });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const task = await until(async () => { const t = await h2.svc.ctx.store.getTask(post.body.id); return t?.status === 'SUCCESS' && t; });
    const data = (await h2.json(`/requests/${task.requestId}`)).body.data[0] as { i: number; review_rating: number }[];
    // Ratings 4 and 5 are positions 3, 4, 8, 9, ...: the first 20 of them.
    assert.deepEqual(data.map((r) => r.i), Array.from({ length: 20 }, (_, k) => 5 * Math.floor(k / 2) + 3 + (k % 2)));
    const lines = await h2.svc.ctx.store.usageForPeriod(h2.account.id, 0, Date.now() + 60_000);
    assert.equal(lines.filter((l) => l.product === 'bizdir_reviews_service').reduce((s, l) => s + l.quantity, 0), 20);
  } finally {
    await h2.close();
    await src.close();
  }
});

test('with the contacts enrichment, a filter on a source field runs first: only the places it keeps have their site fetched; a filter on an enrichment field still applies after', { timeout: 60_000 }, async () => {
  // Loopback websites: /p1 .. /p5, each home page counted; /p3 shows no address.
  const hits = new Map<string, number>();
  const srv = createServer((req, res) => {
    const path = req.url ?? '/';
    if (/^\/p\d$/.test(path)) hits.set(path, (hits.get(path) ?? 0) + 1);
    const n = path.slice(2);
    res.writeHead(path === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' });
    res.end(path === '/p3' ? '<html><body>No contact here</body></html>' : `<html><body><p>Contact: owner${n} [at] example [dot] invalid</p></body></html>`);
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const site = (i: number) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}/p${i}`;
  const ratings = [4.9, 3.1, 4.7, 4.8, 4.0];
  const sited: LocalAdapter = {
    kind: 'local', endpoint: '/maps/search',
    async lookup({ query }) {
      return ratings.map((rating, k) => ({ name: `${query} ${k + 1}`, place_id: `${query}-${k + 1}`, type: 'Dentist', subtypes: 'Dentist', rating, site: site(k + 1) }));
    },
  };
  const h2 = await startHarness({ adapters: registryOfAdapters([sited]), settings: { allowPrivateTargets: true }, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  try {
    const post = await h2.json('/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({
      service_name: 'engine_maps_service_v2', queries: ['dentist'], enrichments: ['contacts_n_leads'],
      filters: [{ key: 'rating', operator: 'greater than', value: 4.5 }, { key: 'email_1', operator: 'is not blank', value: null }] }) });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const task = await until(async () => { const t = await h2.svc.ctx.store.getTask(post.body.id); return t?.status === 'SUCCESS' && t; });
    // 2 (3.1) and 5 (4.0) are left out by the rating before the enrichment: their sites are never fetched.
    assert.deepEqual([...hits.keys()].sort(), ['/p1', '/p3', '/p4']);
    const data = (await h2.json(`/requests/${task.requestId}`)).body.data[0] as { name: string; email_1?: string }[];
    // 3 has no address on its site: the filter on email_1 (an enrichment field) leaves it out afterwards.
    assert.deepEqual(data.map((p) => [p.name, p.email_1]), [['dentist 1', 'owner1@example.invalid'], ['dentist 4', 'owner4@example.invalid']]);
    const lines = await h2.svc.ctx.store.usageForPeriod(h2.account.id, 0, Date.now() + 60_000);
    const qty = (product: string) => lines.filter((l) => l.product === product).reduce((s, l) => s + l.quantity, 0);
    assert.deepEqual([qty('engine_maps_service_v2'), qty('contacts_n_leads')], [2, 2], 'only the places kept are billed, as places and for the enrichment');
  } finally {
    await h2.close();
    await new Promise((ok) => srv.close(ok));
  }
});
