import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HERE_BUSY, HERE_MAX_CHARS, INLINE_CHARS, JOBS_PER_THREAD, parseOnThreads, parseThreads } from './parse-thread.ts';
import { adapter } from '../sources/maps-search/adapter.ts';
import { SourceError } from '../sources/_kit/errors.ts';
import type { WebAdapter } from '../sources/_kit/adapter.ts';
import { fixturePath, fixtureMissing } from '../sources/_kit/fixtures.ts';
import { areaResolvesHere } from '../lookups/geo/area/resolve.ts';
import { undecoded, withBody } from '../fetch/lazy-body.ts';
import { decodeText } from '../fetch/decode.ts';

const CAPTURE = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const ctx = { query: 'coffee', params: { limit: 20, language: 'en' } };
const [step] = adapter.plan(ctx as never);
const response = (body: string) => ({ status: 200, url: step.url, headers: { 'content-type': 'application/json' }, body });

test('PARSE_THREADS: a count, 0 = here; by default at least one', () => {
  assert.equal(parseThreads({ PARSE_THREADS: '0' }), 0);
  assert.equal(parseThreads({ PARSE_THREADS: '3' }), 3);
  assert.ok(parseThreads({}) >= 1);
  assert.equal(parseOnThreads(0), null);
});

// A thread past its share: every body from INLINE_CHARS up crosses (the rule's other half is tested below).
const busy = { busy: () => 1 };

test('a parse on the parse thread: the records parsed here, cloned back', { skip: fixtureMissing(CAPTURE), timeout: 60_000 }, async () => {
  const parse = parseOnThreads(1, busy)!;
  try {
    const res = response(`)]}'\n${readFileSync(CAPTURE, 'utf8')}`);
    const there = await parse('/maps/search', adapter as WebAdapter, step, res, ctx);
    const here = adapter.parse(step, res, ctx as never);
    assert.equal(there.records.length, 20);
    assert.deepEqual(there, here);
  } finally {
    await parse.close();
  }
});

