/**
 * The canary's verdicts (./canary-check.ts) on records and errors, and every source's canary
 * declaration: a web source has one, its adapter accepts the query and plans a request from it with
 * the parameters as the API reads them, and the fields it checks are declared record fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { EXIT_CODES, judge, worst } from './canary-check.ts';
import { SOURCES } from '../sources/registry.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import { parseQueryString, readParams } from '../contract/params.ts';
import type { Canary } from '../sources/_kit/source.ts';

const schema = Type.Object({ query: Type.String(), id: Type.Union([Type.String(), Type.Null()]), n: Type.Union([Type.Integer(), Type.Null()]) });
const canary: Canary = { query: 'q', min: 2, fields: ['id'] };
const rec = (id: string | null, n: number | null = 1) => ({ query: 'q', id, n });

test('enough records with every named field filled: ok', () => {
  assert.deepEqual(judge(canary, schema, { records: [rec('a'), rec('b', null)] }), { status: 'ok', reason: null });
});

test('fewer records than the minimum: degraded, saying how many', () => {
  assert.deepEqual(judge(canary, schema, { records: [rec('a')] }), { status: 'degraded', reason: '1 records, at least 2 expected' });
});

test('a named field left empty (a renamed key reads as null) or a record off the schema: layout_changed', () => {
  const empty = judge(canary, schema, { records: [rec('a'), rec(null), rec('')] });
  assert.deepEqual(empty, { status: 'layout_changed', reason: 'fields left empty: id (2 of 3 records)' });
  const typed = judge(canary, schema, { records: [rec('a'), { query: 'q', id: 'b', n: 'one' }] });
  assert.equal(typed.status, 'layout_changed');
  assert.match(typed.reason!, /^records break the declared schema: record 1 \/n: /);
});

test('errors: walls are blocked, parser and request-form failures layout_changed, the rest degraded', () => {
  const of = (type: string, message = 'x') => judge(canary, schema, { error: { type, message } });
  for (const t of ['blocked', 'captcha', 'consent', 'rate_limited', 'login_required']) assert.equal(of(t).status, 'blocked', t);
  for (const t of ['layout_changed', 'stale_request']) assert.equal(of(t).status, 'layout_changed', t);
  for (const t of ['network', 'timeout', 'not_found', 'http_422']) assert.equal(of(t).status, 'degraded', t);
  // The executor's message already names its type: said once.
  assert.equal(of('captcha', 'captcha: HTTP 429 from www.youtube.com (rule unusual-traffic)').reason, 'captcha: HTTP 429 from www.youtube.com (rule unusual-traffic)');
  assert.equal(of('network', 'refused').reason, 'network: refused');
  assert.match(of('not_found').reason!, /target may be gone/);
});

test('the exit code is the worst status seen', () => {
  assert.equal(worst([]), 'ok');
  assert.equal(worst(['ok', 'layout_changed', 'degraded']), 'layout_changed');
  assert.equal(worst(['degraded', 'blocked', 'ok']), 'blocked');
  assert.deepEqual([EXIT_CODES.ok, EXIT_CODES.degraded, EXIT_CODES.blocked, EXIT_CODES.layout_changed], [0, 3, 4, 5]);
});

test('every web source declares a canary its adapter accepts and plans, checking declared fields', async () => {
  for (const row of SOURCES) {
    const adapter = await row.adapter();
    if (adapter.kind !== 'web') {
      assert.equal(row.canary, undefined, `${row.endpoint}: lookups read shipped data or mail servers, not a site`);
      continue;
    }
    const c = row.canary;
    assert.ok(c, `${row.endpoint} has no canary: add one to its index.ts`);
    const decl = endpointFor(row.endpoint)!;
    const props = Object.keys((decl.record as unknown as { properties: object }).properties);
    for (const f of c.fields) assert.ok(props.includes(f), `${row.endpoint}: canary field ${f} is not a declared record field`);
    const qs = new URLSearchParams(Object.entries(c.params ?? {}).map(([k, v]) => [k, String(v)]));
    const params = readParams(decl.params, parseQueryString(qs.toString()), decl.required);
    for (const k of Object.keys(c.params ?? {})) assert.ok(k in decl.params, `${row.endpoint}: canary parameter ${k} is not declared`);
    const limit = params.limit ?? params.limit_per_query;
    if (typeof limit === 'number') assert.ok(c.min <= limit, `${row.endpoint}: min ${c.min} above its limit ${limit}`);
    assert.equal(adapter.checkQuery?.(c.query), undefined, `${row.endpoint}: the canary query is refused`);
    assert.ok(adapter.plan({ query: c.query, params }).length > 0, `${row.endpoint}: no request planned for the canary query`);
  }
});
