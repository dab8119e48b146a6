import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callOnLookupThread, onLookupThread } from './threaded.ts';
import { source as geo } from './geo/source.ts';
import { emailsFinder } from './email/source.ts';
import { SourceError } from '../sources/_kit/errors.ts';

test('reverse geocoding runs on the lookup thread: the same record as here; errors keep their type', { timeout: 120_000 }, async () => {
  const threaded = await geo.adapter();
  assert.equal(threaded.kind, 'local');
  assert.equal(threaded.checkQuery?.('91,200')?.includes('not a coordinate pair'), true, 'checkQuery answers on this thread');
  const there = await (threaded as any).lookup({ query: '40.7624284, -73.973794', params: {} }, { settings: {} });
  const { reverseGeocodingAdapter } = await import('./geo/adapter.ts');
  const here = await reverseGeocodingAdapter.lookup({ query: '40.7624284, -73.973794', params: {} }, { settings: {} });
  assert.deepEqual(there, here);
  assert.equal(here[0].city, 'Manhattan');

  // A SourceError thrown on the lookup thread is a SourceError here, with its type (retries depend on it).
  const finder = await emailsFinder.adapter();
  const err = await (finder as any).lookup({ query: 'nodomain', params: {} }, { settings: {} }).catch((e: unknown) => e);
  assert.ok(err instanceof SourceError, String(err));
  assert.equal((err as SourceError).type, 'invalid_query');
  assert.equal((err as SourceError).retryable, false);
});

test('LOOKUP_THREADS=0: the adapter itself, on this thread', async () => {
  const a = await onLookupThread({ kind: 'local', endpoint: '/reverse-geocoding' }, new URL('./geo/adapter.ts', import.meta.url), 'reverseGeocodingAdapter', 0);
  const { reverseGeocodingAdapter } = await import('./geo/adapter.ts');
  assert.equal(a, reverseGeocodingAdapter);
});

test('callOnLookupThread: a plain function runs on the lookup thread, its argument and result cloned; with 0 threads, here', { timeout: 120_000 }, async () => {
  const mod = new URL('../../test/support/which-thread.ts', import.meta.url);
  const there = await callOnLookupThread<unknown, { threadId: number; echo: unknown }>(mod, 'whichThread', { a: [1, 'x'] });
  assert.notEqual(there.threadId, 0);
  assert.deepEqual(there.echo, { a: [1, 'x'] });
  const here = await callOnLookupThread<unknown, { threadId: number }>(mod, 'whichThread', null, 0);
  assert.equal(here.threadId, 0);

});
