/**
 * The listing endpoints end to end, offline: the real adapters and executor with the executor in
 * replay mode, serving HAR archives built at test time from the real captures (never copied into the
 * repository). Proves plan → executor → parse → finish → store → HTTP → billing on real data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from './support/harness.ts';
import { defaultRegistry } from '../src/sources/registry.ts';
import { fixtureMissing, fixturePath } from '../src/sources/_kit/fixtures.ts';
import type { Step } from '../src/sources/_kit/adapter.ts';
import { adapter as hotels } from '../src/sources/hotels-search/adapter.ts';

/** One HAR entry answering `step` with `body`. */
function entry(step: Step, body: string, mimeType: string) {
  return {
    startedDateTime: new Date().toISOString(), time: 1,
    request: {
      method: step.method ?? 'GET', url: step.url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0,
      ...(step.body ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: step.body } } : {}),
    },
    response: {
      status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: `${mimeType}; charset=utf-8` }],
      content: { size: 0, mimeType, text: body }, redirectURL: '', headersSize: -1, bodySize: -1,
    },
    cache: {}, timings: { send: 0, wait: 1, receive: 0 },
  };
}

/** Runs `fn` against a service whose executor replays `entries`. */
async function withReplay(entries: unknown[], fn: (h: Awaited<ReturnType<typeof startHarness>>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-replay-'));
  writeFileSync(join(dir, 'run.har'), JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-test', version: '1' }, pages: [], entries } }));
  const h = await startHarness({ adapters: defaultRegistry(), env: { REPLAY_HAR: join(dir, 'run.har') }, settings: { maxAttempts: 1 } });
  try {
    await fn(h);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function usageOf(h: Awaited<ReturnType<typeof startHarness>>, id: string): Promise<string> {
  const hist = (await h.json('/requests?type=finished')).body;
  return hist.find((x: any) => x.id === id).usage;
}

const hotelsCapture = fixturePath('google-hotels', 'search_response_nyc.json');

test('/hotels-search end to end: the served batchexecute answer, 18 hotels billed as 18', { skip: fixtureMissing(hotelsCapture), timeout: 60_000 }, async () => {
  const query = 'https://www.google.com/travel/search?q=new%20york%20hotels&checkin=2026-04-27&checkout=2026-04-28';
  const [step] = hotels.plan({ query, params: { limit: 18 } });
  const frame = JSON.stringify([['wrb.fr', 'AtySUc', readFileSync(hotelsCapture, 'utf8'), null, null, null, 'generic']]);
  const body = `)]}'\n\n${frame.length}\n${frame}\n`;
  await withReplay([entry(step!, body, 'application/json')], async (h) => {
    const r = await h.json(`/hotels-search?query=${encodeURIComponent(query)}&limit=18&async=false`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const rows = r.body.data[0];
    assert.equal(rows.length, 18);
    assert.equal(rows[0].name, '31 Street Broadway Hotel');
    assert.equal(rows[0].query, query);
    assert.equal(rows[0].currency, 'USD');
    assert.equal(new Set(rows.map((x: any) => x.hotel_id)).size, 18);
    assert.equal(await usageOf(h, r.body.id), '18');
  });
});
