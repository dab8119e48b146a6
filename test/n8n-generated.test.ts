/**
 * The n8n node's description is generated from the contract (scripts/n8n-node.ts): the committed
 * integrations/n8n/nodes/Trawl/Trawl.generated.ts must be what the generator writes now, so a change
 * to an endpoint, parameter or account operation that was not regenerated fails here. Also checks what
 * the generation promises: an operation per served data endpoint, the account operations, every
 * declared parameter of each endpoint as a field, the trigger's events from the contract.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { N8N_GENERATED, n8nGeneratedSource, n8nProperties, n8nWebhookEvents, servedEndpoints } from '../scripts/n8n-node.ts';
import { toolNameOf } from '../src/mcp/tools.ts';
import { WEBHOOK_EVENTS } from '../src/contract/webhooks.ts';

test('n8n node: the committed generated description is current (else: npm run n8n:generate)', () => {
  assert.equal(readFileSync(N8N_GENERATED, 'utf8'), n8nGeneratedSource(), 'integrations/n8n/nodes/Trawl/Trawl.generated.ts is stale: run npm run n8n:generate and commit it');
});

test('n8n node: every served endpoint is an operation with every declared parameter; account operations; trigger events', () => {
  const endpoints = servedEndpoints();
  const props = n8nProperties(endpoints) as any[];
  const operations = props.filter((p) => p.name === 'operation');
  for (const e of endpoints) {
    const value = toolNameOf(e.path);
    const op = operations.find((p) => p.displayOptions.show.resource[0] === e.family)?.options.find((o: any) => o.value === value);
    assert.ok(op, `${e.path} has an operation`);
    assert.equal(op.routing.request.url, e.path);
    const shown = props.filter((p) => p.displayOptions?.show?.operation?.[0] === value);
    const names = shown.flatMap((p) => (p.type === 'collection' ? p.options.map((o: any) => o.name) : [p.name]));
    for (const k of Object.keys(e.params)) assert.ok(names.includes(k), `${e.path}: ${k} is a field`);
    for (const k of e.required ?? []) assert.ok(shown.some((p) => p.name === k && p.required), `${e.path}: ${k} is required`);
    assert.ok(names.includes('queries') && names.includes('waitSeconds'));
  }
  const of = (resource: string) => operations.find((p) => p.displayOptions.show.resource[0] === resource).options.map((o: any) => o.value);
  assert.deepEqual(of('request'), ['list', 'get', 'cancel']);
  assert.deepEqual(of('account'), ['balance']);
  assert.deepEqual(of('business'), ['search', 'get']);
  assert.deepEqual(of('monitor'), ['create', 'list', 'get', 'changes', 'pause', 'resume', 'delete']);
  assert.deepEqual(n8nWebhookEvents().map((e) => e.value), [...WEBHOOK_EVENTS]);
  // A new parameter changes the generated text (the staleness check above can fail).
  const [first, ...rest] = endpoints;
  const changed = n8nGeneratedSource([{ ...first, params: { ...first.params, added_for_test: { type: 'string' } as never } }, ...rest]);
  assert.notEqual(changed, n8nGeneratedSource(endpoints));
  assert.match(changed, /added_for_test/);
});
