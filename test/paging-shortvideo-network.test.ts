/**
 * Checkpointed resume of the two paged sources on constructed multi-page loopback sources: the real
 * adapters run by the real runner against fetches served from constructed pages; one page fails
 * once (a reset connection), the retry resumes at that page: no page fetched twice, every record
 * once, billed once, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { Runner } from '../src/engine/runner.ts';
import type { FetchedResponse, Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { SourceError } from '../src/sources/_kit/errors.ts';
import { adapter as shortvideo } from '../src/sources/shortvideo-comments/adapter.ts';
import { makeAdapter as network } from '../src/sources/network-posts/adapter.ts';
import { networkSettings } from '../src/sources/network-posts/settings.ts';

async function setup(endpoint: string, query: string, params: Record<string, unknown>) {
  const store = await openSqliteStore(':memory:');
  await store.createAccount({ id: 'a', name: 'a', balanceMicros: 1_000_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
  await store.createRequest({ id: 'r', accountId: 'a', endpoint, params, queries: [query], webhook: null, product: 'p', unit: 'comment', unitPriceMicros: 1_000_000,
    emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
  return store;
}

async function records(store: SqliteStore): Promise<any[]> {
  const out: any[] = [];
  for await (const q of store.readResults('r')) out.push(...JSON.parse(q.recordsJson));
  return out;
}

/** Runs the query twice: the first attempt fails once at `failAt`, the second resumes. */
async function runWithOneFailure(store: SqliteStore, adapter: WebAdapter<any, any>, serve: (step: Step) => string, failAt: (step: Step) => boolean) {
  const fetched: string[] = [];
  let failed = false;
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, owner: 'w', backoffBaseMs: 1,
    fetchStep: async (step): Promise<FetchedResponse> => {
      if (!failed && failAt(step)) {
        failed = true;
        throw new SourceError('network', 'connection reset');
      }
      fetched.push(step.url);
      return { status: 200, url: step.url, headers: {}, body: serve(step) };
    },
  });
  const [first] = await store.claimItems('w', 1, 60_000, Date.now());
  await runner.run(first);
  const progress = await store.loadProgress(first.id);
  const [again] = await store.claimItems('w', 1, 60_000, Date.now() + 60_000);
  await runner.run(again);
  return { fetched, progress };
}

test('/shortvideo-comments: a retried query resumes at the comment page that failed', async () => {
  const video = '7000000000000000001';
  const store = await setup('/shortvideo-comments', video, { limit_per_query: 100 });
  // Four constructed pages of 20 (cursor 0, 20, 40, 60), the last says has_more 0.
  const serve = (step: Step) => {
    const c = Number(new URL(step.url).searchParams.get('cursor'));
    const comments = Array.from({ length: 20 }, (_, i) => ({ cid: String(7100000000000000000n + BigInt(c + i)), aweme_id: video, text: `#${c + i}`, create_time: 1770000000 + c + i }));
    return JSON.stringify({ status_code: 0, comments, cursor: c + 20, has_more: c < 60 ? 1 : 0, total: 80 });
  };
  const { fetched, progress } = await runWithOneFailure(store, shortvideo, serve, (s) => s.url.includes('cursor=40'));
  assert.deepEqual(progress && [progress.chunks, progress.records], [2, 40], 'two pages checkpointed before the failure');
  assert.deepEqual(fetched.map((u) => new URL(u).searchParams.get('cursor')), ['0', '20', '40', '60'], 'no page fetched twice');
  const r = await store.getRequest('r');
  assert.deepEqual([r?.status, r?.usage], ['Success', 80]);
  assert.deepEqual((await records(store)).map((x) => x.text), Array.from({ length: 80 }, (_, i) => `#${i}`));
  await store.close();
});

test('/network-posts (signed-in feed): a retried query resumes at the feed page that failed', async () => {
  const store = await setup('/network-posts', 'https://www.linkedin.com/company/constructed-robotics/', { limit: 100 });
  // Three constructed feed pages of 20 (plain voyager form), 60 in total.
  const serve = (step: Step) => {
    const start = Number(new URL(step.url).searchParams.get('start'));
    const elements = Array.from({ length: 20 }, (_, i) => ({
      updateMetadata: { urn: `urn:li:activity:${7200000000000000000n + BigInt(start + i)}` },
      actor: { urn: 'urn:li:company:4242424', name: { text: 'Constructed Robotics' } },
      commentary: { text: { text: `post ${start + i}` } },
    }));
    return JSON.stringify({ elements, paging: { start, count: 20, total: 60 }, metadata: { paginationToken: `tok-${start + 20}` } });
  };
  const adapter = network(networkSettings({ NETWORK_POSTS_COOKIES: 'li_at=x; JSESSIONID="ajax:1"' }));
  const { fetched, progress } = await runWithOneFailure(store, adapter, serve, (s) => s.url.includes('start=40'));
  assert.deepEqual(progress && [progress.chunks, progress.records], [2, 40]);
  assert.deepEqual(fetched.map((u) => new URL(u).searchParams.get('start')), ['0', '20', '40']);
  assert.equal(new URL(fetched[2]).searchParams.get('paginationToken'), 'tok-40', 'the token of the answer before rides in the step');
  const r = await store.getRequest('r');
  assert.deepEqual([r?.status, r?.usage], ['Success', 60]);
  assert.deepEqual((await records(store)).map((x) => x.text), Array.from({ length: 60 }, (_, i) => `post ${i}`));
  await store.close();
});
