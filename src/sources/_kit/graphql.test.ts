import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphqlError, graphqlBody, isGraphqlAnswer, graphqlPayload, graphqlStep, graphqlUrl, readGraphql, readGraphqlBatch } from './graphql.ts';
import { isSourceError } from './errors.ts';

const HASH = 'a'.repeat(64);

test('payloads: full query, persisted hash, both; batch bodies', () => {
  assert.deepEqual(graphqlPayload({ operationName: 'Q', query: 'query Q { a }', variables: { x: 1 } }), { operationName: 'Q', variables: { x: 1 }, query: 'query Q { a }' });
  assert.deepEqual(graphqlPayload({ operationName: 'Q', sha256Hash: HASH }), { operationName: 'Q', variables: {}, extensions: { persistedQuery: { version: 1, sha256Hash: HASH } } });
  assert.deepEqual(JSON.parse(graphqlBody([{ query: '{a}' }, { query: '{b}' }])), [{ variables: {}, query: '{a}' }, { variables: {}, query: '{b}' }]);
  assert.throws(() => graphqlPayload({ operationName: 'Q' }), /query or a sha256Hash/);
});

test('GET URL form keeps the endpoint parameters and JSON-encodes variables/extensions', () => {
  const u = new URL(graphqlUrl('https://x.example/api/graphql?locale=en', { operationName: 'Q', variables: { id: 'é&1' }, sha256Hash: HASH }));
  assert.equal(u.searchParams.get('locale'), 'en');
  assert.equal(u.searchParams.get('operationName'), 'Q');
  assert.deepEqual(JSON.parse(u.searchParams.get('variables')!), { id: 'é&1' });
  assert.equal(JSON.parse(u.searchParams.get('extensions')!).persistedQuery.sha256Hash, HASH);
});

test('steps: POST JSON by default, GET on request; a GET batch is refused', () => {
  const post = graphqlStep('reviews', 'https://x.example/gql', { query: '{a}' }, { state: { page: 2 } });
  assert.equal(post.method, 'POST');
  assert.equal(post.headers?.['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(post.body!), { variables: {}, query: '{a}' });
  assert.deepEqual(post.state, { page: 2 });
  const get = graphqlStep('reviews', 'https://x.example/gql', { sha256Hash: HASH }, { method: 'GET' });
  assert.equal(get.body, undefined);
  assert.match(get.url, /extensions=/);
  assert.throws(() => graphqlStep('k', 'https://x.example/gql', [{ query: '{a}' }], { method: 'GET' }));
});

test('answers: data, partial data beside errors, batches, XSSI prefix', () => {
  assert.deepEqual(readGraphql('{"data":{"a":1}}'), { a: 1 });
  assert.deepEqual(readGraphql({ data: { a: null }, errors: [{ message: 'partial' }] }), { a: null });
  assert.deepEqual(readGraphql(")]}'\n[{\"data\":{\"a\":1}},{\"data\":{\"a\":2}}]"), { a: 1 });
  assert.deepEqual(readGraphqlBatch('[{"data":{"a":1}},{"data":{"a":2}}]'), [{ a: 1 }, { a: 2 }]);
  assert.deepEqual(readGraphqlBatch('{"data":{"a":1}}'), [{ a: 1 }]);
});

function errorOf(body: unknown): GraphqlError {
  try {
    readGraphql(body);
  } catch (e) {
    assert.ok(e instanceof GraphqlError && isSourceError(e));
    return e;
  }
  assert.fail('no error');
}

test('isGraphqlAnswer tells answers and batches from other JSON', () => {
  assert.equal(isGraphqlAnswer({ data: null, errors: [] }), true);
  assert.equal(isGraphqlAnswer([{ x: 1 }, { data: {} }]), true);
  assert.equal(isGraphqlAnswer([{ node: {} }]), false);
  assert.equal(isGraphqlAnswer('{"data":{}}'), false);
});

test('errors become typed SourceErrors adapters can recognise', () => {
  const pq = errorOf({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
  assert.equal(pq.code, 'persisted_query_not_found');
  assert.equal(pq.type, 'stale_request');
  assert.equal(pq.retryable, true);
  const v = errorOf({ data: null, errors: [{ message: 'Cannot query field "foo" on type "Business".', path: ['business'] }] });
  assert.equal(v.code, 'validation');
  assert.deepEqual(v.errors[0].path, ['business']);
  assert.equal(errorOf({ errors: [{ message: 'x', extensions: { code: 'RATE_LIMITED' } }] }).type, 'rate_limited');
  // graphql-java's classification: a stale persisted hash answered 200 with a ValidationError (a home-rental site, 2026-09).
  const gj = errorOf({ data: null, errors: [{ message: 'Sorry, something went wrong.', extensions: { classification: 'ValidationError' } }] });
  assert.equal(gj.code, 'validation');
  assert.equal(gj.type, 'stale_request');
  assert.equal(errorOf({ errors: [{ message: 'Rate limit exceeded' }] }).type, 'rate_limited');
  assert.equal(errorOf({ errors: [{ message: 'Business not found' }] }).type, 'not_found');
  assert.equal(errorOf({ errors: [{ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }).type, 'network');
  const odd = errorOf({ errors: [{ message: 'something else' }] });
  assert.equal(odd.type, 'layout_changed');
  assert.match(odd.message, /something else/);
  assert.equal(errorOf('<html>blocked</html>').type, 'layout_changed');
  assert.equal(errorOf('[]').code, 'no_data');
  assert.equal(errorOf({}).code, 'no_data');
  assert.throws(() => readGraphqlBatch('[{"data":{"a":1}},{"errors":[{"message":"PersistedQueryNotFound"}]}]'), (e: GraphqlError) => e.code === 'persisted_query_not_found' && /answer 2 of 2/.test(e.message));
});
