/**
 * Decision 23 on a constructed paged source (test/support/paged-source.ts) through the whole
 * service and the real executor: every record carries next_page_cursor, and the `cursor` parameter
 * resumes exactly there — two requests of limit 10 give the same 20 records as one of limit 20, even
 * when the limit cuts a page in the middle. An altered cursor is a 422 at submit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { testRegistry } from './support/test-adapter.ts';
import { pagedAdapter, startPagedServer } from './support/paged-source.ts';

test('next_page_cursor resumes exactly after the chunk; an altered cursor is refused', { timeout: 60_000 }, async () => {
  // Pages of 7: a limit of 10 ends inside the second page.
  const src = await startPagedServer({ total: 30, pageSize: 7 });
  const h = await startHarness({
    adapters: testRegistry(undefined, [pagedAdapter(src.url)]), settings: { allowPrivateTargets: true }, env: { ALLOW_PRIVATE_TARGETS: 'true' },
  });
  try {
    const get = async (path: string) => {
      const r = await h.json(path);
      assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
      return r.body.data[0] as Record<string, any>[];
    };
    const whole = await get('/bizdir-reviews?query=shop&limit=20&async=false');
    assert.deepEqual(whole.map((r) => r.i), Array.from({ length: 20 }, (_, i) => i));
    assert.ok(whole.every((r) => typeof r.next_page_cursor === 'string'), 'every record carries next_page_cursor');
    const first = await get('/bizdir-reviews?query=shop&limit=10&async=false');
    const cursor = first[first.length - 1].next_page_cursor as string;
    const second = await get(`/bizdir-reviews?query=shop&limit=10&async=false&cursor=${encodeURIComponent(cursor)}`);
    const bare = (rs: Record<string, any>[]) => rs.map(({ next_page_cursor: _, ...r }) => r);
    assert.deepEqual(bare([...first, ...second]), bare(whole), 'the same 20 records');
    // A cursor continues after its own chunk: the limit of 10 cut page 2, so records 7-9 resume inside it.
    assert.notEqual(first[9].next_page_cursor, whole[9].next_page_cursor);
    assert.equal(second[9].next_page_cursor, whole[19].next_page_cursor, 'both end at the same point');
    // Records of one chunk share its cursor; the last chunk of the source says there is no more.
    assert.equal(whole[0].next_page_cursor, whole[6].next_page_cursor);
    const rest = await get(`/bizdir-reviews?query=shop&limit=100&async=false&cursor=${encodeURIComponent(whole[19].next_page_cursor)}`);
    assert.deepEqual(rest.map((r) => r.i), Array.from({ length: 10 }, (_, i) => 20 + i));
    assert.equal(rest[9].next_page_cursor, null);

    const [head, payload, mac] = cursor.split('.');
    // The second last character changed (to a different one: testing the last one picked the
    // replacement, which left a payload ending in "AQ" as it was, about 1 run in 64).
    const flipped = `${head}.${payload.slice(0, -2)}${payload.at(-2) === 'A' ? 'B' : 'A'}${payload.slice(-1)}.${mac}`;
    assert.notEqual(flipped, cursor);
    for (const bad of [flipped, 'c1.abc.def', 'not-a-cursor']) {
      const r = await h.json(`/bizdir-reviews?query=shop&cursor=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 422, bad);
      assert.match(r.body.errorMessage, /^422 Unprocessable Entity: cursor is refused/);
    }
    const other = await h.json(`/bizdir-reviews?query=another&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(other.status, 422);
    assert.match(other.body.errorMessage, /continues the query "shop"/);
    const elsewhere = await h.json(`/launchsite-reviews?query=shop&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(elsewhere.status, 422);
    assert.match(elsewhere.body.errorMessage, /continues \/bizdir-reviews/);
  } finally {
    await h.close();
    await src.close();
  }
});
