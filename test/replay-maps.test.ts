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

const capture = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const skip = fixtureMissing(capture);

test('/maps/search end to end from a HAR replay of the real capture', { skip, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-replay-'));
  const [step] = mapsSearchAdapter.plan({ query: 'coffee', params: { limit: 20, language: 'en' } as any });
  const har = {
    log: {
      version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [],
      entries: [{
        startedDateTime: new Date().toISOString(), time: 1,
        request: { method: 'GET', url: step.url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
        response: {
          status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: 'application/json; charset=utf-8' }],
          content: { size: 0, mimeType: 'application/json', text: `)]}'\n${readFileSync(capture, 'utf8')}` }, redirectURL: '', headersSize: -1, bodySize: -1,
        },
        cache: {}, timings: { send: 0, wait: 1, receive: 0 },
      }],
    },
  };
  writeFileSync(join(dir, 'search.har'), JSON.stringify(har));
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