test('a body not yet decoded crosses as the fetched bytes: the thread decodes them as the executor would, this thread never does', { skip: fixtureMissing(CAPTURE), timeout: 60_000 }, async () => {
  const parse = parseOnThreads(1, busy)!;
  try {
    const bytes = Buffer.from(`)]}'\n${readFileSync(CAPTURE, 'utf8')}`);
    const lazy = withBody({ status: 200, url: step.url, headers: { 'content-type': 'application/json' } }, bytes, 'application/json');
    const there = await parse('/maps/search', adapter as WebAdapter, step, lazy, ctx);
    assert.equal(undecoded(lazy)?.bytes, bytes, 'the body was not read on this thread');
    assert.deepEqual(there, adapter.parse(step, response(decodeText(bytes, 'application/json')), ctx as never));
    assert.equal(there.records.length, 20);
    // Another charset: the thread's text is the one decodeText makes (windows-1252: 0x80 is the euro sign).
    const mine = { ...adapter, parse: () => ({ records: [] }) } as unknown as WebAdapter;
    const latin = Buffer.concat([Buffer.from(`)]}'\n["caf`, 'latin1'), Buffer.from([0xe9, 0x20, 0x80]), Buffer.from(`", ${'0,'.repeat(INLINE_CHARS)}`, 'latin1')]);
    const res = withBody({ status: 200, url: step.url, headers: {} }, latin, 'text/plain; charset=windows-1252');
    const err = await Promise.resolve(parse('/maps/search', mine, step, res, ctx)).catch((e: unknown) => e);
    assert.ok(err instanceof SourceError, 'the served adapter refused it on the thread');
    // Not JSON (no closing bracket): the error quotes the text's start as the thread decoded it.
    assert.match(err.message, /not JSON \(starts .*café €/, 'the thread read the text windows-1252 gives');
    assert.ok(undecoded(res), 'not decoded here');
  } finally {
    await parse.close();
  }
});

test('a search page parses from its bytes: its body is never decoded whole, here or on the thread, and gives the records its text gives', { skip: fixtureMissing(CAPTURE), timeout: 60_000 }, async () => {
  const bytes = Buffer.from(`)]}'\n${readFileSync(CAPTURE, 'utf8')}`);
  const lazy = () => withBody({ status: 200, url: step.url, headers: { 'content-type': 'application/json' } }, Buffer.from(bytes), 'application/json');
  const fromText = adapter.parse(step, response(decodeText(bytes, 'application/json')), ctx as never);
  const here = lazy();
  assert.deepEqual(adapter.parse(step, here, ctx as never), fromText);
  assert.ok(undecoded(here), 'the adapter parsed the bytes without reading the body');
  // On the thread the slot's bytes come as such a body (./body-slots.ts slotResponse); the same records.
  const parse = parseOnThreads(1, busy)!;
  try {
    assert.deepEqual(await parse('/maps/search', adapter as WebAdapter, step, lazy(), ctx), fromText);
  } finally {
    await parse.close();
  }
});

test('parse thread: a parse error is a SourceError with its type; a short body parses on this thread', { timeout: 60_000 }, async () => {
  const parse = parseOnThreads(1, busy)!;
  try {
    // Not a map search answer, and long enough to cross: the thread's layout_changed comes back typed.
    const err = await Promise.resolve().then(() => parse('/maps/search', adapter as WebAdapter, step, response(`)]}'\n[${'0,'.repeat(INLINE_CHARS)}0]`), ctx)).catch((e: unknown) => e);
    assert.ok(err instanceof SourceError, String(err));
    assert.equal((err as SourceError).type, 'layout_changed');
    assert.equal((err as SourceError).retryable, false);

    // A short body: the adapter handed in parses it here (the thread would load the served one).
    const mine = { ...adapter, parse: () => ({ records: [{ here: true }] }) } as unknown as WebAdapter;
    assert.deepEqual(await parse('/maps/search', mine, step, response('[]'), ctx), { records: [{ here: true }] });
    // An endpoint the served table lacks fails the query with a reason, as a parse error does.
    const none = await Promise.resolve().then(() => parse('/nowhere', mine, step, response(' '.repeat(INLINE_CHARS)), ctx)).catch((e: Error) => e);
    assert.match(String((none as Error).message), /no web adapter serves \/nowhere/);
  } finally {
    await parse.close();
  }
});

test('parse thread: a burst beyond what the threads hold parses here', { timeout: 60_000 }, async () => {
  const parse = parseOnThreads(1, busy)!;
  try {
    const mine = { ...adapter, parse: () => ({ records: [{ here: true }] }) } as unknown as WebAdapter;
    // Long bodies that are no map search answer: on the thread the served adapter refuses them.
    const big = response(`)]}'\n[${'0,'.repeat(INLINE_CHARS)}0]`);
    const outs = await Promise.all(Array.from({ length: JOBS_PER_THREAD + 3 }, () => Promise.resolve(parse('/maps/search', mine, step, big, ctx)).then(
      (r) => (r.records[0] as { here?: boolean }).here === true ? 'here' : 'records',
      (e: unknown) => (e instanceof SourceError ? e.type : String(e)),
    )));
    assert.deepEqual(outs, [...Array(JOBS_PER_THREAD).fill('layout_changed'), 'here', 'here', 'here']);
  } finally {
    await parse.close();
  }
});

test('parse thread: a page up to HERE_MAX_CHARS parses here while this thread has room, else it crosses', { timeout: 60_000 }, async () => {
  let share = 0;
  const parse = parseOnThreads(1, { busy: () => share })!;
  try {
    const mine = { ...adapter, parse: () => ({ records: [{ here: true }] }) } as unknown as WebAdapter;
    // No map search answer: on the thread the served adapter refuses it, here `mine` answers.
    const where = (chars: number) => Promise.resolve(parse('/maps/search', mine, step, response(`)]}'\n[${'0,'.repeat(chars / 2)}0]`), ctx)).then(
      (r) => ((r.records[0] as { here?: boolean }).here === true ? 'here' : 'records'),
      (e: unknown) => (e instanceof SourceError ? e.type : String(e)),
    );
    assert.equal(await where(4 * INLINE_CHARS), 'here');
    assert.equal(await where(HERE_MAX_CHARS + 2), 'layout_changed', 'a larger page crosses however idle this thread is');
    share = HERE_BUSY;
    assert.equal(await where(4 * INLINE_CHARS), 'layout_changed', 'a thread at its share hands the page over');
  } finally {
    await parse.close();
  }
});

test('an area query plans on the parse thread (offThread), as it would here; a refused area is a SourceError', { timeout: 60_000 }, async () => {
  const parse = parseOnThreads(1)!;
  try {
    const area = { query: 'dentist', params: { limit: 100, language: 'en', area: '-115.3,36.0,-115.1,36.2' } };
    assert.equal(adapter.offThread?.(area as never), true);
    assert.equal(adapter.offThread?.(ctx as never), false);
    const before = areaResolvesHere();
    const there = await parse.plan('/maps/search', adapter as WebAdapter, area);
    assert.equal(areaResolvesHere(), before, 'the shape was resolved on the thread, not here');
    assert.deepEqual(there, adapter.plan(area as never));
    const bad = await Promise.resolve(parse.plan('/maps/search', adapter as WebAdapter, { ...area, params: { ...area.params, area: 'ZZ>Nowhere' } })).catch((e: unknown) => e);
    assert.ok(bad instanceof SourceError && bad.type === 'invalid_query', String(bad));
    // A query without an area plans here (no thread crossing for a one-step plan).
    const mine = { ...adapter, plan: () => [{ kind: 'here', url: 'x', expect: 'json' }] } as unknown as WebAdapter;
    assert.deepEqual(await parse.plan('/maps/search', mine, ctx), [{ kind: 'here', url: 'x', expect: 'json' }]);
  } finally {
    await parse.close();
  }
});
