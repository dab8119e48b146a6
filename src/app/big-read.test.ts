/**
 * A big result read back (GET /requests/{id}, issue 39): a query of 5,000 places is expanded off the
 * API thread and goes out in slices with event-loop turns between them, the same bytes as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { oneRequest } from '../../test/support/one-request.ts';
import { viewOf } from './results.ts';
import type { AppContext } from './context.ts';
import { SLICE } from '../delivery/shape.ts';
import { firstOfEach } from '../engine/dedupe.ts';

test('a result of 5,000 places reads back in slices, a turn between them, byte for byte the whole answer', { timeout: 60_000 }, async () => {
  const store = await openSqliteStore(':memory:');
  try {
    const { id } = await oneRequest(store, 1e12);
    const [item] = await store.claimItems('w', 1, 60_000, Date.now());
    const records = Array.from({ length: 5_000 }, (_, i) => ({ place_id: `p${i % 4_990}`, name: `Café «${i}» 𝄞 ${(i * 7919).toString(36)}`, rating: (i % 50) / 10,
      address: `${i} Main St, Town ${i % 97}`, about_text: `A place of its own, number ${i}, `.repeat(20), about: { 'Service options': { Takeout: i % 2 === 0 } } }));
    const json = JSON.stringify(records);
    const fan = await store.completeItem({ itemId: item!.id, owner: 'w', recordsJson: json, count: records.length, now: Date.now() });
    assert.equal(fan.finished?.status, 'Success');

    // Stored compressed and big: read back as its bytes, expanded on the thread pool, never decoded.
    for await (const q of store.readResults(id)) assert.ok(q.recordsUtf8?.equals(Buffer.from(json)), 'the stored bytes come back as they were');

    const row = (await store.getRequest(id))!;
    const ctx = { store, now: Date.now, settings: { streamYieldChars: SLICE, retentionMs: 1e12 } } as unknown as AppContext;
    // Shaped reads: the records parsed, shaped and written a slice at a time; the same answer as
    // shaping them all at once (a place twice, to be dropped by dropDuplicates).
    const unique = records.filter(firstOfEach());
    const named = records.map((r) => ({ name: r.name, rating: r.rating }));
    const cases = [[{}, [records]], [{ flat: true }, records], [{ fields: ['name', 'rating'] as string[] }, [named]], [{ dropDuplicates: true }, unique]] as const;
    for (const [o, data] of cases) {
      const view = viewOf(ctx, row, o);
      assert.equal(view.kind, 'success');
      if (view.kind !== 'success') return;
      let turns = 0, on = true, longest = 0;
      const spin = () => { turns++; if (on) setImmediate(spin); };
      setImmediate(spin);
      const parts: Buffer[] = [];
      for await (const s of view.body) {
        longest = Math.max(longest, s.length);
        parts.push(typeof s === 'string' ? Buffer.from(s) : s);
      }
      on = false;
      const body = Buffer.concat(parts);
      assert.ok(body.equals(Buffer.from(JSON.stringify({ id, status: 'Success', data }))), `the same bytes (${JSON.stringify(o)})`);
      assert.ok(longest <= SLICE, `no chunk over a slice: ${longest}`);
      // One turn at least after every slice: the 5,000 places never go out in one macrotask.
      assert.ok(turns >= Math.floor(Buffer.byteLength(json) / SLICE / 2), `${turns} turns for ${body.length} bytes (${JSON.stringify(o)})`);
    }
  } finally {
    await store.close();
  }
});
