/**
 * Enrichment names at the HTTP edge: `POST /tasks` `enrichments` reads like `/maps/search?enrichment=`,
 * names outside the interface's list are a 422 naming them, and each enrichment asked is priced at
 * submit as its own product (billed per place by the runner, see test/replay-maps.test.ts).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';

const h = await startHarness();
after(() => h.close());
const postTask = (body: Record<string, unknown>) =>
  h.json('/tasks', { method: 'POST', body: JSON.stringify({ service_name: 'engine_maps_service_v2', queries: ['n=1'], ...body }), headers: { 'content-type': 'application/json' } });

test('POST /tasks: unsupported enrichment names answer 422 naming them', async () => {
  for (const name of ['domains_service', 'chatapp1_checker', 'chatapp2_checker']) {
    const r = await postTask({ enrichments: [name] });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.match(r.body.errorMessage, new RegExp(`^422 Unprocessable Entity: .*${name}`));
  }
});

test('POST /tasks and GET /maps/search: an enrichment is priced as its own product at submit', async () => {
  await h.svc.ctx.store.setPrice('ai_chain_info', 12_500, h.account.id);
  const post = await postTask({ enrichments: ['ai_chain_info'] });
  assert.equal(post.status, 200, JSON.stringify(post.body));
  const task = await h.svc.ctx.store.getTask(post.body.id);
  const row = await h.svc.ctx.store.getRequest(task!.requestId!);
  assert.deepEqual(row!.params.enrichment, ['ai_chain_info']);
  assert.deepEqual(row!.params._enrichmentPriceMicros, { ai_chain_info: 12_500 });
  const get = await h.json('/maps/search?query=n%3D1&enrichment=ai_chain_info,emails_validator_service&_enrichmentPriceMicros=0&_enrichmentPrices=0');
  assert.equal(get.status, 202, JSON.stringify(get.body));
  const row2 = await h.svc.ctx.store.getRequest(get.body.id);
  assert.deepEqual(row2!.params._enrichmentPriceMicros, { ai_chain_info: 12_500, emails_validator_service: 1_000 }, 'not settable by the client');
  assert.equal(row2!.params._enrichmentPrices, undefined);
});

test('POST /tasks takes every enrichment name of /maps/search, and the synonym leads_n_contacts', async () => {
  const { SUPPORTED_ENRICHMENTS } = await import('../src/contract/enrichments.ts');
  const all = await postTask({ enrichments: [...SUPPORTED_ENRICHMENTS] });
  assert.equal(all.status, 200, JSON.stringify(all.body));
  const syn = await postTask({ enrichments: ['leads_n_contacts'] });
  assert.equal(syn.status, 200, JSON.stringify(syn.body));
  const row = await h.svc.ctx.store.getRequest((await h.svc.ctx.store.getTask(syn.body.id))!.requestId!);
  assert.deepEqual(row!.params.enrichment, ['contacts_n_leads']);
  assert.deepEqual(Object.keys(row!.params._enrichmentPriceMicros as object), ['contacts_n_leads'], 'priced once, under the canonical name');
});

test('a retried item bills each enrichment once per place', async () => {
  // Its own service: the tasks above finish in the background and would bill into the same account.
  const h2 = await startHarness();
  try {
    const r = await h2.json(`/maps/search?query=${encodeURIComponent('flaky=1;n=3')}&async=false&enrichment=ai_chain_info,leads_n_contacts`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data[0].length, 3);
    const lines = await h2.svc.ctx.store.usageForPeriod(h2.account.id, 0, Date.now() + 60_000);
    const qty = (p: string) => lines.find((l) => l.product === p)?.quantity;
    assert.deepEqual([qty('engine_maps_service_v2'), qty('ai_chain_info'), qty('contacts_n_leads')], [3, 3, 3], 'the failed first attempt billed nothing, the second once');
  } finally {
    await h2.close();
  }
});
