/**
 * The same fuzzed JSON bodies on both stores (issue 28): every route that takes a body answers the
 * same status on SQLite and PostgreSQL, never a 500. The bodies mix valid task fields with text no
 * store can keep (lone UTF-16 surrogates such as "\udfff", NUL), other scripts, emoji, wrong types
 * and nesting; a seeded generator makes a failure reproducible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { PG_SKIP, dropSchema, pgTestUrl, scratchSchema } from '../src/store/postgres/testing.ts';
import { rng } from '../src/sources/_maps/test-support.ts';

const url = pgTestUrl();

const PIECES = ['coffee', 'Αθήνα', '東京', '😀', '\udfff', '\ud800', '\ud83d\ude00', '\u0000', 'a\u0000b', '', ' ', '\ufffd', '%00', '\\u0000', 'x'.repeat(300)];

function fuzzValue(r: () => number, depth = 0): unknown {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const text = () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(PIECES)).join('');
  switch (Math.floor(r() * (depth > 2 ? 4 : 6))) {
    case 0: return text();
    case 1: return Math.floor(r() * 2_000_000) - 1_000;
    case 2: return r() < 0.5;
    case 3: return null;
    case 4: return Array.from({ length: Math.floor(r() * 4) }, () => fuzzValue(r, depth + 1));
    default: return Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, () => [text(), fuzzValue(r, depth + 1)]));
  }
}

/** A task body: mostly well-formed fields, some with fuzzed text, some with fuzzed values. */
function fuzzTask(r: () => number): Record<string, unknown> {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const text = () => Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(PIECES)).join('');
  const body: Record<string, unknown> = { queries: [text()], service_name: pick(['google_maps_service_v2', text()]) };
  if (r() < 0.6) body.tags = Array.from({ length: 1 + Math.floor(r() * 3) }, text);
  if (r() < 0.3) body.settings = { output_extension: pick(['csv', 'json', text()]), output_columns: [text()] };
  if (r() < 0.3) body.language = text();
  if (r() < 0.2) body.locations = [text()];
  if (r() < 0.2) body[text()] = fuzzValue(r);
  if (r() < 0.2) body.tags = fuzzValue(r);
  return body;
}

test('the same fuzzed bodies answer the same statuses on SQLite and PostgreSQL, never 500', { skip: !url && PG_SKIP, timeout: 240_000 }, async (t) => {
  const schema = scratchSchema();
  const sqlite = await startHarness({ balance: 1e6 });
  const pg = await startHarness({ balance: 1e6, backendEnv: { DATABASE_URL: url, DATABASE_SCHEMA: schema } });
  try {
    const r = rng(28);
    const routes = ['/tasks', '/businesses'];
    const differ: string[] = [];
    let n = 0;
    for (let i = 0; i < 300; i++) {
      const route = routes[i % routes.length];
      const body = route === '/tasks' ? fuzzTask(r) : { query: fuzzValue(r), filters: fuzzValue(r), limit: 1 };
      const text = JSON.stringify(body);
      const init = { method: 'POST', body: text, headers: { 'content-type': 'application/json' } };
      const [a, b] = await Promise.all([sqlite.json(route, init), pg.json(route, init)]);
      n++;
      assert.notEqual(a.status, 500, `sqlite 500 on ${route} ${text.slice(0, 200)}: ${JSON.stringify(a.body)}`);
      assert.notEqual(b.status, 500, `postgres 500 on ${route} ${text.slice(0, 200)}: ${JSON.stringify(b.body)}`);
      if (a.status !== b.status) differ.push(`${route} ${text.slice(0, 200)}: sqlite ${a.status}, postgres ${b.status}`);
    }
    t.diagnostic(`${n} bodies, ${differ.length} differing statuses`);
    assert.deepEqual(differ, []);
    // The issue's own body.
    const surrogate = { method: 'POST', body: '{"queries":["coffee"],"tags":["\\udfff"]}', headers: { 'content-type': 'application/json' } };
    const [a, b] = await Promise.all([sqlite.json('/tasks', surrogate), pg.json('/tasks', surrogate)]);
    assert.deepEqual([a.status, b.status], [422, 422]);
    assert.match(b.body.errorMessage, /tags\[0\]: contains a lone UTF-16 surrogate/);
  } finally {
    await sqlite.close();
    await pg.close();
    await dropSchema(url!, schema);
  }
});
