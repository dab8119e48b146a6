/**
 * The whole service offline: the real /maps/search adapter and executor, with the executor in replay
 * mode serving a HAR archive built at test time from the real search capture (never copied into the
 * repository). Proves plan → executor → parse → store → HTTP on real data, deterministically.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from './support/harness.ts';
import { defaultRegistry } from '../src/sources/registry.ts';
import { adapter as mapsSearchAdapter } from '../src/sources/maps-search/adapter.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';

/** A HAR archive answering each URL with 200 and the given body. */
function harOf(answers: [url: string, type: string, body: string][]) {
  return {
    log: {
      version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [],
      entries: answers.map(([url, type, text]) => ({
        startedDateTime: new Date().toISOString(), time: 1,
        request: { method: 'GET', url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
        response: {
          status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: type }],
          content: { size: 0, mimeType: type.split(';')[0], text }, redirectURL: '', headersSize: -1, bodySize: -1,
        },
        cache: {}, timings: { send: 0, wait: 1, receive: 0 },
      })),
    },
  };
}

const capture = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const skip = fixtureMissing(capture);

test('/maps/search end to end from a HAR replay of the real capture', { skip, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-replay-'));
  const [step] = mapsSearchAdapter.plan({ query: 'coffee', params: { limit: 20, language: 'en' } as any });
  writeFileSync(join(dir, 'search.har'), JSON.stringify(harOf([[step.url, 'application/json; charset=utf-8', `)]}'\n${readFileSync(capture, 'utf8')}`]])));
  const h = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: join(dir, 'search.har') }, settings: { maxAttempts: 1 } });
  try {
    const r = await h.json('/maps/search?query=coffee&limit=20&async=false');
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const places = r.body.data[0];
    assert.equal(places.length, 20);
    for (const p of places) {
      assert.equal(p.query, 'coffee');
      assert.ok(p.name && p.place_id?.startsWith('ChIJ'), p.name);
      assert.match(p.engine_id, /^0x[0-9a-f]+:0x[0-9a-f]+$/);
      assert.ok(p.latitude > 37 && p.latitude < 39 && p.longitude > 23 && p.longitude < 24.5, 'Athens area');
    }
    assert.equal(new Set(places.map((p: any) => p.place_id)).size, 20, 'no duplicates');
    // Billed as 20 places, once.
    const hist = (await h.json('/requests?type=finished')).body;
    assert.equal(hist.find((x: any) => x.id === r.body.id).usage, '20');
    // Enrichments: fields on every place, each billed as its own product once per place.
    const e = await h.json('/maps/search?query=coffee&limit=20&async=false&enrichment=ai_chain_info,emails_validator_service');
    assert.equal(e.status, 200, JSON.stringify(e.body).slice(0, 300));
    const enriched = e.body.data[0];
    assert.equal(enriched.length, 20);
    for (const p of enriched) {
      assert.ok(typeof p.is_chain === 'boolean' || (p.is_chain === null && !p.category), `${p.name}: is_chain ${p.is_chain}`);
      if (p.is_chain) assert.match(p.chain_wikidata, /^Q\d+$/);
    }
    const lines = await h.svc.ctx.store.usageForPeriod(h.account.id, 0, Date.now() + 60_000);
    const qty = (product: string) => lines.find((l) => l.product === product)?.quantity;
    assert.equal(qty('ai_chain_info'), 20);
    assert.equal(qty('emails_validator_service'), 20);
    assert.equal(qty('engine_maps_service_v2'), 40, 'the place product: both requests');
    // A query with nothing recorded fails cleanly (no network is tried in replay mode).
    const miss = await h.get('/maps/search?query=tea&limit=20&async=false');
    assert.equal(miss.status, 200);
    const body = await miss.json() as any;
    assert.equal(body.status, 'Failure');
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('/maps/search enrichments end to end: contacts from the places\' sites, e-mail validation, chains; billed once per place per enrichment', { skip, timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-replay-'));
  const [step] = mapsSearchAdapter.plan({ query: 'coffee', params: { limit: 20, language: 'en' } as any });
  const search = `)]}'\n${readFileSync(capture, 'utf8')}`;
  const answers: [string, string, string][] = [[step.url, 'application/json; charset=utf-8', search]];
  // First the places as parsed, to serve a constructed home page at each place's own site address.
  writeFileSync(join(dir, 'a.har'), JSON.stringify(harOf(answers)));
  const h0 = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: join(dir, 'a.har') }, settings: { maxAttempts: 1 } });
  const places0 = (await h0.json('/maps/search?query=coffee&limit=20&async=false')).body.data[0] as any[];
  await h0.close();
  const withSite = places0.filter((p) => p.site);
  assert.ok(withSite.length >= 5, `places with a site: ${withSite.length}`);
  for (const [i, p] of withSite.entries()) {
    answers.push([new URL(p.site).href, 'text/html', `<html><body><p>Contact: owner${i} [at] example [dot] invalid</p><a href="https://www.instagram.com/place${i}/">ig</a></body></html>`]);
  }
  writeFileSync(join(dir, 'b.har'), JSON.stringify(harOf(answers)));
  const h = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: join(dir, 'b.har') }, settings: { maxAttempts: 1 } });
  try {
    const r = await h.json('/maps/search?query=coffee&limit=20&async=false&enrichment=contacts_n_leads,emails_validator_service,ai_chain_info');
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const places = r.body.data[0] as any[];
    assert.equal(places.length, 20);
    for (const p of places) {
      const i = withSite.findIndex((w) => w.place_id === p.place_id);
      if (i < 0) {
        assert.equal(p.site_status, null, p.name);
        continue;
      }
      assert.equal(p.site_status, 'reachable', `${p.name}: ${p.site_error}`);
      assert.equal(p.email_1, `owner${i}@example.invalid`);
      assert.equal(p.instagram, `https://www.instagram.com/place${i}/`);
      assert.equal(typeof p.email_1_status, 'string', 'the validator read the address contacts found');
      assert.ok('is_chain' in p);
    }
    const lines = await h.svc.ctx.store.usageForPeriod(h.account.id, 0, Date.now() + 60_000);
    const qty = (product: string) => lines.find((l) => l.product === product)?.quantity;
    assert.deepEqual([qty('engine_maps_service_v2'), qty('contacts_n_leads'), qty('emails_validator_service'), qty('ai_chain_info')], [20, 20, 20, 20]);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
