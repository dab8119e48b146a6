/**
 * clients/typescript/src/schema.ts is generated from the contract (npm run clients:generate). Here it
 * is generated again in memory: a contract change committed without regenerating fails this test,
 * so the published client cannot silently fall behind the served /openapi.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openApiDocument } from '../src/http/openapi.ts';
import { clientTypes, GENERATOR_BASE_URL } from '../scripts/client-types.ts';

test('the committed client types are what the generator makes from the contract now', async () => {
  const committed = readFileSync(new URL('../clients/typescript/src/schema.ts', import.meta.url), 'utf8');
  const fresh = await clientTypes(openApiDocument(GENERATOR_BASE_URL));
  if (committed === fresh) return;
  const a = committed.split('\n');
  const b = fresh.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  assert.fail(`clients/typescript/src/schema.ts is stale: run npm run clients:generate and commit it.\nfirst difference at line ${i + 1}:\n  committed: ${a[i] ?? '(end of file)'}\n  generated: ${b[i] ?? '(end of file)'}`);
});
