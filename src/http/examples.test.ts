import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUERY_EXAMPLES } from '../contract/examples.ts';
import { dataEndpoints } from '../contract/endpoints/index.ts';
import { openApiDocument } from './openapi.ts';

test('example queries name declared endpoints and reach the OpenAPI document as the query parameter\'s example', () => {
  const paths = new Set(dataEndpoints.map((e) => e.path));
  for (const [path, examples] of Object.entries(QUERY_EXAMPLES)) {
    assert.ok(paths.has(path), `${path} is not a data endpoint`);
    assert.ok(examples.length > 0 && examples.every((q) => q.trim() === q && q.length > 0), path);
  }
  const doc = openApiDocument('http://127.0.0.1:8080') as unknown as { paths: Record<string, { get: { parameters: { name: string; example?: string[] }[] } }> };
  assert.deepEqual(doc.paths['/reverse-geocoding'].get.parameters.find((p) => p.name === 'query')!.example, ['40.7580 -73.9855', '48.8584,2.2945']);
  assert.equal(doc.paths['/delivery'].get.parameters.find((p) => p.name === 'query')!.example, undefined, 'none where none is given');
});
